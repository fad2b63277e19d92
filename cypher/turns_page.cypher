// One page of a user's turns (of one session when $session_id is set) in a stable order — the
// session's start time (epoch microseconds), its id, the turn's position — after the key
// $after ({at, session, idx}, null for the first page); $limit rows at most.
MATCH (s:Session {user_id: $user_id})
WHERE $session_id IS NULL OR s.id = $session_id
WITH s, coalesce(s.started_at.epochSeconds * 1000000 + s.started_at.microsecond,
                 -9000000000000000000) AS at
WHERE $after IS NULL OR at > $after.at OR (at = $after.at AND s.id >= $after.session)
MATCH (s)-[:HAS_TURN]->(t:Turn)
WHERE t.user_id = $user_id
  AND ($after IS NULL OR at > $after.at OR s.id > $after.session OR t.idx > $after.idx)
RETURN t.id AS id, s.id AS session_id, s.source_id AS session_source_id,
       t.source_id AS source_id, t.idx AS idx, t.role AS role, t.speaker AS speaker,
       t.text AS text, t.mentioned_at AS mentioned_at, t.redacted_at AS redacted_at,
       t.metadata AS metadata, at
ORDER BY at, session_id, idx
LIMIT $limit
