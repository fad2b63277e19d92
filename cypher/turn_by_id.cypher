// One user's turn named by its stored id or by the source's own turn id (a source id that two
// sessions of the user share names both: the caller asks for the stored id then).
CALL () {
  MATCH (t:Turn {id: $id}) RETURN t
  UNION MATCH (t:Turn {user_id: $user_id, source_id: $id}) RETURN t
}
WITH t WHERE t.user_id = $user_id
RETURN t.id AS id, t.session_id AS session_id, t.session_source_id AS session_source_id,
       t.source_id AS source_id, t.idx AS idx, t.role AS role, t.speaker AS speaker,
       t.text AS text, t.mentioned_at AS mentioned_at, t.redacted_at AS redacted_at,
       t.metadata AS metadata,
       COLLECT { MATCH (t)-[:HAS_PIECE]->(:MessagePiece)<-[:DERIVED_FROM]-(f:FactEvent)
                 WHERE f.user_id = $user_id RETURN DISTINCT f.id } AS fact_ids
ORDER BY t.session_source_id, t.idx
