// Ids re-keyed by migration 0005 stay resolvable by their old value, within one user; and the
// User node is found by its user_id with an index.
CREATE INDEX session_user_legacy IF NOT EXISTS FOR (n:Session) ON (n.user_id, n.legacy_id);
CREATE INDEX turn_user_legacy IF NOT EXISTS FOR (n:Turn) ON (n.user_id, n.legacy_id);
CREATE INDEX piece_user_legacy IF NOT EXISTS FOR (n:MessagePiece) ON (n.user_id, n.legacy_id);
CREATE INDEX fact_user_legacy IF NOT EXISTS FOR (n:FactEvent) ON (n.user_id, n.legacy_id);
CREATE INDEX entity_user_legacy IF NOT EXISTS FOR (n:Entity) ON (n.user_id, n.legacy_id);
CREATE INDEX user_user_id IF NOT EXISTS FOR (n:User) ON (n.user_id);
