// A memory card for one fact: roles, currency neighbours, and its source spans inside their turns.
MATCH (f:FactEvent {id: $id}) WHERE f.user_id = $user_id
CALL (f) {
  OPTIONAL MATCH (f)-[r:HAS_ROLE]->(e:Entity)
  RETURN collect(DISTINCT {role: r.role, entity: e.name, type: e.type, id: e.id}) AS roles
}
CALL (f) {
  OPTIONAL MATCH (f)-[c:SUPERSEDES|UPDATES|CONTRADICTS]-(o:FactEvent)
  RETURN collect(DISTINCT {type: type(c), direction: CASE WHEN startNode(c) = f THEN 'out' ELSE 'in' END,
                           id: o.id, text: o.text, status: o.status, at: c.at,
                           decided_by: c.decided_by}) AS changes
}
CALL (f) {
  OPTIONAL MATCH (f)-[:DERIVED_FROM]->(p:MessagePiece)<-[:HAS_PIECE]-(t:Turn)<-[:HAS_TURN]-(s:Session)
  RETURN collect({piece_id: p.id, start: p.start, end: p.end, turn_id: t.source_id, role: t.role,
                  speaker: t.speaker, turn_text: t.text, session_source_id: s.source_id,
                  session_time: s.started_at}) AS sources
}
RETURN properties(f) AS fact, [x IN roles WHERE x.id IS NOT NULL] AS roles,
       [x IN changes WHERE x.id IS NOT NULL] AS changes, sources
