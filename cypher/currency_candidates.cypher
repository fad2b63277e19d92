// Stored facts that might compete with each new fact of a session, for the relation judge:
// same subject and predicate, a shared entity, or a close embedding. Facts in the new fact's own
// rule slot are left out (the slot rules decide those), and so are non-stated modalities and
// facts kept as mentions (read in passing: they end nothing, FactEvent.mention), left out in
// each way before its limit, so that they take no stated fact's place.
UNWIND $facts AS row
CALL (row) {
  MATCH (c:FactEvent {user_id: $user_id, predicate: row.predicate})
  WHERE c.subject = row.subject AND c.modality IN $modalities AND NOT coalesce(c.mention, false)
  RETURN c, 2.0 AS score
  ORDER BY c.mentioned_at DESC LIMIT $per_way
  UNION
  UNWIND row.entity_ids AS entity_id
  MATCH (c:FactEvent)-[:HAS_ROLE]->(:Entity {id: entity_id, user_id: $user_id})
  WHERE c.user_id = $user_id AND c.modality IN $modalities AND NOT coalesce(c.mention, false)
  RETURN c, 1.0 AS score
  ORDER BY c.mentioned_at DESC LIMIT $per_way
  UNION
  MATCH (c:FactEvent {user_id: $user_id})
  WHERE row.embedding IS NOT NULL AND c.embedding IS NOT NULL AND c.modality IN $modalities
    AND NOT coalesce(c.mention, false)
  WITH c, vector.similarity.cosine(c.embedding, row.embedding) * 2 - 1 AS cosine
  WHERE cosine >= $min_cosine
  RETURN c, cosine AS score
  ORDER BY score DESC LIMIT $per_way
}
WITH row, c, max(score) AS score
WHERE c.id <> row.id AND (row.slot IS NULL OR c.slot IS NULL OR c.slot <> row.slot)
WITH row, c ORDER BY score DESC, c.mentioned_at DESC
WITH row, collect(c)[..$limit] AS found
UNWIND found AS c
RETURN row.id AS new_id, c.id AS id, c.text AS text, c.predicate AS predicate, c.value AS value,
       c.modality AS modality, c.subject AS subject, c.slot AS slot,
       c.mentioned_at AS mentioned_at, c.occurred_start AS occurred_start,
       c.turn_idx AS turn_idx, c.span_start AS span_start
