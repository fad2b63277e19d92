// The other names each speaker is called by: the values of `name` facts whose subject is the
// speaker's entity (self-introductions, being addressed). A mention (FactEvent.mention) names no
// one: the learned extractor reads "Hey Caroline!" said by Melanie as Melanie's own name. One
// index seek per speaker.
UNWIND $speakers AS sp
OPTIONAL MATCH (e:Entity {user_id: $user_id, norm_name: sp.norm})
OPTIONAL MATCH (f:FactEvent)-[:HAS_ROLE {role: 'subject'}]->(e)
  WHERE f.user_id = $user_id AND f.predicate = $name_predicate AND f.status <> 'invalid'
    AND NOT coalesce(f.mention, false)
RETURN sp.label AS speaker, collect(DISTINCT f.value) AS aliases
ORDER BY speaker
