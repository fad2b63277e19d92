// Whether this user has any memory (an index lookup, unlike counting everything).
MATCH (u:User {id: $user_id})
RETURN count(u) > 0 AS exists
