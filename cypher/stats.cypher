// Counts of one user's memory, or of every user when $user_id is null.
CALL { MATCH (n:User) WHERE $user_id IS NULL OR n.id = $user_id RETURN count(n) AS users }
CALL { MATCH (n:Session) WHERE $user_id IS NULL OR n.user_id = $user_id RETURN count(n) AS sessions }
CALL { MATCH (n:Turn) WHERE $user_id IS NULL OR n.user_id = $user_id RETURN count(n) AS turns }
CALL { MATCH (n:MessagePiece) WHERE $user_id IS NULL OR n.user_id = $user_id RETURN count(n) AS pieces }
CALL { MATCH (n:FactEvent) WHERE $user_id IS NULL OR n.user_id = $user_id RETURN count(n) AS facts }
CALL { MATCH (n:Entity) WHERE $user_id IS NULL OR n.user_id = $user_id RETURN count(n) AS entities }
RETURN users, sessions, turns, pieces, facts, entities
