// The facts among $ids that an LLM-decided edge closes, counting only edges from a fact mentioned
// by $known_at (a question date), with the earliest such edge's time: what currency_overlay did at
// ingest, as the question date knew it, applied after the slot rules re-decide the slots
// (knowledge.decisions_known_at). A fact marked wrong stays so.
UNWIND $ids AS id
MATCH (f:FactEvent {id: id, user_id: $user_id})
WHERE f.invalidated_at IS NULL
MATCH (n:FactEvent)-[r:SUPERSEDES|UPDATES|CONTRADICTS]->(f)
WHERE r.decided_by STARTS WITH 'llm:' AND n.user_id = $user_id AND n.mentioned_at <= $known_at
RETURN f.id AS id, min(r.at) AS closed
