// The user and the session; one call per session, inside the session's transaction.
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = datetime(), u.currency_rules = $rules
MERGE (s:Session {id: $session.id, user_id: $user_id})
SET
    s.source_id = $session.source_id,
    s.started_at = $session.started_at,
    s.turn_count = $session.turn_count,
    s.content_hash = $session.content_hash,
    s.deleted_idxs = null,
    s.ingested_at = datetime()
MERGE (u)-[:HAS_SESSION]->(s)
// The named speakers of the user's chats, kept on the user: a search reads them in one lookup.
SET u.speakers = coalesce(u.speakers, []) +
    [x IN $session.speakers WHERE NOT x IN coalesce(u.speakers, [])]
// The rules that decided every slot of the user (graphmem.currency_rules) stay only if this
// write's are the same ($rules is null with currency off): else unknown, until a redecide.
SET u.currency_rules = CASE WHEN u.currency_rules = $rules THEN $rules END
