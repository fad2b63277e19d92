// Pairs among the given evidence (turns and facts of one user) whose embeddings have cosine ≥ θ.
// Computed in the database so that no vector travels to the client; each embedding is read once
// (into the list), not once per pair: 7.9 -> 2.7 ms p50 on real fused searches
// (docs/bench/2026-12-02-service-near-duplicates.md).
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Turn {id: id}) RETURN n
  UNION MATCH (n:FactEvent {id: id}) RETURN n
}
WITH n WHERE n.user_id = $user_id AND n.embedding IS NOT NULL
WITH collect({id: n.id, e: n.embedding}) AS nodes
UNWIND range(0, size(nodes) - 2) AS i
UNWIND range(i + 1, size(nodes) - 1) AS j
WITH nodes[i] AS a, nodes[j] AS b
WITH a, b, vector.similarity.cosine(a.e, b.e) AS score
WHERE (score * 2 - 1) >= $theta
RETURN a.id AS a, b.id AS b
