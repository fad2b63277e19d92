// One fact of a user by id, with its source turns, the changes it drew and who marked it wrong.
MATCH (f:FactEvent {id: $id}) WHERE f.user_id = $user_id
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(t:Turn)
WHERE t.user_id = $user_id
WITH f, collect(DISTINCT t.source_id) AS turn_ids
RETURN f.id AS id, f.kind AS kind, f.predicate AS predicate, f.value AS value,
       f.quantity AS quantity, f.text AS text, f.modality AS modality, f.status AS status,
       f.mentioned_at AS mentioned_at, f.occurred_start AS occurred_start,
       f.occurred_end AS occurred_end, f.valid_from AS valid_from, f.valid_until AS valid_until,
       f.turn_id AS turn_id, f.slot AS slot,
       coalesce(f.extracted_by, f.extractor) AS extracted_by,
       coalesce(f.mention, false) AS mention, turn_ids AS source_turn_ids,
       COLLECT { MATCH (s:Session {id: f.session_id, user_id: $user_id})
                 RETURN s.source_id }[0] AS session_source_id,
       COLLECT { MATCH (f)-[c:SUPERSEDES|UPDATES|CONTRADICTS]->(old:FactEvent)
                 WHERE old.user_id = $user_id
                 RETURN {type: type(c), id: old.id} } AS changes,
       CASE WHEN f.invalidated_at IS NULL THEN null
            ELSE {by: f.invalidated_by, at: f.invalidated_at, reason: f.invalidated_reason}
       END AS invalidation
