// newer -[:SUPERSEDES|UPDATES|CONTRADICTS]-> older, recording who decided and when it changed.
UNWIND $links AS row
MATCH (a:FactEvent {id: row.source})
MATCH (b:FactEvent {id: row.target})
WHERE a.user_id = $user_id AND b.user_id = $user_id
  AND row.type IN ['SUPERSEDES', 'UPDATES', 'CONTRADICTS']
MERGE (a)-[r:$(row.type)]->(b)
SET r.decided_by = $decided_by, r.at = row.at
