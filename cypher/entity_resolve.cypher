// Entity resolution by meaning: for each new entity (no node with its normalised name yet),
// the user's existing entity of the same type whose name embedding is closest, when the cosine
// reaches $min_cosine ("NYC" → "New York City"). Scores are on Neo4j's (1 + cosine) / 2 scale.
UNWIND $entities AS row
OPTIONAL MATCH (same:Entity {id: row.id, user_id: $user_id})
WITH row, same
WHERE same IS NULL AND row.embedding IS NOT NULL
MATCH (e:Entity {user_id: $user_id})
WHERE e.type = row.type AND e.embedding IS NOT NULL
WITH row, e, vector.similarity.cosine(e.embedding, row.embedding) AS score
WHERE score * 2 - 1 >= $min_cosine
WITH row, e ORDER BY score DESC
WITH row, collect(e.id)[0] AS existing_id
RETURN row.id AS id, existing_id
