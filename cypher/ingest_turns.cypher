// Verbatim turns of one session, each mentioned when it was said (its own time, else the session's).
MATCH (s:Session {id: $session_id, user_id: $user_id})
UNWIND $turns AS row
MERGE (t:Turn {id: row.id, user_id: $user_id})
SET t.session_id = $session_id,
    t.session_source_id = s.source_id,
    t.source_id = row.source_id,
    t.idx = row.idx,
    t.role = row.role,
    t.speaker = row.speaker,
    t.text = row.text,
    t.mentioned_at = row.mentioned_at,
    t.metadata = row.metadata,
    t.embedding = row.embedding
MERGE (s)-[:HAS_TURN]->(t)
