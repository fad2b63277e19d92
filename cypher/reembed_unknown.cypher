// Embedded nodes still without a new vector once every user was re-embedded (a label that
// re-embedding does not know, a node outside any user), by label: must be none before the new
// vectors are swapped in, or two vector spaces would mix.
MATCH (n)
WHERE n.embedding IS NOT NULL AND n.embedding_next IS NULL
RETURN labels(n) AS labels, count(*) AS nodes
