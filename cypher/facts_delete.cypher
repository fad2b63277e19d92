// Delete facts of one user with every edge they have (DERIVED_FROM, roles, currency edges and
// the entity relations they state). Returns, per fact, its slot, the slots and ids of the facts
// it had currency edges with (to decide again) and the entities it named (orphans go next).
UNWIND $fact_ids AS id
MATCH (f:FactEvent {id: id}) WHERE f.user_id = $user_id
CALL (f) {
  OPTIONAL MATCH (f)-[:SUPERSEDES|UPDATES|CONTRADICTS]-(o:FactEvent)
  WHERE o.user_id = $user_id AND NOT o.id IN $fact_ids
  RETURN collect(DISTINCT o.id) AS neighbours, collect(DISTINCT o.slot) AS neighbour_slots
}
CALL (f) {
  OPTIONAL MATCH (f)-[:HAS_ROLE]->(e:Entity)
  WHERE e.user_id = $user_id
  OPTIONAL MATCH (e)<-[r:RELATED {fact_id: f.id}]-()
  DELETE r
  RETURN collect(DISTINCT e.id) AS entities
}
WITH f, f.id AS id, f.slot AS slot, neighbours, neighbour_slots, entities
DETACH DELETE f
RETURN id, slot, neighbours, neighbour_slots, entities
