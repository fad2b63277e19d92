// Up to $batch of one user's embedded nodes not re-embedded yet, with the text ingest embedded
// (a turn's or a fact's text, a piece's text, an entity's name).
CALL () {
  MATCH (n:Turn {user_id: $user_id}) WHERE n.embedding IS NOT NULL AND n.embedding_next IS NULL
  RETURN 'Turn' AS label, n.id AS id, n.text AS text LIMIT $batch
  UNION ALL
  MATCH (n:MessagePiece {user_id: $user_id})
  WHERE n.embedding IS NOT NULL AND n.embedding_next IS NULL
  RETURN 'MessagePiece' AS label, n.id AS id, n.text AS text LIMIT $batch
  UNION ALL
  MATCH (n:FactEvent {user_id: $user_id})
  WHERE n.embedding IS NOT NULL AND n.embedding_next IS NULL
  RETURN 'FactEvent' AS label, n.id AS id, n.text AS text LIMIT $batch
  UNION ALL
  MATCH (n:Entity {user_id: $user_id}) WHERE n.embedding IS NOT NULL AND n.embedding_next IS NULL
  RETURN 'Entity' AS label, n.id AS id, n.name AS text LIMIT $batch
}
RETURN label, id, coalesce(text, '') AS text
LIMIT $batch
