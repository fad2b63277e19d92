// One user's facts of predicate $from told as planned, stored as $to (the registry's
// `planned_as`: a planned `did` is a `plans` fact; migration 0016). Their slots do not change.
MATCH (f:FactEvent {user_id: $user_id, predicate: $from})
WHERE f.modality = 'planned'
SET f.predicate = $to, f.kind = $kind
RETURN count(f) AS facts
