// FactEvents with their DERIVED_FROM edges; a fact is only written together with its pieces.
UNWIND $facts AS row
MERGE (f:FactEvent {id: row.id, user_id: $user_id})
SET f.session_id = $session_id,
    f.turn_id = row.turn_id,
    f.turn_idx = row.turn_idx,
    f.span_start = row.span_start,
    f.kind = row.kind,
    f.predicate = row.predicate,
    f.slot = row.slot,
    f.value = row.value,
    f.subject = row.subject,
    f.text = row.text,
    f.support = row.support,
    f.modality = row.modality,
    f.retraction = row.retraction,
    f.status = coalesce(f.status, 'active'),
    f.mentioned_at = row.mentioned_at,
    f.time_text = row.time_text,
    f.time_resolved = row.time_resolved,
    f.occurred_start = row.occurred_start,
    f.occurred_end = row.occurred_end,
    f.valid_from = coalesce(f.valid_from, row.valid_from),
    f.extractor = row.extractor,
    f.extracted_by = row.extracted_by,
    f.mention = row.mention,
    f.embedding = row.embedding
WITH f, row
UNWIND row.piece_ids AS piece_id
MATCH (p:MessagePiece {id: piece_id, user_id: $user_id})
MERGE (f)-[:DERIVED_FROM]->(p)
