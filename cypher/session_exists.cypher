// One user's stored session by id: what re-ingesting and appending need to know about it.
MATCH (s:Session {id: $session_id})
WHERE s.user_id = $user_id
RETURN s.id AS id, s.source_id AS source_id, s.started_at AS started_at,
       s.turn_count AS turn_count, s.content_hash AS content_hash,
       coalesce(s.deleted_idxs, []) AS deleted_idxs
