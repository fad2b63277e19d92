// Delete up to $batch nodes of each kind belonging to one user; the caller repeats until 0.
CALL { MATCH (n:MessagePiece {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS pieces }
CALL { MATCH (n:FactEvent {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS facts }
CALL { MATCH (n:Turn {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS turns }
CALL { MATCH (n:Entity {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS entities }
CALL { MATCH (n:Session {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS sessions }
CALL { MATCH (n:User {id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS users }
RETURN pieces + facts + turns + entities + sessions + users AS deleted
