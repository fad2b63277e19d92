// The BM25 indexes of turns, pieces and facts analysed as English: words are stemmed (Porter),
// so "weddings" finds "wedding" and "attended" finds "attending", and English stop words are not
// indexed (questions never search by them). Measured side by side in
// docs/bench/2026-12-03-stemmed-bm25-own-words-first.md. The entity index keeps the standard
// analyser: names are not stemmed.
// A user id made only of English stop words ("will") cannot scope a query inside these indexes;
// the tunnels detect that (graphmem.lucene.scopes_user), fetch past the usual Lucene limit and
// keep the user's rows by the exact user check.
DROP INDEX turn_text IF EXISTS;
CREATE FULLTEXT INDEX turn_text IF NOT EXISTS FOR (n:Turn) ON EACH [n.text, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
DROP INDEX piece_text IF EXISTS;
CREATE FULLTEXT INDEX piece_text IF NOT EXISTS FOR (n:MessagePiece) ON EACH [n.text, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:FactEvent) ON EACH [n.text, n.predicate, n.user_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
