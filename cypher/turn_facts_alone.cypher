// The facts derived from one turn of a user and from no other turn: what goes when it does.
MATCH (t:Turn {id: $turn_id}) WHERE t.user_id = $user_id
MATCH (t)-[:HAS_PIECE]->(p:MessagePiece)<-[:DERIVED_FROM]-(f:FactEvent)
WHERE p.user_id = $user_id AND f.user_id = $user_id
  AND NOT EXISTS { MATCH (f)-[:DERIVED_FROM]->(o:MessagePiece) WHERE o.turn_id <> $turn_id }
RETURN DISTINCT f.id AS id
ORDER BY id
