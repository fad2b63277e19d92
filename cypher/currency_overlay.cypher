// Close the facts that an LLM-decided edge marks as replaced: status superseded, valid_until at
// the earliest such edge. Runs after the slot rules re-decide a slot, so both deciders agree.
UNWIND $ids AS id
MATCH (f:FactEvent {id: id, user_id: $user_id})
WHERE f.status <> 'invalid'
MATCH (:FactEvent)-[r:SUPERSEDES|UPDATES|CONTRADICTS]->(f)
WHERE r.decided_by STARTS WITH 'llm:'
WITH f, min(r.at) AS closed
SET f.status = 'superseded',
    f.valid_until = CASE WHEN f.valid_until IS NULL OR f.valid_until > closed THEN closed
                         ELSE f.valid_until END
