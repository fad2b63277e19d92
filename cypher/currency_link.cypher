// newer -[:SUPERSEDES|UPDATES|CONTRADICTS]-> older, recording who decided and when it changed.
UNWIND $links AS row
MATCH (a:FactEvent {id: row.source, user_id: $user_id})
MATCH (b:FactEvent {id: row.target, user_id: $user_id})
WHERE row.type IN ['SUPERSEDES', 'UPDATES', 'CONTRADICTS']
MERGE (a)-[r:$(row.type)]->(b)
SET r.decided_by = $decided_by, r.at = row.at
