// Pairs among the given evidence (turns and facts of one user) whose embeddings have cosine ≥ θ.
// Computed in the database so that no vector travels to the client; each embedding is read once
// (into the list), not once per pair: 7.9 -> 2.7 ms p50 on real fused searches
// (docs/bench/2026-12-02-service-near-duplicates.md). Turns and facts come in lists of their own
// (one index seek per id, not one per label), and each item is compared with those after it in
// one list expression (a row per item that has a near-duplicate, not one per pair).
CALL () {
  UNWIND $turn_ids AS id
  MATCH (n:Turn {id: id})
  RETURN n
  UNION
  UNWIND $fact_ids AS id
  MATCH (n:FactEvent {id: id})
  RETURN n
}
WITH n WHERE n.user_id = $user_id AND n.embedding IS NOT NULL
WITH collect({id: n.id, e: n.embedding}) AS nodes
UNWIND range(0, size(nodes) - 2) AS i
WITH nodes[i] AS a, [b IN nodes[i + 1..] WHERE (vector.similarity.cosine(nodes[i].e, b.e) * 2 - 1) >= $theta
                     | b.id] AS close
WHERE size(close) > 0
RETURN a.id AS a, close
