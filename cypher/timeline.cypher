// The ordered history of one user's facts, optionally about one entity / predicate / period,
// or of those mentioned by $known_at (the question date); with $metadata (JSON [key, value]
// pairs, graphmem.metadata), only facts from turns whose metadata holds every pair.
MATCH (f:FactEvent {user_id: $user_id})
WHERE ($predicate IS NULL OR f.predicate = $predicate OR f.predicate STARTS WITH $predicate + ':')
  AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
  AND ($metadata IS NULL OR EXISTS {
        MATCH (f)-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(mt:Turn)
        WHERE mt.user_id = $user_id AND all(pair IN $metadata WHERE pair IN mt.metadata)
      })
  AND ($since IS NULL OR coalesce(f.occurred_start, f.mentioned_at) >= $since)
  AND ($until IS NULL OR coalesce(f.occurred_start, f.mentioned_at) < $until)
  AND ($entity IS NULL OR EXISTS {
        MATCH (f)-[:HAS_ROLE]->(e:Entity)
        WHERE e.user_id = $user_id AND (e.norm_name = $entity OR $entity IN [a IN e.aliases | toLower(a)])
      })
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(p:MessagePiece)<-[:HAS_PIECE]-(t:Turn)<-[:HAS_TURN]-(s:Session)
OPTIONAL MATCH (f)-[c:SUPERSEDES|UPDATES|CONTRADICTS]->(old:FactEvent)
WITH f, t, s, collect(DISTINCT {type: type(c), id: old.id}) AS changes
RETURN f.id AS id, f.kind AS kind, f.predicate AS predicate, f.value AS value,
       f.quantity AS quantity, f.text AS text, f.modality AS modality, f.status AS status,
       f.mentioned_at AS mentioned_at, f.occurred_start AS occurred_start,
       f.occurred_end AS occurred_end, f.valid_from AS valid_from, f.valid_until AS valid_until,
       [x IN [t.source_id] WHERE x IS NOT NULL] AS source_turn_ids, s.source_id AS session_source_id,
       f.turn_id AS turn_id, f.slot AS slot, coalesce(f.extracted_by, f.extractor) AS extracted_by,
       coalesce(f.mention, false) AS mention,
       [x IN changes WHERE x.id IS NOT NULL] AS changes,
       CASE WHEN f.invalidated_at IS NULL THEN null
            ELSE {by: f.invalidated_by, at: f.invalidated_at, reason: f.invalidated_reason}
       END AS invalidation
ORDER BY coalesce(f.occurred_start, f.mentioned_at), f.mentioned_at, f.turn_idx, f.span_start, f.predicate, f.value, f.id
LIMIT $limit
