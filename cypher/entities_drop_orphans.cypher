// Delete those of these entities of one user that no fact names any more (their names came only
// from forgotten words); the others stay as they are.
UNWIND $entity_ids AS id
MATCH (e:Entity {id: id}) WHERE e.user_id = $user_id
  AND NOT EXISTS { MATCH (e)<-[:HAS_ROLE]-(:FactEvent) }
DETACH DELETE e
RETURN count(*) AS entities
