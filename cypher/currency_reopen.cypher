// Facts in no slot that only a forgotten or invalidated fact had closed (an LLM-judged edge):
// current again once no currency edge points at them. Slot facts are re-decided instead.
UNWIND $ids AS id
MATCH (f:FactEvent {id: id}) WHERE f.user_id = $user_id
  AND f.slot IS NULL AND f.status = 'superseded'
  AND NOT EXISTS { MATCH (f)<-[:SUPERSEDES|UPDATES|CONTRADICTS]-(:FactEvent) }
SET f.status = 'active', f.valid_until = null
