// Whether any fact of the user was mentioned after $known_at (a question date): the id of one
// such fact, or none. When there is none, what memory knew on the question date is what it knows
// now (every fact's stored status was decided from facts all known then), so a search need not
// decide its slots again (Retriever._known_at). One seek in index fact_user_mentioned (schema
// 0017). Run inside the tunnels' query (store.search.together). One row holding the list.
CYPHER 25
CALL () {
  MATCH (f:FactEvent)
  WHERE f.user_id = $user_id AND f.mentioned_at > $known_at
  RETURN f.id AS id LIMIT 1
}
RETURN collect(id) AS rows
