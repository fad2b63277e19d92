// The dense tunnel's vector indexes again, carrying user_id and mentioned_at, so a search is
// filtered inside the index to one user and to what was mentioned by a question date (a range
// predicate in SEARCH ... WHERE). Embedded pieces written before pieces carried mentioned_at get
// their turn's first. Statements are run one by one (`;`).
MATCH (p:MessagePiece) WHERE p.embedding IS NOT NULL AND p.mentioned_at IS NULL
CALL (p) {
  MATCH (t:Turn {id: p.turn_id, user_id: p.user_id})
  SET p.mentioned_at = t.mentioned_at
} IN TRANSACTIONS OF 10000 ROWS;
DROP INDEX turn_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON (n.embedding)
WITH [n.user_id, n.mentioned_at]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};
DROP INDEX piece_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX piece_embedding IF NOT EXISTS FOR (n:MessagePiece) ON (n.embedding)
WITH [n.user_id, n.mentioned_at]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};
DROP INDEX fact_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:FactEvent) ON (n.embedding)
WITH [n.user_id, n.mentioned_at]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}}
