// A search's second pass (retrieval/feedback.py): for each seed (a turn, piece or fact of one
// user that the first pass ranked best, with a vector), its nearest turns and facts said in
// other sessions than the seed's, at most $per_seed of each per seed, nothing mentioned after
// $known_at. The vector indexes are asked for $fetch nodes (the seed's own session's nearest
// come first and are left out); scores are the index's (SCORE AS, as in tunnel_dense_index).
// Without $mentions no fact kept as a mention. One row holding the list (one Bolt record).
CYPHER 25
UNWIND range(0, size($seeds) - 1) AS rank
CALL (rank) {
  WITH $seeds[rank] AS seed_id
  CALL (seed_id) {
    MATCH (s:Turn {id: seed_id})
    RETURN s
    UNION
    MATCH (s:MessagePiece {id: seed_id})
    RETURN s
    UNION
    MATCH (s:FactEvent {id: seed_id})
    RETURN s
  }
  RETURN s
}
WITH rank, s WHERE s.user_id = $user_id AND s.embedding IS NOT NULL
CALL (s) {
  MATCH (t:Turn)
    SEARCH t IN (VECTOR INDEX turn_embedding FOR s.embedding
                 WHERE t.user_id = $user_id AND t.mentioned_at <= $known_at LIMIT $fetch)
    SCORE AS score
  WITH t, score WHERE t.user_id = $user_id AND t.session_id <> s.session_id
  RETURN 'turn' AS type, t.id AS id, score, t.id AS turn_id
  ORDER BY score DESC LIMIT $per_seed
  UNION ALL
  MATCH (f:FactEvent)
    SEARCH f IN (VECTOR INDEX fact_embedding FOR s.embedding
                 WHERE f.user_id = $user_id AND f.mentioned_at <= $known_at LIMIT $fetch)
    SCORE AS score
  WITH f, score WHERE f.user_id = $user_id AND f.session_id <> s.session_id
    AND ($mentions OR NOT coalesce(f.mention, false))
  RETURN 'fact' AS type, f.id AS id, score, f.turn_id AS turn_id
  ORDER BY score DESC LIMIT $per_seed
}
WITH rank, s, type, id, score, turn_id WHERE score >= $min_cosine
RETURN collect({seed: s.id, rank: rank, type: type, id: id, score: score,
                turn_id: turn_id}) AS rows
