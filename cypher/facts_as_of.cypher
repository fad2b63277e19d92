// One user's facts valid at $as_of (null = now: the current facts), or every version ($history);
// only those mentioned by $known_at when set (the question date); with $metadata (JSON [key, value]
// pairs, graphmem.metadata), only facts from turns whose metadata holds every pair.
MATCH (f:FactEvent {user_id: $user_id})
WHERE ($predicate IS NULL OR f.predicate = $predicate)
  AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
  AND ($metadata IS NULL OR EXISTS {
        MATCH (f)-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(mt:Turn)
        WHERE mt.user_id = $user_id AND all(pair IN $metadata WHERE pair IN mt.metadata)
      })
  AND ($history
       OR ($as_of IS NULL AND f.status = 'active')
       OR ($as_of IS NOT NULL AND f.status <> 'invalid' AND f.valid_from <= $as_of
           AND (f.valid_until IS NULL OR f.valid_until > $as_of)))
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(t:Turn)
WITH f, collect(DISTINCT t.source_id) AS turn_ids
RETURN f.id AS id, f.kind AS kind, f.predicate AS predicate, f.value AS value,
       f.quantity AS quantity, f.text AS text, f.modality AS modality, f.status AS status,
       f.mentioned_at AS mentioned_at, f.occurred_start AS occurred_start,
       f.valid_from AS valid_from, f.valid_until AS valid_until, f.turn_id AS turn_id,
       f.slot AS slot, coalesce(f.extracted_by, f.extractor) AS extracted_by,
       coalesce(f.mention, false) AS mention, turn_ids AS source_turn_ids,
       CASE WHEN f.invalidated_at IS NULL THEN null
            ELSE {by: f.invalidated_by, at: f.invalidated_at, reason: f.invalidated_reason}
       END AS invalidation
ORDER BY coalesce(f.valid_from, f.mentioned_at), f.mentioned_at, f.turn_idx, f.span_start, f.predicate, f.value, f.id
LIMIT $limit
