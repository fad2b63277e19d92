// Every fact of the given slots of one user (the transaction's own new facts included), or only
// those mentioned by $known_at; a fact marked wrong (fact_invalidate) takes no part. tied_to: an asserted $anchors fact (works_at…) of the same piece.
// heard_at: when memory wrote the fact's session (orders two sessions stamped with the same time).
// mention: read in passing (a later fact ends it; it ends nothing). by_model: made by the learned
// model, or a state $brought_by one of its events (the registry's `brings`, applied to model
// readings only). session_id: a plan told again in an outcome's session keeps it ahead.
// span_end: where the fact's statement ends (orders two facts read from one clause).
UNWIND $slots AS slot
MATCH (f:FactEvent {user_id: $user_id, slot: slot})
WHERE ($known_at IS NULL OR f.mentioned_at <= $known_at) AND f.invalidated_at IS NULL
RETURN slot, f.id AS id, f.predicate AS predicate, f.value AS value, f.modality AS modality,
       f.mentioned_at AS mentioned_at, f.occurred_start AS occurred_start,
       f.occurred_end AS occurred_end,
       f.turn_idx AS turn_idx, f.session_id AS session_id, f.span_start AS span_start,
       f.span_start + size(coalesce(f.support, '')) AS span_end,
       f.retraction AS retraction,
       coalesce(f.mention, false) AS mention,
       coalesce(f.extracted_by STARTS WITH 'model:' OR f.extracted_by = $brought_by, false)
         AS by_model,
       COLLECT { MATCH (s:Session {id: f.session_id, user_id: $user_id})
                 RETURN s.ingested_at }[0] AS heard_at,
       [(f)-[:DERIVED_FROM]->(:MessagePiece)<-[:DERIVED_FROM]-(w:FactEvent)
        WHERE w.user_id = $user_id AND w.predicate IN $anchors AND w.modality = 'asserted'
          AND w.id <> f.id
          AND ($known_at IS NULL OR w.mentioned_at <= $known_at) | w.id][0] AS tied_to
