// BM25 tunnel: Lucene hits over one user's turns, pieces and facts (scoped inside Lucene by
// user_id, then checked exactly). Each branch keeps its best $heads hits; with $known_at (a
// question date) no turn, piece or fact mentioned later; without $mentions no fact kept as a
// mention (FactEvent.mention: its turn is found by its own words). With $speaker (a question
// that names one speaker of the user's chats, QueryAnalysis.speaker) the same turn hits also
// give that speaker's best $heads, as rows with `speaker` true (null: none). One row holding
// the list (one Bolt record).
CALL () {
  CALL () {
    CALL db.index.fulltext.queryNodes('turn_text', $lucene, {limit: $limit}) YIELD node, score
    WITH node, score WHERE node.user_id = $user_id
      AND ($known_at IS NULL OR node.mentioned_at <= $known_at)
    WITH node, score ORDER BY score DESC
    RETURN collect({node: node, score: score}) AS found
  }
  UNWIND [x IN found[..$heads] | {node: x.node, score: x.score, speaker: false}] +
         [x IN [y IN found WHERE $speaker IS NOT NULL AND y.node.speaker = $speaker][..$heads]
          | {node: x.node, score: x.score, speaker: true}] AS x
  RETURN 'turn' AS type, x.node.id AS id, x.score AS score, x.node.id AS turn_id,
         x.node.session_source_id AS session_source_id, x.node.idx AS idx,
         x.node.session_id AS session_id, x.speaker AS speaker
  UNION ALL
  CALL db.index.fulltext.queryNodes('piece_text', $lucene, {limit: $limit}) YIELD node, score
  WITH node, score WHERE node.user_id = $user_id
    AND ($known_at IS NULL OR node.mentioned_at <= $known_at)
  RETURN 'piece' AS type, node.id AS id, score, node.turn_id AS turn_id,
         null AS session_source_id, null AS idx, node.session_id AS session_id,
         false AS speaker
  ORDER BY score DESC LIMIT $heads
  UNION ALL
  CALL db.index.fulltext.queryNodes('fact_text', $lucene, {limit: $limit}) YIELD node, score
  WITH node, score WHERE node.user_id = $user_id
    AND ($known_at IS NULL OR node.mentioned_at <= $known_at)
    AND ($mentions OR NOT coalesce(node.mention, false))
  RETURN 'fact' AS type, node.id AS id, score, node.turn_id AS turn_id,
         null AS session_source_id, null AS idx, node.session_id AS session_id,
         false AS speaker
  ORDER BY score DESC LIMIT $heads
}
RETURN collect({type: type, id: id, score: score, turn_id: turn_id,
                session_source_id: session_source_id, idx: idx, session_id: session_id,
                speaker: speaker}) AS rows
