// A memory card for one turn (or the turn of a piece): text, session, neighbours, facts from it.
MATCH (t:Turn {id: $id}) WHERE t.user_id = $user_id
MATCH (s:Session)-[:HAS_TURN]->(t)
OPTIONAL MATCH (prev:Turn)-[:NEXT]->(t)
OPTIONAL MATCH (t)-[:NEXT]->(next:Turn)
OPTIONAL MATCH (t)-[:HAS_PIECE]->(p:MessagePiece)<-[:DERIVED_FROM]-(f:FactEvent)
RETURN properties(t) AS turn, s.source_id AS session_source_id, s.started_at AS session_time,
       prev.source_id AS prev_turn, next.source_id AS next_turn,
       [x IN collect(DISTINCT {id: f.id, text: f.text, status: f.status, start: p.start, end: p.end})
        WHERE x.id IS NOT NULL] AS facts
