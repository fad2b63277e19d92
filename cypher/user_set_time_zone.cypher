// Set (or, with null, clear) a user's time zone; the user is created on first use.
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = datetime(), u.currency_rules = $rules
SET u.time_zone = $time_zone
RETURN u.time_zone AS time_zone
