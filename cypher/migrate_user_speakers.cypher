// Migration 0011: the named speakers of one user's chats, read from its turns once, kept on the user.
MATCH (u:User {id: $user_id})
CALL (u) {
  MATCH (t:Turn) WHERE t.user_id = u.id AND t.speaker IS NOT NULL
  RETURN collect(DISTINCT t.speaker) AS speakers
}
SET u.speakers = speakers
