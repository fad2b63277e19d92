// One user's held facts of these predicates and subjects (active, asserted): what a `left` fact
// of the same transaction may end (currency.ended_by_leaving).
MATCH (f:FactEvent {user_id: $user_id})
WHERE f.predicate IN $predicates AND f.subject IN $subjects
  AND f.status = 'active' AND f.modality = 'asserted'
RETURN f.id AS id, f.predicate AS predicate, f.value AS value, f.subject AS subject,
       f.kind AS kind, f.mentioned_at AS mentioned_at
