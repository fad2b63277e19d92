// The width of each vector index of graphmem's embeddings.
SHOW VECTOR INDEXES YIELD name, options
WHERE name IN ['turn_embedding', 'piece_embedding', 'fact_embedding', 'entity_embedding']
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions
