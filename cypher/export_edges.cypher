// Every edge leaving a node of one user, with its properties (export). Edges never join two
// users (the tests count them), so these are all of the user's edges.
CALL () {
  MATCH (n:User {id: $user_id}) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Session {user_id: $user_id}) RETURN n
  UNION MATCH (n:Turn {user_id: $user_id}) RETURN n
  UNION MATCH (n:MessagePiece {user_id: $user_id}) RETURN n
  UNION MATCH (n:FactEvent {user_id: $user_id}) RETURN n
  UNION MATCH (n:Entity {user_id: $user_id}) RETURN n
}
MATCH (n)-[r]->(m)
WHERE m.user_id = $user_id
RETURN labels(n)[0] AS from_label, n.id AS from, type(r) AS type, properties(r) AS props,
       labels(m)[0] AS to_label, m.id AS to
ORDER BY from_label, from, type, to_label, to
