// Keep the new vectors beside the old ones (`embedding_next`) until every node has one: the
// old vector space stays whole meanwhile, and a killed run resumes from the nodes without one.
CALL () {
  UNWIND $turns AS r MATCH (n:Turn {id: r.id}) WHERE n.user_id = $user_id
  SET n.embedding_next = r.vector RETURN count(n) AS c
  UNION ALL
  UNWIND $pieces AS r MATCH (n:MessagePiece {id: r.id}) WHERE n.user_id = $user_id
  SET n.embedding_next = r.vector RETURN count(n) AS c
  UNION ALL
  UNWIND $facts AS r MATCH (n:FactEvent {id: r.id}) WHERE n.user_id = $user_id
  SET n.embedding_next = r.vector RETURN count(n) AS c
  UNION ALL
  UNWIND $entities AS r MATCH (n:Entity {id: r.id}) WHERE n.user_id = $user_id
  SET n.embedding_next = r.vector RETURN count(n) AS c
}
RETURN sum(c) AS staged
