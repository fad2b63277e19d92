// The plan slots of one user whose thing is one of the given plan slots' thing with more words
// after it (all, or those mentioned by $known_at): "user|plan|chicago marathon" for
// "user|plan|chicago", so an outcome that names a plan by its name alone ("had to pull out of
// Chicago") is decided with the plan it names (currency.slots_with_companions).
UNWIND $slots AS s
MATCH (f:FactEvent {user_id: $user_id})
WHERE f.slot STARTS WITH s + ' '
  AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
RETURN DISTINCT f.slot AS slot
ORDER BY slot
