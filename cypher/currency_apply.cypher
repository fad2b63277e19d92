// Write the re-decided statuses and intervals of a slot's facts and drop the currency edges
// that the same decider drew before (they are re-drawn by currency_link).
UNWIND $facts AS row
MATCH (f:FactEvent {id: row.id})
WHERE f.user_id = $user_id
SET f.status = row.status,
    f.valid_from = row.valid_from,
    f.valid_until = row.valid_until,
    f.quantity = row.quantity
WITH f
OPTIONAL MATCH (f)-[r:SUPERSEDES|UPDATES|CONTRADICTS]->()
WHERE r.decided_by = $decided_by
DELETE r
