// The turns of the session of one turn, within $window turns of it, in order (one user only).
MATCH (t:Turn {id: $turn_id}) WHERE t.user_id = $user_id
MATCH (s:Session)-[:HAS_TURN]->(t)
MATCH (s)-[:HAS_TURN]->(o:Turn)
WHERE o.user_id = $user_id AND abs(o.idx - t.idx) <= $window
RETURN o.id AS turn_id, o.source_id AS source_id, o.session_source_id AS session_source_id,
       o.role AS role, o.speaker AS speaker, o.text AS text, o.mentioned_at AS mentioned_at,
       o.idx AS idx,
       COLLECT { MATCH (o)-[:HAS_PIECE]->(:MessagePiece)<-[:DERIVED_FROM]-(f:FactEvent)
                 RETURN DISTINCT {text: f.text, status: f.status, valid_until: f.valid_until,
                                  occurred_start: f.occurred_start} } AS facts
ORDER BY o.idx
