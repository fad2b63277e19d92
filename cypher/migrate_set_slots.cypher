// New slot keys for some of one user's facts (migration 0012).
UNWIND $rows AS row
MATCH (f:FactEvent {id: row.id, user_id: $user_id})
SET f.slot = row.slot
