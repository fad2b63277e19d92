MATCH (p:MessagePiece {id: $id}) WHERE p.user_id = $user_id
RETURN p.id AS id, p.turn_id AS turn_id, p.start AS start, p.end AS end, p.text AS text
