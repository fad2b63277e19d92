// Which of the given source turn ids one user's session already holds (appending is idempotent).
MATCH (s:Session {id: $session_id})-[:HAS_TURN]->(t:Turn)
WHERE s.user_id = $user_id AND t.user_id = $user_id AND t.source_id IN $source_ids
RETURN t.source_id AS source_id
