// Every fact of the given slots of one user (the transaction's own new facts included).
UNWIND $slots AS slot
MATCH (f:FactEvent {user_id: $user_id, slot: slot})
RETURN slot, f.id AS id, f.predicate AS predicate, f.value AS value, f.modality AS modality,
       f.mentioned_at AS mentioned_at, f.occurred_start AS occurred_start,
       f.turn_idx AS turn_idx, f.span_start AS span_start, f.retraction AS retraction
