// Every user whose slots were not all decided by these currency rules (an older version's, or
// from before the rules were recorded): graphmem doctor counts them, graphmem redecide --stale
// decides them again. An administrator's query over all users, as the doctor's others are.
MATCH (u:User)
WHERE u.currency_rules IS NULL OR u.currency_rules <> $rules
RETURN u.id AS user_id
ORDER BY user_id
