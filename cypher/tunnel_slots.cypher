// Graph tunnel, slot heads: the user's facts on the predicates the question asks about
// ("where do I live" → lives_in), most query-similar first; stale versions only when asked
// about the past.
MATCH (f:FactEvent {user_id: $user_id})
WHERE any(p IN $predicates WHERE f.predicate = p OR f.predicate STARTS WITH p)
  AND ($include_stale OR f.status = 'active')
WITH f, CASE WHEN $vector IS NULL OR f.embedding IS NULL THEN 0.0
             ELSE vector.similarity.cosine(f.embedding, $vector) END AS sim
ORDER BY (f.modality = 'asserted') DESC, sim DESC
LIMIT $per_head
RETURN f.id AS id, f.turn_id AS turn_id, f.predicate AS predicate, sim
