// Every node of one user with all its properties (export): each branch an index lookup.
CALL () {
  MATCH (n:User {id: $user_id}) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Session {user_id: $user_id}) RETURN n
  UNION MATCH (n:Turn {user_id: $user_id}) RETURN n
  UNION MATCH (n:MessagePiece {user_id: $user_id}) RETURN n
  UNION MATCH (n:FactEvent {user_id: $user_id}) RETURN n
  UNION MATCH (n:Entity {user_id: $user_id}) RETURN n
}
RETURN labels(n)[0] AS label, properties(n) AS props
ORDER BY label, props.id
