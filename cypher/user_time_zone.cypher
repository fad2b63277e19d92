// The IANA time zone a user's message times without an offset are read in (null: UTC).
MATCH (u:User {id: $user_id})
RETURN u.time_zone AS time_zone
