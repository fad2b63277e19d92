// Restore one user's edges from an export, between nodes of that user only; edge types are
// checked against graphmem's own before this runs. Each endpoint is an index lookup.
UNWIND $edges AS row
CALL (row) {
  MATCH (a:User {id: row.from, user_id: $user_id}) WHERE row.from_label = 'User' RETURN a
  UNION MATCH (a:Session {id: row.from, user_id: $user_id}) WHERE row.from_label = 'Session' RETURN a
  UNION MATCH (a:Turn {id: row.from, user_id: $user_id}) WHERE row.from_label = 'Turn' RETURN a
  UNION MATCH (a:MessagePiece {id: row.from, user_id: $user_id}) WHERE row.from_label = 'MessagePiece' RETURN a
  UNION MATCH (a:FactEvent {id: row.from, user_id: $user_id}) WHERE row.from_label = 'FactEvent' RETURN a
  UNION MATCH (a:Entity {id: row.from, user_id: $user_id}) WHERE row.from_label = 'Entity' RETURN a
}
CALL (row) {
  MATCH (b:User {id: row.to, user_id: $user_id}) WHERE row.to_label = 'User' RETURN b
  UNION MATCH (b:Session {id: row.to, user_id: $user_id}) WHERE row.to_label = 'Session' RETURN b
  UNION MATCH (b:Turn {id: row.to, user_id: $user_id}) WHERE row.to_label = 'Turn' RETURN b
  UNION MATCH (b:MessagePiece {id: row.to, user_id: $user_id}) WHERE row.to_label = 'MessagePiece' RETURN b
  UNION MATCH (b:FactEvent {id: row.to, user_id: $user_id}) WHERE row.to_label = 'FactEvent' RETURN b
  UNION MATCH (b:Entity {id: row.to, user_id: $user_id}) WHERE row.to_label = 'Entity' RETURN b
}
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
RETURN count(r) AS edges
