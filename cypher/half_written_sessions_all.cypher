// Sessions of any user whose stored turns differ from the count the session recorded (doctor).
MATCH (s:Session)
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, count(t) AS stored
WHERE stored <> s.turn_count
RETURN count(s) AS sessions
