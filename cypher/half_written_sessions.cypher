// Sessions of one user whose stored turns differ from the count the session recorded when it
// was written, besides the positions deleted one by one (`deleted_idxs`): a session is written
// in one transaction, so this must be 0.
MATCH (s:Session {user_id: $user_id})
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, count(t) AS stored
WHERE stored + size(coalesce(s.deleted_idxs, [])) <> s.turn_count
RETURN count(s) AS sessions
