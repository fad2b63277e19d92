// Ready queries for Neo4j Browser. Paste one block into the editor and run it (Ctrl+Enter).
// Each block names its own user (and session or slot) on its first line: change 'demo' there.
// Nothing depends on :param, so the queries still work after Browser is reloaded.
// `graphmem neo4j browser --queries` prints this file.

// 1. Every supersession chain: what changed, and the fact that replaced it
WITH 'demo' AS user
MATCH p = (:FactEvent {user_id: user})-[:SUPERSEDES|UPDATES|CONTRADICTS]->(:FactEvent)
RETURN p;

// 2. The current facts and the entities they mention
WITH 'demo' AS user
MATCH (f:FactEvent {user_id: user, status: 'active'})
OPTIONAL MATCH (f)-[r:HAS_ROLE]->(e:Entity)
RETURN f, r, e;

// 3. History of one slot, oldest first, as a table
WITH 'demo' AS user, 'lives_in' AS predicate
MATCH (f:FactEvent {user_id: user, predicate: predicate})
RETURN f.value AS value, f.status AS status, f.valid_from AS valid_from,
       f.valid_until AS valid_until, f.text AS text
ORDER BY f.valid_from;

// 4. What came from one session: its turns, pieces, and the facts derived from them
WITH 'demo' AS user, 's3' AS session
MATCH (s:Session {user_id: user, source_id: session})-[:HAS_TURN]->(t:Turn)
OPTIONAL MATCH (t)-[:HAS_PIECE]->(p:MessagePiece)<-[d:DERIVED_FROM]-(f:FactEvent)
RETURN s, t, p, d, f;

// 5. Facts with the exact words they came from
WITH 'demo' AS user
MATCH (f:FactEvent {user_id: user})-[d:DERIVED_FROM]->(p:MessagePiece)<-[h:HAS_PIECE]-(t:Turn)
RETURN f, d, p, h, t LIMIT 25;

// 6. The user's entities and how facts connect them
WITH 'demo' AS user
MATCH (u:User {id: user})
OPTIONAL MATCH (u)-[r:RELATED]->(e:Entity)
RETURN u, r, e;

// 7. Every currency edge and who decided it (rules, or llm:<model>), as a table
WITH 'demo' AS user
MATCH (a:FactEvent {user_id: user})-[r:SUPERSEDES|UPDATES|CONTRADICTS]->(b:FactEvent)
RETURN r.decided_by AS decided_by, type(r) AS relation, a.text AS newer, b.text AS older,
       r.at AS at
ORDER BY at;

// 8. What made each fact (a rule id, the model's version, an LLM), as a table
WITH 'demo' AS user
MATCH (f:FactEvent {user_id: user})
RETURN coalesce(f.extracted_by, f.extractor) AS extracted_by, f.predicate AS predicate,
       f.status AS status, f.text AS text
ORDER BY extracted_by, predicate;
