// The stored parts every id of one user is derived from (migration 0005 re-derives the ids).
CALL () {
  MATCH (s:Session {user_id: $user_id})
  RETURN collect({id: s.id, source_id: s.source_id}) AS sessions
}
CALL () {
  MATCH (t:Turn {user_id: $user_id})
  RETURN collect({id: t.id, session_source_id: t.session_source_id, idx: t.idx}) AS turns
}
CALL () {
  MATCH (t:Turn {user_id: $user_id})-[:HAS_PIECE]->(p:MessagePiece)
  WHERE p.user_id = $user_id
  RETURN collect({id: p.id, turn_id: t.id, start: p.start, end: p.end}) AS pieces
}
CALL () {
  MATCH (f:FactEvent {user_id: $user_id})
  RETURN collect({id: f.id, turn_id: f.turn_id, span_start: f.span_start, predicate: f.predicate,
                  value: f.value}) AS facts
}
CALL () {
  MATCH (e:Entity {user_id: $user_id})
  RETURN collect({id: e.id, norm_name: e.norm_name}) AS entities
}
RETURN sessions, turns, pieces, facts, entities
