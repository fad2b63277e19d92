// Redact one turn of a user: it keeps its place (id, session, position, NEXT chain, date) but its
// words are replaced by $text, its embedding and its pieces go (its facts are deleted first,
// facts_delete), and it records when.
MATCH (t:Turn {id: $turn_id}) WHERE t.user_id = $user_id
CALL (t) {
  OPTIONAL MATCH (t)-[:HAS_PIECE]->(p:MessagePiece)
  WHERE p.user_id = $user_id
  DETACH DELETE p
  RETURN count(p) AS pieces
}
SET t.text = $text, t.redacted_at = $at
REMOVE t.embedding
RETURN t.id AS id, t.source_id AS source_id, t.session_source_id AS session_source_id, pieces
