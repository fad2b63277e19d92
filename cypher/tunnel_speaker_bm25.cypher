// BM25 over one speaker's own turns (a question that names one speaker of the user's chats,
// QueryAnalysis.speaker): Lucene hits over the user's turns (scoped inside Lucene by user_id,
// then checked exactly), of those the $speaker's, best $heads. With $known_at (a question date)
// no turn mentioned later. One row holding the list (one Bolt record).
CALL () {
  CALL db.index.fulltext.queryNodes('turn_text', $lucene, {limit: $limit}) YIELD node, score
  WITH node, score WHERE node.user_id = $user_id AND node.speaker = $speaker
    AND ($known_at IS NULL OR node.mentioned_at <= $known_at)
  RETURN 'turn' AS type, node.id AS id, score, node.id AS turn_id,
         node.session_source_id AS session_source_id, node.idx AS idx,
         node.session_id AS session_id
  ORDER BY score DESC LIMIT $heads
}
RETURN collect({type: type, id: id, score: score, turn_id: turn_id,
                session_source_id: session_source_id, idx: idx, session_id: session_id}) AS rows
