// Embedded pieces written before pieces carried mentioned_at get their turn's, so the vector
// indexes' mentioned_at filter (migration 8) sees them.
MATCH (p:MessagePiece) WHERE p.embedding IS NOT NULL AND p.mentioned_at IS NULL
CALL (p) {
  MATCH (t:Turn {id: p.turn_id, user_id: p.user_id})
  SET p.mentioned_at = t.mentioned_at
} IN TRANSACTIONS OF 10000 ROWS
