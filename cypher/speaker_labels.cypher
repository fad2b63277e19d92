// The named speakers of one user's chats, kept on the user at ingest (one lookup per search).
MATCH (u:User {id: $user_id})
RETURN coalesce(u.speakers, []) AS speakers
