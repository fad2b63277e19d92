// Write the re-decided statuses and intervals of a slot's facts and drop the currency edges
// that the same decider drew before (they are re-drawn by currency_link). A fact that an
// LLM-decided edge marks as replaced stays closed at that edge's time (see currency_overlay).
UNWIND $facts AS row
MATCH (f:FactEvent {id: row.id, user_id: $user_id})
OPTIONAL MATCH (:FactEvent)-[j:SUPERSEDES|UPDATES|CONTRADICTS]->(f)
WHERE j.decided_by STARTS WITH 'llm:'
WITH f, row, min(j.at) AS closed
WITH f, row, closed, row.status <> 'invalid' AND closed IS NOT NULL AS llm_closed
SET f.status = CASE WHEN llm_closed THEN 'superseded' ELSE row.status END,
    f.valid_from = row.valid_from,
    f.valid_until = CASE WHEN llm_closed AND (row.valid_until IS NULL OR row.valid_until > closed)
                         THEN closed ELSE row.valid_until END,
    f.quantity = row.quantity
WITH f
OPTIONAL MATCH (f)-[r:SUPERSEDES|UPDATES|CONTRADICTS]->()
WHERE r.decided_by = $decided_by
DELETE r
