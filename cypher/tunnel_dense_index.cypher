// Dense tunnel through the vector indexes, filtered inside the index to one user and to what was
// mentioned between $since and $known_at (Cypher 25 SEARCH on indexes created WITH [n.user_id,
// n.mentioned_at], migration 0008; without a question date $known_at is the end of time, without
// a time window $since is its start): the user's k nearest nodes however many other users share
// the database. A turn scores by its best part, its own vector or one of its embedded pieces, as
// in the exact scan (tunnel_dense). The score is the index's (SCORE AS): the scale of the exact
// scan's vector.similarity.cosine, equal to 1e-7 on 60 searches with the same lists, and the
// stored vectors are not read again (half the query's CPU). Without $mentions no fact kept as a
// mention (FactEvent.mention). With $speaker (a question that names one speaker of the user's
// chats, QueryAnalysis.speaker) each index is asked for $wide nodes, not $fetch: the best $fetch
// of them are the tunnel's (the index is approximate: close to, not always the same as, a search
// for $fetch), and among all of them the speaker's turns give its best $heads, as rows with
// `speaker` true (the indexes filter by user and time, not by speaker:
// store.search.SPEAKER_OVERFETCH); without, $wide is $fetch. One row holding the list (one Bolt
// record, not one per head).
CYPHER 25
CALL () {
  CALL () {
    MATCH (t:Turn)
      SEARCH t IN (VECTOR INDEX turn_embedding FOR $vector
                   WHERE t.user_id = $user_id AND t.mentioned_at <= $known_at
                   AND t.mentioned_at >= $since LIMIT $wide) SCORE AS score
    WITH t, score WHERE t.user_id = $user_id
    WITH t, score ORDER BY score DESC
    RETURN collect({t: t, score: score}) AS turns
  }
  CALL () {
    MATCH (p:MessagePiece)
      SEARCH p IN (VECTOR INDEX piece_embedding FOR $vector
                   WHERE p.user_id = $user_id AND p.mentioned_at <= $known_at
                   AND p.mentioned_at >= $since LIMIT $wide) SCORE AS score
    WITH p, score WHERE p.user_id = $user_id
    MATCH (t:Turn {id: p.turn_id, user_id: $user_id})
    WITH t, score ORDER BY score DESC
    RETURN collect({t: t, score: score}) AS pieces
  }
  UNWIND [x IN turns[..$fetch] + pieces[..$fetch] | {t: x.t, score: x.score, speaker: false}] +
         [x IN turns + pieces WHERE $speaker IS NOT NULL AND x.t.speaker = $speaker
          | {t: x.t, score: x.score, speaker: true}] AS x
  WITH x.t AS t, x.speaker AS speaker, max(x.score) AS score
  WHERE score >= $min_cosine
  WITH t, speaker, score ORDER BY score DESC
  WITH speaker, collect({t: t, score: score})[..$heads] AS best
  UNWIND best AS b
  RETURN 'turn' AS type, b.t.id AS id, b.score AS score, b.t.id AS turn_id,
         b.t.session_source_id AS session_source_id, b.t.idx AS idx,
         b.t.session_id AS session_id, speaker
  UNION ALL
  MATCH (f:FactEvent)
    SEARCH f IN (VECTOR INDEX fact_embedding FOR $vector
                 WHERE f.user_id = $user_id AND f.mentioned_at <= $known_at
                   AND f.mentioned_at >= $since LIMIT $fetch) SCORE AS score
  WITH f, score WHERE f.user_id = $user_id AND score >= $min_cosine
    AND ($mentions OR NOT coalesce(f.mention, false))
  RETURN 'fact' AS type, f.id AS id, score, f.turn_id AS turn_id,
         null AS session_source_id, null AS idx, f.session_id AS session_id, false AS speaker
  ORDER BY score DESC LIMIT $heads
}
RETURN collect({type: type, id: id, score: score, turn_id: turn_id,
                session_source_id: session_source_id, idx: idx, session_id: session_id,
                speaker: speaker}) AS rows
