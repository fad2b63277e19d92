// Everything the fusion and the caller need about candidate evidence, for one user only, as one
// row holding a list of maps (one Bolt record: the driver's cost is per record).
// $slot_states: also list each turn's / piece's slot facts [predicate, status, id, slot,
// mentioned_at, valid_from, valid_until] (present-tense slot questions, and searches with a
// question-date cutoff or an as_of date).
// Times go out as microseconds since the epoch (UTC): the driver's DateTime values cost more to
// unpack than the rest of the row (graphmem.store.search turns them into datetimes). A turn's or
// piece's slot facts are walked to once (counted and listed from that one list). A mention (a
// state read in passing, FactEvent.mention) steers nothing here: its slot is left out, so its
// end makes no turn stale and no turn "about another slot".
CALL () {
  UNWIND $turn_ids AS id
  MATCH (t:Turn {id: id}) WHERE t.user_id = $user_id
  WITH t, [(t)-[:HAS_PIECE]->()<-[:DERIVED_FROM]-(f:FactEvent) WHERE f.slot IS NOT NULL AND NOT coalesce(f.mention, false) | f] AS fs
  RETURN 'turn' AS type, t.id AS id, t.text AS text, t.role AS role, t.speaker AS speaker, t.id AS turn_id,
         t.session_source_id AS session_source_id, [t.source_id] AS source_turn_ids,
         t.mentioned_at.epochSeconds * 1000000 + t.mentioned_at.microsecond AS mentioned_at,
         null AS occurred_start, null AS occurred_end,
         null AS valid_from, null AS valid_until, null AS status,
         size(fs) AS slot_facts, size([f IN fs WHERE f.status <> 'active']) AS stale_facts,
         CASE WHEN $slot_states THEN
           [f IN fs
            | [f.predicate, f.status, f.id, f.slot,
               f.mentioned_at.epochSeconds * 1000000 + f.mentioned_at.microsecond,
               f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
               f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond]] END AS slot_states,
         null AS slot, null AS predicate
  UNION ALL
  UNWIND $piece_ids AS id
  MATCH (p:MessagePiece {id: id})<-[:HAS_PIECE]-(t:Turn) WHERE p.user_id = $user_id
  WITH p, t, [(p)<-[:DERIVED_FROM]-(f:FactEvent) WHERE f.slot IS NOT NULL AND NOT coalesce(f.mention, false) | f] AS fs
  RETURN 'piece' AS type, p.id AS id, p.text AS text, t.role AS role, t.speaker AS speaker, t.id AS turn_id,
         t.session_source_id AS session_source_id, [t.source_id] AS source_turn_ids,
         t.mentioned_at.epochSeconds * 1000000 + t.mentioned_at.microsecond AS mentioned_at,
         null AS occurred_start, null AS occurred_end,
         null AS valid_from, null AS valid_until, null AS status,
         size(fs) AS slot_facts, size([f IN fs WHERE f.status <> 'active']) AS stale_facts,
         CASE WHEN $slot_states THEN
           [f IN fs
            | [f.predicate, f.status, f.id, f.slot,
               f.mentioned_at.epochSeconds * 1000000 + f.mentioned_at.microsecond,
               f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
               f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond]] END AS slot_states,
         null AS slot, null AS predicate
  UNION ALL
  UNWIND $fact_ids AS id
  MATCH (f:FactEvent {id: id})-[:DERIVED_FROM]->(:MessagePiece)<-[:HAS_PIECE]-(t:Turn)
  WHERE f.user_id = $user_id
  WITH f, collect(DISTINCT t) AS ts
  RETURN 'fact' AS type, f.id AS id, f.text AS text, ts[0].role AS role, ts[0].speaker AS speaker, f.turn_id AS turn_id,
         ts[0].session_source_id AS session_source_id, [t IN ts | t.source_id] AS source_turn_ids,
         f.mentioned_at.epochSeconds * 1000000 + f.mentioned_at.microsecond AS mentioned_at,
         f.occurred_start.epochSeconds * 1000000 + f.occurred_start.microsecond AS occurred_start,
         f.occurred_end.epochSeconds * 1000000 + f.occurred_end.microsecond AS occurred_end,
         f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond AS valid_from,
         f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond AS valid_until,
         f.status AS status, 0 AS slot_facts, 0 AS stale_facts, [] AS slot_states,
         CASE WHEN coalesce(f.mention, false) THEN null ELSE f.slot END AS slot,
         f.predicate AS predicate
}
RETURN collect({type: type, id: id, text: text, role: role, speaker: speaker, turn_id: turn_id,
       session_source_id: session_source_id, source_turn_ids: source_turn_ids, mentioned_at:
       mentioned_at, occurred_start: occurred_start, occurred_end: occurred_end, valid_from:
       valid_from, valid_until: valid_until, status: status, slot_facts: slot_facts, stale_facts:
       stale_facts, slot_states: slot_states, slot: slot, predicate: predicate}) AS rows
