// The vector indexes without the user filter (servers before Neo4j 2026.01), $dimensions wide
// (the embedder's). Statements are run one by one (`;`).
DROP INDEX turn_embedding IF EXISTS;
CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
DROP INDEX piece_embedding IF EXISTS;
CREATE VECTOR INDEX piece_embedding IF NOT EXISTS FOR (n:MessagePiece) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
DROP INDEX fact_embedding IF EXISTS;
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:FactEvent) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
DROP INDEX entity_embedding IF EXISTS;
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
