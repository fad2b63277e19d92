// Mark one fact of a user wrong: status invalid (it never held: valid_until = valid_from), who
// said so, when and why. It leaves its slot (currency_slot_facts skips invalidated facts) and
// the currency edges it had go; the caller decides its slot and its neighbours' slots again.
MATCH (f:FactEvent {id: $fact_id}) WHERE f.user_id = $user_id AND f.invalidated_at IS NULL
CALL (f) {
  OPTIONAL MATCH (f)-[c:SUPERSEDES|UPDATES|CONTRADICTS]-(o:FactEvent)
  WHERE o.user_id = $user_id
  DELETE c
  RETURN collect(DISTINCT o.id) AS neighbours, collect(DISTINCT o.slot) AS neighbour_slots
}
SET f.status = 'invalid', f.valid_until = f.valid_from,
    f.invalidated_by = $by, f.invalidated_at = $at, f.invalidated_reason = $reason
RETURN f.id AS id, f.slot AS slot, neighbours, neighbour_slots
