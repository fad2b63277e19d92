// The ids of an import that nodes of this database already hold, checked in the import's own
// transaction before it writes (a taken id would fail the write on a uniqueness constraint).
// Every branch is an index lookup.
UNWIND $ids AS id
CALL (id) {
  MATCH (n:User {id: id}) RETURN n
  UNION MATCH (n:Session {id: id}) RETURN n
  UNION MATCH (n:Turn {id: id}) RETURN n
  UNION MATCH (n:MessagePiece {id: id}) RETURN n
  UNION MATCH (n:FactEvent {id: id}) RETURN n
  UNION MATCH (n:Entity {id: id}) RETURN n
}
RETURN DISTINCT id
LIMIT 10
