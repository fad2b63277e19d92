// New predicates and slot keys for some of one user's facts, and for the relation-type edges those
// facts state (each edge points at an entity the fact has a role for; migration 0013).
UNWIND $rows AS row
MATCH (f:FactEvent {id: row.id, user_id: $user_id})
SET f.predicate = row.predicate, f.slot = row.slot
WITH f, row
CALL (f, row) {
  MATCH (f)-[:HAS_ROLE]->(o:Entity {user_id: $user_id})<-[r:RELATED {fact_id: f.id}]-()
  SET r.predicate = row.predicate
}
