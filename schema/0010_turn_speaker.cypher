// Who spoke, per user: the speakers of a user's chats are read at every search (a question that
// names one of them prefers that speaker's words).
CREATE INDEX turn_user_speaker IF NOT EXISTS FOR (n:Turn) ON (n.user_id, n.speaker);
