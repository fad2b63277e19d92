// Every user id in the database (schema migrations that work user by user).
MATCH (u:User)
RETURN u.id AS user_id
ORDER BY user_id
