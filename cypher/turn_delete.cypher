// Delete one turn of a user and its pieces (its facts are deleted first, facts_delete). The
// NEXT chain is joined around it, and its session records the position as deleted
// (`deleted_idxs`): ids are derived from positions, so a later append never reuses one, and the
// session's turns plus its deleted positions still add up to its `turn_count`.
MATCH (t:Turn {id: $turn_id}) WHERE t.user_id = $user_id
MATCH (s:Session {id: t.session_id, user_id: $user_id})
OPTIONAL MATCH (prev:Turn {user_id: $user_id})-[:NEXT]->(t)
OPTIONAL MATCH (t)-[:NEXT]->(next:Turn {user_id: $user_id})
FOREACH (_ IN CASE WHEN prev IS NOT NULL AND next IS NOT NULL THEN [1] ELSE [] END |
  MERGE (prev)-[:NEXT]->(next))
SET s.deleted_idxs = [i IN coalesce(s.deleted_idxs, []) WHERE i <> t.idx] + t.idx
WITH t, t.id AS id, t.source_id AS source_id, s.source_id AS session_source_id
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_PIECE]->(p:MessagePiece)
  WHERE p.user_id = $user_id
  DETACH DELETE p
  RETURN count(p) AS pieces
}
DETACH DELETE t
RETURN id, source_id, session_source_id, pieces
