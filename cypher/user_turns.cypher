// The user-role turns of one user (the corpus of the in-process rank-bm25 baseline).
MATCH (t:Turn {user_id: $user_id})
WHERE t.role = 'user'
RETURN t.id AS id, t.source_id AS source_id, t.text AS text,
       t.session_source_id AS session_source_id, t.mentioned_at AS mentioned_at
ORDER BY t.session_source_id, t.idx
