// The vector indexes of the dense tunnel and their properties: `user_id` among them means the
// index filters by user inside the search (migration 0007 on a server that supports it).
SHOW VECTOR INDEXES YIELD name, properties
WHERE name IN ['turn_embedding', 'fact_embedding']
RETURN name, properties
