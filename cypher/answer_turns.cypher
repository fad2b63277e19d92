// The turns an answer may cite, by stored id, for one user only.
UNWIND $turn_ids AS id
MATCH (t:Turn {id: id}) WHERE t.user_id = $user_id
RETURN t.id AS turn_id, t.source_id AS source_id, t.session_source_id AS session_source_id,
       t.role AS role, t.speaker AS speaker, t.text AS text, t.mentioned_at AS mentioned_at,
       t.idx AS idx,
       COLLECT { MATCH (t)-[:HAS_PIECE]->(:MessagePiece)<-[:DERIVED_FROM]-(f:FactEvent)
                 RETURN DISTINCT {text: f.text, status: f.status, valid_until: f.valid_until,
                                  occurred_start: f.occurred_start, id: f.id, slot: f.slot,
                                  mentioned_at: f.mentioned_at,
                                  mention: coalesce(f.mention, false)} } AS facts
