// Tenant scoping: every read starts from one user's nodes.
CREATE INDEX session_user IF NOT EXISTS FOR (n:Session) ON (n.user_id);
CREATE INDEX turn_user IF NOT EXISTS FOR (n:Turn) ON (n.user_id);
CREATE INDEX piece_user IF NOT EXISTS FOR (n:MessagePiece) ON (n.user_id);
CREATE INDEX fact_user IF NOT EXISTS FOR (n:FactEvent) ON (n.user_id);
CREATE INDEX entity_user IF NOT EXISTS FOR (n:Entity) ON (n.user_id);
// Lookups that later stages make within one user.
CREATE INDEX turn_user_source IF NOT EXISTS FOR (n:Turn) ON (n.user_id, n.source_id);
CREATE INDEX fact_user_slot IF NOT EXISTS FOR (n:FactEvent) ON (n.user_id, n.slot);
CREATE INDEX fact_user_status IF NOT EXISTS FOR (n:FactEvent) ON (n.user_id, n.status);
CREATE INDEX entity_user_norm IF NOT EXISTS FOR (n:Entity) ON (n.user_id, n.norm_name);
CREATE INDEX session_user_time IF NOT EXISTS FOR (n:Session) ON (n.user_id, n.started_at);
