// The user and a live session, created on first use; appended turns join its count. The
// content hash is cleared: the session no longer mirrors one transcript file. When memory first
// wrote the session (ingested_at) is kept: it orders two sessions stamped with the same time
// (currency_slot_facts' heard_at), and an append re-decides only its own facts' slots, so a
// later write time would leave the session's other slots decided by the order before it.
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = datetime(), u.currency_rules = $rules
MERGE (s:Session {id: $session.id, user_id: $user_id})
  ON CREATE SET s.source_id = $session.source_id,
                s.started_at = $session.started_at,
                s.turn_count = 0
SET s.turn_count = coalesce(s.turn_count, 0) + $added,
    s.content_hash = null,
    s.ingested_at = coalesce(s.ingested_at, datetime())
MERGE (u)-[:HAS_SESSION]->(s)
// The named speakers of the user's chats, kept on the user: a search reads them in one lookup.
SET u.speakers = coalesce(u.speakers, []) +
    [x IN $session.speakers WHERE NOT x IN coalesce(u.speakers, [])]
// The rules that decided every slot of the user (graphmem.currency_rules) stay only if this
// write's are the same ($rules is null with currency off): else unknown, until a redecide.
SET u.currency_rules = CASE WHEN u.currency_rules = $rules THEN $rules END
