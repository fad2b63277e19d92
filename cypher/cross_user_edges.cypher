// Edges whose two ends belong to different users (or to no user). Neo4j cannot declare "both
// ends share user_id" as a constraint, so this count must stay 0; `doctor` and the tests check it.
MATCH (a)-[r]->(b)
WHERE a.user_id IS NULL OR b.user_id IS NULL OR a.user_id <> b.user_id
RETURN count(r) AS edges
