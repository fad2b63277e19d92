// The plans and their outcomes of one user, with the slot each was stored under (migration 0012).
MATCH (f:FactEvent)
WHERE f.user_id = $user_id AND f.predicate IN $predicates
RETURN f.id AS id, f.subject AS subject, f.predicate AS predicate, f.value AS value,
       f.modality AS modality, f.slot AS slot
