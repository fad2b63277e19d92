// What the currency rules last decided for each of one user's slot facts (status, interval,
// quantity), to tell what deciding the slots again changed (graphmem redecide).
MATCH (f:FactEvent)
WHERE f.user_id = $user_id AND f.slot IS NOT NULL
RETURN f.id AS id, f.status AS status, f.valid_from AS valid_from, f.valid_until AS valid_until,
       f.quantity AS quantity
ORDER BY id
