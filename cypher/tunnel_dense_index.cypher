// Dense tunnel through the vector indexes, filtered to one user inside the index (Cypher 25
// SEARCH on indexes created WITH [n.user_id], migration 0007): the user's k nearest nodes however
// many other users share the database. Scores are recomputed with the function the exact scan
// (tunnel_dense) uses, so both return the same scale.
CYPHER 25
CALL () {
  MATCH (t:Turn)
    SEARCH t IN (VECTOR INDEX turn_embedding FOR $vector WHERE t.user_id = $user_id LIMIT $heads)
  WITH t WHERE t.user_id = $user_id
  WITH t, vector.similarity.cosine(t.embedding, $vector) AS score
  WHERE score >= $min_cosine
  RETURN 'turn' AS type, t.id AS id, score, t.id AS turn_id,
         t.session_source_id AS session_source_id, t.idx AS idx
  ORDER BY score DESC LIMIT $heads
  UNION ALL
  MATCH (f:FactEvent)
    SEARCH f IN (VECTOR INDEX fact_embedding FOR $vector WHERE f.user_id = $user_id LIMIT $heads)
  WITH f WHERE f.user_id = $user_id
  WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
  WHERE score >= $min_cosine
  RETURN 'fact' AS type, f.id AS id, score, f.turn_id AS turn_id,
         null AS session_source_id, null AS idx
  ORDER BY score DESC LIMIT $heads
}
RETURN type, id, score, turn_id, session_source_id, idx
