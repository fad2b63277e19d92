// MessagePieces: spans of a turn with character offsets into it, mentioned when their turn was.
UNWIND $pieces AS row
MATCH (t:Turn {id: row.turn_id, user_id: $user_id})
MERGE (p:MessagePiece {id: row.id, user_id: $user_id})
SET p.turn_id = row.turn_id,
    p.session_id = $session_id,
    p.start = row.start,
    p.end = row.end,
    p.text = row.text,
    p.mentioned_at = t.mentioned_at,
    p.embedding = row.embedding
MERGE (t)-[:HAS_PIECE]->(p)
