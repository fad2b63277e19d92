// Every node has a globally unique `id` (derived from its user, so ids never collide across users).
CREATE CONSTRAINT user_id_unique IF NOT EXISTS FOR (n:User) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_id_unique IF NOT EXISTS FOR (n:Session) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT turn_id_unique IF NOT EXISTS FOR (n:Turn) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT piece_id_unique IF NOT EXISTS FOR (n:MessagePiece) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT fact_id_unique IF NOT EXISTS FOR (n:FactEvent) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT schema_version_unique IF NOT EXISTS FOR (n:GraphmemSchema) REQUIRE n.version IS UNIQUE;
