// The node with this id — a graphmem id, an id from before schema 5 (`legacy_id`), the
// source's own turn id, or an entity name — if it
// belongs to the user. Every branch is an index lookup.
CALL () {
  MATCH (n:FactEvent {id: $id}) RETURN n
  UNION MATCH (n:MessagePiece {id: $id}) RETURN n
  UNION MATCH (n:Turn {id: $id}) RETURN n
  UNION MATCH (n:Entity {id: $id}) RETURN n
  UNION MATCH (n:Session {id: $id}) RETURN n
  UNION MATCH (n:Turn {user_id: $user_id, source_id: $id}) RETURN n
  UNION MATCH (n:Entity {user_id: $user_id, norm_name: $norm_name}) RETURN n
  UNION MATCH (n:FactEvent {user_id: $user_id, legacy_id: $id}) RETURN n
  UNION MATCH (n:MessagePiece {user_id: $user_id, legacy_id: $id}) RETURN n
  UNION MATCH (n:Turn {user_id: $user_id, legacy_id: $id}) RETURN n
  UNION MATCH (n:Entity {user_id: $user_id, legacy_id: $id}) RETURN n
  UNION MATCH (n:Session {user_id: $user_id, legacy_id: $id}) RETURN n
}
WITH n WHERE n.user_id = $user_id
RETURN labels(n)[0] AS label, n.id AS id
LIMIT 1
