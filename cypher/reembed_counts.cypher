// Of one user's embedded nodes: how many are still to re-embed and how many wait to be swapped in.
CALL (){
  MATCH (n:Turn {user_id: $user_id}) WHERE n.embedding IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:MessagePiece {user_id: $user_id}) WHERE n.embedding IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:FactEvent {user_id: $user_id}) WHERE n.embedding IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Entity {user_id: $user_id}) WHERE n.embedding IS NOT NULL RETURN n
}
RETURN count(CASE WHEN n.embedding_next IS NULL THEN 1 END) AS pending,
       count(n.embedding_next) AS staged
