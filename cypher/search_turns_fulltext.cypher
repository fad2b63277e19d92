// BM25 over one user's turns: scoped inside Lucene, then checked exactly.
CALL db.index.fulltext.queryNodes('turn_text', $lucene, {limit: $limit}) YIELD node, score
WHERE node.user_id = $user_id
RETURN node.id AS id, 'turn' AS type, node.source_id AS source_id,
       node.session_source_id AS session_source_id, node.role AS role, node.text AS text,
       toString(node.mentioned_at) AS mentioned_at, score
ORDER BY score DESC
LIMIT $k
