// The SUPERSEDES / UPDATES edges one decider drew between one user's facts (newer -> older),
// with the source turns and sessions of both facts (for the edge-precision audit); old_mention:
// the older fact was read in passing (the edge ends a mention, it claims no change).
MATCH (a:FactEvent {user_id: $user_id})-[r:SUPERSEDES|UPDATES]->(b:FactEvent {user_id: $user_id})
WHERE r.decided_by = $decided_by
OPTIONAL MATCH (a)-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(ta:Turn)
OPTIONAL MATCH (b)-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(tb:Turn)
WITH r, a, b, head(collect(DISTINCT ta)) AS ta, head(collect(DISTINCT tb)) AS tb
RETURN type(r) AS type, a.slot AS slot,
       a.id AS new_fact, a.predicate AS new_predicate, a.value AS new_value,
       a.quantity AS new_quantity, a.modality AS new_modality,
       ta.id AS new_turn, ta.source_id AS new_source_turn, ta.session_source_id AS new_session,
       b.id AS old_fact, b.predicate AS old_predicate, b.value AS old_value,
       b.quantity AS old_quantity, b.modality AS old_modality,
       coalesce(b.mention, false) AS old_mention,
       tb.id AS old_turn, tb.source_id AS old_source_turn, tb.session_source_id AS old_session
ORDER BY a.id, b.id
