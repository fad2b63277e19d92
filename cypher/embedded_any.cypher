// Whether the database holds any embedding yet (of the kinds ingest embeds).
CALL () {
  MATCH (n:Turn) WHERE n.embedding IS NOT NULL RETURN 1 AS found LIMIT 1
  UNION
  MATCH (n:FactEvent) WHERE n.embedding IS NOT NULL RETURN 1 AS found LIMIT 1
  UNION
  MATCH (n:Entity) WHERE n.embedding IS NOT NULL RETURN 1 AS found LIMIT 1
  UNION
  MATCH (n:MessagePiece) WHERE n.embedding IS NOT NULL RETURN 1 AS found LIMIT 1
}
RETURN count(found) > 0 AS found
