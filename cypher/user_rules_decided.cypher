// Record that every slot of the user was just decided by these currency rules (graphmem
// redecide, in its transaction; graphmem.currency_rules).
MATCH (u:User {id: $user_id})
SET u.currency_rules = $rules
