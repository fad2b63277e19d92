// Re-key one user's nodes in place (migration 0005): the new id, the old one kept as `legacy_id`
// (so citations made before stay resolvable), and the id-valued properties that point at them.
CALL () {
  UNWIND $sessions AS row
  MATCH (n:Session {id: row.old, user_id: $user_id})
  SET n.legacy_id = coalesce(n.legacy_id, row.old), n.id = row.new
  RETURN count(*) AS sessions
}
CALL () {
  UNWIND $turns AS row
  MATCH (n:Turn {id: row.old, user_id: $user_id})
  SET n.legacy_id = coalesce(n.legacy_id, row.old), n.id = row.new, n.session_id = row.session_id
  RETURN count(*) AS turns
}
CALL () {
  UNWIND $pieces AS row
  MATCH (n:MessagePiece {id: row.old, user_id: $user_id})
  SET n.legacy_id = coalesce(n.legacy_id, row.old), n.id = row.new, n.turn_id = row.turn_id,
      n.session_id = row.session_id
  RETURN count(*) AS pieces
}
CALL () {
  UNWIND $facts AS row
  MATCH (n:FactEvent {id: row.old, user_id: $user_id})
  SET n.legacy_id = coalesce(n.legacy_id, row.old), n.id = row.new, n.turn_id = row.turn_id,
      n.session_id = row.session_id
  RETURN count(*) AS facts
}
CALL () {
  UNWIND $entities AS row
  MATCH (n:Entity {id: row.old, user_id: $user_id})
  SET n.legacy_id = coalesce(n.legacy_id, row.old), n.id = row.new
  RETURN count(*) AS entities
}
CALL () {
  MATCH (a {user_id: $user_id})-[r:RELATED]->(:Entity {user_id: $user_id})
  WHERE (a:Entity OR a:User) AND $fact_ids[r.fact_id] IS NOT NULL
  SET r.fact_id = $fact_ids[r.fact_id]
  RETURN count(*) AS relations
}
RETURN sessions, turns, pieces, facts, entities, relations
