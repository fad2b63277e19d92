// The favourite slots of one user and their values (all, or those mentioned by $known_at): a
// later dislike of a value ends the favourite it was (currency.slots_with_companions).
MATCH (f:FactEvent {user_id: $user_id})
WHERE f.slot CONTAINS '|favorite_'
  AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
RETURN DISTINCT f.slot AS slot, f.value AS value
ORDER BY slot, value
