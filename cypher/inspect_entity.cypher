// A memory card for one entity: its names and the facts it plays a role in.
MATCH (e:Entity {id: $id}) WHERE e.user_id = $user_id
OPTIONAL MATCH (f:FactEvent)-[r:HAS_ROLE]->(e)
WITH e, f, r ORDER BY coalesce(f.occurred_start, f.mentioned_at)
RETURN properties(e) AS entity,
       [x IN collect({role: r.role, id: f.id, text: f.text, status: f.status}) WHERE x.id IS NOT NULL] AS facts
