// Relation-type edges: subject -[:RELATED {predicate}]-> object, from the fact that states it.
// A subject of "user" is the User node itself.
UNWIND $relations AS row
CALL (row) {
  OPTIONAL MATCH (se:Entity {id: row.subject_id, user_id: $user_id})
  OPTIONAL MATCH (su:User {id: row.subject_id, user_id: $user_id})
  RETURN coalesce(se, su) AS subject
}
MATCH (o:Entity {id: row.object_id, user_id: $user_id})
WITH subject, o, row WHERE subject IS NOT NULL
MERGE (subject)-[r:RELATED {predicate: row.predicate, fact_id: row.fact_id}]->(o)
