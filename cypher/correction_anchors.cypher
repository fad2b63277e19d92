// One user's held asserted facts said no later than $at, latest first: what a correction said at
// $at may replace (graphmem.correcting). Read in the write transaction.
MATCH (f:FactEvent {user_id: $user_id})
WHERE f.status = 'active' AND f.modality = 'asserted' AND f.mentioned_at <= $at
  AND f.value IS NOT NULL
RETURN f.id AS id, f.predicate AS predicate, f.value AS value, f.subject AS subject,
       f.session_id AS session_id, f.turn_idx AS turn_idx, f.mentioned_at AS mentioned_at
ORDER BY f.mentioned_at DESC, f.turn_idx DESC, f.span_start DESC, f.id
LIMIT $limit
