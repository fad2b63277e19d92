// Dense tunnel: exact cosine over this user's own embedded turns and facts. Matching the user's
// nodes first (an index lookup) and ranking them exactly returns the true nearest neighbours
// however many other users share the database: no global top-k to filter afterwards. With
// $known_at (a question date) no turn or fact mentioned later.
CALL () {
  MATCH (t:Turn {user_id: $user_id})
  WHERE t.embedding IS NOT NULL AND ($known_at IS NULL OR t.mentioned_at <= $known_at)
  WITH t, vector.similarity.cosine(t.embedding, $vector) AS score
  WHERE score >= $min_cosine
  RETURN 'turn' AS type, t.id AS id, score, t.id AS turn_id,
         t.session_source_id AS session_source_id, t.idx AS idx
  ORDER BY score DESC LIMIT $heads
  UNION ALL
  MATCH (f:FactEvent {user_id: $user_id})
  WHERE f.embedding IS NOT NULL AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
  WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
  WHERE score >= $min_cosine
  RETURN 'fact' AS type, f.id AS id, score, f.turn_id AS turn_id,
         null AS session_source_id, null AS idx
  ORDER BY score DESC LIMIT $heads
}
RETURN type, id, score, turn_id, session_source_id, idx
