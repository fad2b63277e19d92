// A search's check of the speakers it analysed the question with, remembered from an earlier
// search of the user (Retriever._speakers): the user's speakers now and, when there are two or
// more, each one's other names for the $speakers remembered ({label, norm}), as speaker_labels
// and speaker_aliases give them. Run inside the tunnels' query (store.search.together), so it
// costs no round trip of its own. One row holding the list.
OPTIONAL MATCH (u:User {id: $user_id})
WITH coalesce(u.speakers, []) AS speakers
CALL (speakers) {
  UNWIND CASE WHEN size(speakers) >= 2 THEN $speakers ELSE [] END AS sp
  OPTIONAL MATCH (e:Entity {user_id: $user_id, norm_name: sp.norm})
  OPTIONAL MATCH (f:FactEvent)-[:HAS_ROLE {role: 'subject'}]->(e)
    WHERE f.user_id = $user_id AND f.predicate = $name_predicate AND f.status <> 'invalid'
      AND NOT coalesce(f.mention, false)  // as speaker_aliases: a mention names no one
  WITH sp.label AS speaker, collect(DISTINCT f.value) AS aliases
  ORDER BY speaker
  RETURN collect({speaker: speaker, aliases: aliases}) AS aliases
}
RETURN [{speakers: speakers, aliases: aliases}] AS rows
