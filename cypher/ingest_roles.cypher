// Role edges (fact -> entity) and relation-type edges between what the fact connects.
UNWIND $roles AS row
MATCH (f:FactEvent {id: row.fact_id, user_id: $user_id})
MATCH (e:Entity {id: row.entity_id, user_id: $user_id})
MERGE (f)-[r:HAS_ROLE {role: row.role}]->(e)
