// The named speakers of one user's conversations, each with the names it is also called by (the
// values of `name` facts whose subject is the speaker: self-introductions, being addressed).
MATCH (t:Turn) WHERE t.user_id = $user_id AND t.speaker IS NOT NULL
WITH DISTINCT t.speaker AS speaker
CALL (speaker) {
  OPTIONAL MATCH (f:FactEvent)-[:HAS_ROLE {role: 'subject'}]->(e:Entity)
  WHERE f.user_id = $user_id AND f.predicate = $name_predicate AND f.status <> 'invalid'
    AND e.user_id = $user_id AND e.name = speaker
  RETURN collect(DISTINCT f.value) AS aliases
}
RETURN speaker, aliases
ORDER BY speaker
