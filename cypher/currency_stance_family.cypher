// The stance slots of one user that share a head word with the given ones (all, or those mentioned
// by $known_at): "user|stance|chocolate" and "user|stance|dark chocolate" are one family, so a
// later stance on the general value can end the specific one (currency.stance_family).
UNWIND $pairs AS p
MATCH (f:FactEvent {user_id: $user_id})
WHERE f.slot STARTS WITH p.prefix
  AND (f.slot = p.prefix + p.head OR f.slot ENDS WITH ' ' + p.head)
  AND ($known_at IS NULL OR f.mentioned_at <= $known_at)
RETURN DISTINCT f.slot AS slot
ORDER BY slot
