// Those of one user's turns (stored ids $ids) whose metadata holds every pair of $metadata
// (JSON [key, value] pairs, graphmem.metadata): search keeps only evidence from them.
MATCH (t:Turn {user_id: $user_id})
WHERE t.id IN $ids AND all(pair IN $metadata WHERE pair IN t.metadata)
RETURN t.id AS id
