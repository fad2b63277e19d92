// Dense over one speaker's own turns (a question that names one speaker of the user's chats,
// QueryAnalysis.speaker): exact cosine over the user's turns of $speaker, a turn scoring by its
// best part (its own vector or one of its embedded pieces), as tunnel_dense does. Exact, not
// through the vector index: the index filters by user and time only, and one speaker's turns are
// a part of the user's that an over-fetch cannot bound. With $known_at (a question date) no turn
// mentioned later. One row holding the list (one Bolt record).
CALL () {
  CALL () {
    MATCH (t:Turn {user_id: $user_id})
    WHERE t.speaker = $speaker AND t.embedding IS NOT NULL
      AND ($known_at IS NULL OR t.mentioned_at <= $known_at)
    RETURN t, vector.similarity.cosine(t.embedding, $vector) AS score
    UNION ALL
    MATCH (p:MessagePiece {user_id: $user_id})
    WHERE p.embedding IS NOT NULL AND ($known_at IS NULL OR p.mentioned_at <= $known_at)
    MATCH (t:Turn {id: p.turn_id, user_id: $user_id})
    WHERE t.speaker = $speaker
    RETURN t, vector.similarity.cosine(p.embedding, $vector) AS score
  }
  WITH t, max(score) AS score
  WHERE score >= $min_cosine
  RETURN 'turn' AS type, t.id AS id, score, t.id AS turn_id,
         t.session_source_id AS session_source_id, t.idx AS idx, t.session_id AS session_id
  ORDER BY score DESC LIMIT $heads
}
RETURN collect({type: type, id: id, score: score, turn_id: turn_id,
                session_source_id: session_source_id, idx: idx, session_id: session_id}) AS rows
