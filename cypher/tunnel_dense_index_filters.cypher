// The vector indexes of the dense tunnel and their properties: `user_id` and `mentioned_at` among
// them mean the index filters by user and by question date inside the search (migrations 0007
// and 0008 on a server that supports it).
SHOW VECTOR INDEXES YIELD name, properties
WHERE name IN ['turn_embedding', 'piece_embedding', 'fact_embedding']
RETURN name, properties
