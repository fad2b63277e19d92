// Every slot of one user's facts (graphmem redecide decides them all again). Index fact_user_slot.
MATCH (f:FactEvent)
WHERE f.user_id = $user_id AND f.slot IS NOT NULL
RETURN collect(DISTINCT f.slot) AS slots
