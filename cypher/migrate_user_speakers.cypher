// The named speakers of one user's chats, read from its turns, kept on the user (migration 0011,
// and imports of exports written before it, which hold no list: $only_missing).
MATCH (u:User {id: $user_id})
WHERE NOT $only_missing OR u.speakers IS NULL
CALL (u) {
  MATCH (t:Turn) WHERE t.user_id = u.id AND t.speaker IS NOT NULL
  RETURN collect(DISTINCT t.speaker) AS speakers
}
SET u.speakers = speakers
