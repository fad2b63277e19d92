// Up to $batch of one user's staged vectors replace the old ones (or, with $discard, are dropped).
CALL () {
  MATCH (n:Turn {user_id: $user_id}) WHERE n.embedding_next IS NOT NULL RETURN n LIMIT $batch
  UNION ALL
  MATCH (n:MessagePiece {user_id: $user_id}) WHERE n.embedding_next IS NOT NULL RETURN n LIMIT $batch
  UNION ALL
  MATCH (n:FactEvent {user_id: $user_id}) WHERE n.embedding_next IS NOT NULL RETURN n LIMIT $batch
  UNION ALL
  MATCH (n:Entity {user_id: $user_id}) WHERE n.embedding_next IS NOT NULL RETURN n LIMIT $batch
}
WITH n LIMIT $batch
SET n.embedding = CASE WHEN $discard THEN n.embedding ELSE n.embedding_next END
REMOVE n.embedding_next
RETURN count(n) AS swapped
