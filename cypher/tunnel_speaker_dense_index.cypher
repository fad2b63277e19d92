// Dense over one speaker's own turns through the vector indexes (tunnel_speaker_dense's question
// on a server whose indexes filter by user and time inside the search, migration 0008): the
// user's $fetch nearest turns and pieces, of those the $speaker's turns, a turn scoring by its
// best part, best $heads. With $known_at (a question date; the end of time without one) no turn
// mentioned later. One row holding the list (one Bolt record).
CYPHER 25
CALL () {
  CALL () {
    MATCH (t:Turn)
      SEARCH t IN (VECTOR INDEX turn_embedding FOR $vector
                   WHERE t.user_id = $user_id AND t.mentioned_at <= $known_at
                   LIMIT $fetch) SCORE AS score
    WITH t, score WHERE t.user_id = $user_id AND t.speaker = $speaker
    RETURN t, score
    UNION ALL
    MATCH (p:MessagePiece)
      SEARCH p IN (VECTOR INDEX piece_embedding FOR $vector
                   WHERE p.user_id = $user_id AND p.mentioned_at <= $known_at
                   LIMIT $fetch) SCORE AS score
    WITH p, score WHERE p.user_id = $user_id
    MATCH (t:Turn {id: p.turn_id, user_id: $user_id})
    WHERE t.speaker = $speaker
    RETURN t, score
  }
  WITH t, max(score) AS score
  WHERE score >= $min_cosine
  RETURN 'turn' AS type, t.id AS id, score, t.id AS turn_id,
         t.session_source_id AS session_source_id, t.idx AS idx, t.session_id AS session_id
  ORDER BY score DESC LIMIT $heads
}
RETURN collect({type: type, id: id, score: score, turn_id: turn_id,
                session_source_id: session_source_id, idx: idx, session_id: session_id}) AS rows
