// Lucene full-text indexes for the BM25 tunnel. `user_id` is indexed too so a query can be
// scoped inside Lucene (`+user_id:"…"`) before scoring, with an exact check after.
CREATE FULLTEXT INDEX turn_text IF NOT EXISTS FOR (n:Turn) ON EACH [n.text, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX piece_text IF NOT EXISTS FOR (n:MessagePiece) ON EACH [n.text, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:FactEvent) ON EACH [n.text, n.predicate, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}};
