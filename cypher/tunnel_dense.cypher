// Dense tunnel: exact cosine over this user's own embedded turns, pieces and facts. Matching the
// user's nodes first (an index lookup) and ranking them exactly returns the true nearest
// neighbours however many other users share the database: no global top-k to filter afterwards.
// A turn scores by its best part: its own vector or that of any of its embedded pieces (the
// sentences of a turn longer than the embedder's window). With $known_at (a question date) no
// turn, piece or fact mentioned later; with $since (the start of a question's time window) none
// mentioned before; without $mentions no fact kept as a mention (FactEvent.mention).
CALL () {
  CALL () {
    MATCH (t:Turn {user_id: $user_id})
    WHERE t.embedding IS NOT NULL AND ($known_at IS NULL OR t.mentioned_at <= $known_at)
      AND ($since IS NULL OR t.mentioned_at >= $since)
    RETURN t, vector.similarity.cosine(t.embedding, $vector) AS score
    UNION ALL
    MATCH (p:MessagePiece {user_id: $user_id})
    WHERE p.embedding IS NOT NULL AND ($known_at IS NULL OR p.mentioned_at <= $known_at)
      AND ($since IS NULL OR p.mentioned_at >= $since)
    MATCH (t:Turn {id: p.turn_id, user_id: $user_id})
    RETURN t, vector.similarity.cosine(p.embedding, $vector) AS score
  }
  WITH t, max(score) AS score
  WHERE score >= $min_cosine
  RETURN 'turn' AS type, t.id AS id, score, t.id AS turn_id,
         t.session_source_id AS session_source_id, t.idx AS idx, t.session_id AS session_id
  ORDER BY score DESC LIMIT $heads
  UNION ALL
  MATCH (f:FactEvent {user_id: $user_id})
  WHERE f.embedding IS NOT NULL AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
    AND ($mentions OR NOT coalesce(f.mention, false))
    AND ($since IS NULL OR f.mentioned_at >= $since)
  WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
  WHERE score >= $min_cosine
  RETURN 'fact' AS type, f.id AS id, score, f.turn_id AS turn_id,
         null AS session_source_id, null AS idx, f.session_id AS session_id
  ORDER BY score DESC LIMIT $heads
}
RETURN collect({type: type, id: id, score: score, turn_id: turn_id,
                session_source_id: session_source_id, idx: idx, session_id: session_id}) AS rows
