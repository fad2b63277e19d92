// Structural order: each turn -[:NEXT]-> the following turn of the same session.
UNWIND $links AS row
MATCH (a:Turn {id: row.prev_id, user_id: $user_id})
MATCH (b:Turn {id: row.id, user_id: $user_id})
MERGE (a)-[:NEXT]->(b)
