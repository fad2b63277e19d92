// When each of a user's facts was mentioned: a search with a question date asks whether any fact
// was mentioned after it (cypher/facts_mentioned_after.cypher). When none was, what memory knew
// that day is what it knows now, and the search need not decide its slots again; the answer is
// one seek in this index, however many facts the user has.
CREATE INDEX fact_user_mentioned IF NOT EXISTS FOR (n:FactEvent) ON (n.user_id, n.mentioned_at);
