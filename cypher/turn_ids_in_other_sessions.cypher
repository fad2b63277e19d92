// Which of the given source turn ids one user already uses in a session other than this one
// (a turn id names one turn of a user: appending it to a second session is refused).
MATCH (t:Turn {user_id: $user_id})
WHERE t.source_id IN $source_ids AND t.session_source_id <> $session_source_id
RETURN t.source_id AS source_id, t.session_source_id AS session
ORDER BY source_id
LIMIT 1
