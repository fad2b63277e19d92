// The facts derived from some of one user's turns (stored ids), in the order they were said, each
// with the facts it replaced — the SUPERSEDES / UPDATES / CONTRADICTS edges it drew — by id and
// statement: what an append made and what it changed.
UNWIND $turn_ids AS turn_id
MATCH (t:Turn {id: turn_id})-[:HAS_PIECE]->(:MessagePiece)<-[:DERIVED_FROM]-(f:FactEvent)
WHERE t.user_id = $user_id AND f.user_id = $user_id
WITH DISTINCT f
RETURN f.id AS id, f.predicate AS predicate, f.value AS value, f.text AS text,
       f.status AS status, f.turn_id AS turn_id,
       COLLECT { MATCH (f)-[c:SUPERSEDES|UPDATES|CONTRADICTS]->(old:FactEvent)
                 WHERE old.user_id = $user_id
                 RETURN {type: type(c), id: old.id, text: old.text, status: old.status} } AS replaced
ORDER BY f.mentioned_at, f.turn_idx, f.id
