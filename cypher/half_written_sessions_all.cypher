// Sessions of any user whose stored turns differ from the count the session recorded, besides
// the positions deleted one by one (`deleted_idxs`) (doctor).
MATCH (s:Session)
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, count(t) AS stored
WHERE stored + size(coalesce(s.deleted_idxs, [])) <> s.turn_count
RETURN count(s) AS sessions
