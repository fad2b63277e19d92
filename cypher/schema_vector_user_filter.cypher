// The vector indexes again, carrying user_id for in-index filtering (Cypher 25) — and, for the
// dense tunnel's turns, pieces and facts, mentioned_at, so a question date is a range predicate
// inside the index too (migration 8) — unquantised so
// the search ranks by the stored vectors themselves, $dimensions wide (the embedder's). Statements
// are run one by one (`;`).
DROP INDEX turn_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON (n.embedding)
WITH [n.user_id, n.mentioned_at]
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};
DROP INDEX piece_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX piece_embedding IF NOT EXISTS FOR (n:MessagePiece) ON (n.embedding)
WITH [n.user_id, n.mentioned_at]
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};
DROP INDEX fact_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:FactEvent) ON (n.embedding)
WITH [n.user_id, n.mentioned_at]
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};
DROP INDEX entity_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
WITH [n.user_id]
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}}
