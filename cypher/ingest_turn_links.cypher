// Structural order: each turn -[:NEXT]-> the following turn of the same session.
UNWIND $links AS row
MATCH (a:Turn {id: row.prev_id})
MATCH (b:Turn {id: row.id})
MERGE (a)-[:NEXT]->(b)
