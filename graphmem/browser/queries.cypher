// Ready queries for Neo4j Browser. Set the user once with  :param user => 'demo'
// (and :param session => 's1', :param predicate => 'lives_in' for the queries that use them).

// 1. A user's current facts, with the entities they mention
MATCH (f:FactEvent {user_id: $user, status: 'active'})
OPTIONAL MATCH (f)-[r:HAS_ROLE]->(e:Entity)
RETURN f, r, e;

// 2. Every supersession chain of the user (what changed, what replaced it)
MATCH p = (:FactEvent {user_id: $user})-[:SUPERSEDES|UPDATES|CONTRADICTS*1..]->(:FactEvent)
RETURN p;

// 3. History of one slot, oldest first, as a table
MATCH (f:FactEvent {user_id: $user, predicate: $predicate})
RETURN f.value AS value, f.status AS status, f.valid_from AS valid_from,
       f.valid_until AS valid_until, f.text AS text
ORDER BY f.valid_from;

// 4. What came from one session: its turns, pieces, and the facts derived from them
MATCH (s:Session {user_id: $user, source_id: $session})-[:HAS_TURN]->(t:Turn)
OPTIONAL MATCH (t)-[:HAS_PIECE]->(p:MessagePiece)<-[d:DERIVED_FROM]-(f:FactEvent)
RETURN s, t, p, d, f;

// 5. A fact with the exact words it came from
MATCH (f:FactEvent {user_id: $user})-[d:DERIVED_FROM]->(p:MessagePiece)<-[h:HAS_PIECE]-(t:Turn)
RETURN f, d, p, h, t LIMIT 25;

// 6. The user's entities and how facts connect them
MATCH (u:User {id: $user})
OPTIONAL MATCH (u)-[r:RELATED]->(e:Entity)
RETURN u, r, e;

// 7. Every currency edge and who decided it (rules, or llm:<model>), as a table
MATCH (a:FactEvent {user_id: $user})-[r:SUPERSEDES|UPDATES|CONTRADICTS]->(b:FactEvent)
RETURN r.decided_by AS decided_by, type(r) AS relation, a.text AS newer, b.text AS older,
       r.at AS at
ORDER BY at;
