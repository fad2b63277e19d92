// 384-d MiniLM embeddings, cosine. Dense search scoped to one user computes exact cosine over
// that user's nodes; these indexes serve whole-database exploration and large users.
CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX piece_embedding IF NOT EXISTS FOR (n:MessagePiece) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:FactEvent) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
