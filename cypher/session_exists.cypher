MATCH (s:Session {id: $session_id})
WHERE s.user_id = $user_id
RETURN s.content_hash AS content_hash
