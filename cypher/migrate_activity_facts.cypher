// The activity facts (`does:<key>`) of one user, with the slot each was stored under (migration 0013).
MATCH (f:FactEvent)
WHERE f.user_id = $user_id AND f.predicate STARTS WITH 'does:'
RETURN f.id AS id, f.subject AS subject, f.predicate AS predicate, f.value AS value,
       f.modality AS modality, f.slot AS slot
