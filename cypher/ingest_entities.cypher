// Entities resolved per user by normalised name; surface forms accumulate as aliases.
UNWIND $entities AS row
MERGE (e:Entity {id: row.id, user_id: $user_id})
  ON CREATE SET e.name = row.name, e.norm_name = row.norm_name,
                e.type = row.type, e.aliases = [], e.first_seen = row.mentioned_at
WITH e, row
SET e.aliases = CASE WHEN row.name IN e.aliases THEN e.aliases ELSE e.aliases + row.name END,
    e.last_seen = CASE WHEN e.last_seen IS NULL OR e.last_seen < row.mentioned_at
                       THEN row.mentioned_at ELSE e.last_seen END,
    e.embedding = coalesce(e.embedding, row.embedding)
SET e.aliases_text = reduce(acc = '', a IN e.aliases | acc + ' ' + a)
