// One page of a user's sessions in a stable order — start time (epoch microseconds), then id —
// after the key $after ({at, id}, null for the first page); $limit rows at most.
MATCH (s:Session {user_id: $user_id})
WITH s, coalesce(s.started_at.epochSeconds * 1000000 + s.started_at.microsecond,
                 -9000000000000000000) AS at
WHERE $after IS NULL OR at > $after.at OR (at = $after.at AND s.id > $after.id)
RETURN s.id AS id, s.source_id AS source_id, s.started_at AS started_at, at,
       COUNT { MATCH (s)-[:HAS_TURN]->(t:Turn) WHERE t.user_id = $user_id } AS turns
ORDER BY at, id
LIMIT $limit
