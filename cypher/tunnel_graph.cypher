// Graph tunnel. Heads: the user's entities and facts hit by the query. An entity head brings
// the facts it plays a role in (direct) and, one or two relation-type hops away, its neighbours'
// facts (derived); a fact head brings its currency chain (derived). Fan-out is capped per head;
// hub entities (more than $hub_degree facts, e.g. a speaker) and the user's own node are never
// heads; each head keeps its $per_head hits most similar to the query.
// Slot heads come in the same query (one round trip): with $predicates (the predicates the question
// asks about, "where do I live" → lives_in), the user's facts on them, most query-similar first,
// stale versions only when $include_stale (asked about the past), as rows of the head $slot_head
// after the entity and fact heads' rows. Without $mentions no fact kept as a mention
// (FactEvent.mention) is a head or a hit. One row holding the list (one Bolt record).
CALL () {
  CALL () {
    CALL db.index.fulltext.queryNodes('entity_text', $entity_lucene, {limit: $limit}) YIELD node, score
    WITH node AS e, score WHERE e.user_id = $user_id
      AND COUNT { (e)<-[:HAS_ROLE]-() } <= $hub_degree  // hubs (the speakers themselves) say nothing
    ORDER BY score DESC LIMIT $entity_heads
    CALL (e) {
      MATCH (f:FactEvent)-[:HAS_ROLE]->(e)
      WHERE $mentions OR NOT coalesce(f.mention, false)
      WITH f LIMIT $fanout
      RETURN f, true AS direct
      UNION
      MATCH (e)-[:RELATED*1..2]-(n:Entity)
      WHERE n.user_id = $user_id AND n <> e
      WITH DISTINCT n LIMIT $fanout
      MATCH (f:FactEvent)-[:HAS_ROLE]->(n)
      WHERE $mentions OR NOT coalesce(f.mention, false)
      WITH f LIMIT $fanout
      RETURN f, false AS direct
    }
    RETURN 'entity:' + e.name AS head, score AS head_score, f, direct
    UNION ALL
    CALL db.index.fulltext.queryNodes('fact_text', $fact_lucene, {limit: $limit}) YIELD node, score
    WITH node AS h, score WHERE h.user_id = $user_id
      AND ($mentions OR NOT coalesce(h.mention, false))
    ORDER BY score DESC LIMIT $fact_heads
    CALL (h) {
      RETURN h AS f, true AS direct
      UNION
      MATCH (h)-[:SUPERSEDES|UPDATES|CONTRADICTS*1..3]-(f:FactEvent)
      WHERE $mentions OR NOT coalesce(f.mention, false)
      WITH f LIMIT $fanout
      RETURN f, false AS direct
    }
    RETURN 'fact:' + h.id AS head, score AS head_score, f, direct
  }
  WITH head, head_score, f, direct,
       CASE WHEN $vector IS NULL OR f.embedding IS NULL THEN 0.0
            ELSE vector.similarity.cosine(f.embedding, $vector) END AS sim
  ORDER BY head, direct DESC, sim DESC
  WITH head, head_score, collect({id: f.id, direct: direct, sim: sim, turn_id: f.turn_id})[..$per_head] AS hits
  UNWIND hits AS hit
  RETURN head, head_score, hit.id AS id, hit.direct AS direct, hit.sim AS sim, hit.turn_id AS turn_id
  UNION ALL
  WITH 1 AS asked WHERE size($predicates) > 0
  MATCH (f:FactEvent {user_id: $user_id})
  WHERE any(p IN $predicates WHERE f.predicate = p OR f.predicate STARTS WITH p)
    AND ($include_stale OR f.status = 'active')
    AND ($mentions OR NOT coalesce(f.mention, false))
  WITH f, CASE WHEN $vector IS NULL OR f.embedding IS NULL THEN 0.0
               ELSE vector.similarity.cosine(f.embedding, $vector) END AS sim
  ORDER BY (f.modality = 'asserted') DESC, sim DESC
  LIMIT $per_head
  RETURN $slot_head AS head, 1.0 AS head_score, f.id AS id, true AS direct, sim, f.turn_id AS turn_id
}
RETURN collect({head: head, head_score: head_score, id: id, direct: direct, sim: sim,
                turn_id: turn_id}) AS rows
