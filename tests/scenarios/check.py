"""Ingest one scenario as its own user and list what does not hold (empty: it passes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem.history import facts_as_of
from graphmem.memory import Memory

from .model import Scenario, when


def _matches(row: dict[str, Any], predicate: str, value: str) -> bool:
    if not row["predicate"].startswith(predicate):
        return False
    if row.get("quantity") is not None and value.lstrip("-").isdigit():
        return float(row["quantity"]) == float(value)
    return value.lower() in (row.get("value") or "").lower()


def _holding(rows: list[dict[str, Any]], spec: tuple[str, ...]) -> bool:
    predicate, value, *rest = spec
    modalities = (rest[0],) if rest else ("asserted", "planned")  # a plan is asserted as one
    return any(_matches(r, predicate, value) and r["modality"] in modalities for r in rows)


def _attempt(failures: list[str], label: str, check: Callable[[], bool]) -> None:
    try:
        ok = check()
    except Exception as error:  # a missing feature counts as a failed check, not a crash
        failures.append(f"{label}: {type(error).__name__}: {error}")
        return
    if not ok:
        failures.append(label)


def ingest(mem: Memory, scenario: Scenario, user_id: str, sessions=None) -> None:
    transcript = scenario.transcript(user_id, sessions)
    if scenario.order and sessions is None:
        for i in scenario.order:
            mem.ingest([type(transcript)(user_id, [transcript.sessions[i]])])
    else:
        mem.ingest([transcript])


def run(mem: Memory, scenario: Scenario, user_id: str) -> list[str]:
    graph = mem.graph
    ingest(mem, scenario, user_id)
    failures: list[str] = []
    current = facts_as_of(graph, user_id)
    history = facts_as_of(graph, user_id, history=True)
    for spec in scenario.holds:
        _attempt(failures, f"holds {spec}", lambda spec=spec: _holding(current, spec))
    for p, v in scenario.stale:
        _attempt(failures, f"stale {(p, v)}", lambda p=p, v=v: any(
            _matches(r, p, v) and r["status"] in ("superseded", "invalid") for r in history))
    for d, p, v in scenario.as_of:
        _attempt(failures, f"as_of {d} {(p, v)}", lambda d=d, p=p, v=v: _holding(
            facts_as_of(graph, user_id, when(d)), (p, v)))
    for d, p, v in scenario.known_at:
        _attempt(failures, f"known_at {d} {(p, v)}", lambda d=d, p=p, v=v: _holding(
            facts_as_of(graph, user_id, question_date=when(d)), (p, v)))
    for d, p, v in scenario.unknown_at:
        _attempt(failures, f"unknown_at {d} {(p, v)}", lambda d=d, p=p, v=v: not _holding(
            facts_as_of(graph, user_id, question_date=when(d)), (p, v)))
    for words, day in scenario.events:
        _attempt(failures, f"event {words} on {day}", lambda words=words, day=day: any(
            all(w.lower() in (r["text"] + " " + (r.get("value") or "")).lower() for w in words)
            and r.get("occurred_start") is not None
            and r["occurred_start"].date().isoformat() == day for r in history))
    for kind, p in scenario.edges:
        _attempt(failures, f"edge {kind} {p}", lambda kind=kind, p=p: _has_edge(
            graph, user_id, kind, p))
    texts = scenario.texts()
    for ask in scenario.asks:
        _attempt(failures, f"ask {ask.question!r} qd={ask.question_date} as_of={ask.as_of}",
                 lambda ask=ask: _top_ok(mem, user_id, ask, texts))
    if scenario.other is not None:
        other_id = user_id + "-other"
        try:
            ingest(mem, scenario, other_id, scenario.other)
            mine = facts_as_of(graph, user_id)
            theirs = facts_as_of(graph, other_id)
            _attempt(failures, "own facts unchanged by the other user",
                     lambda: all(_holding(mine, s) for s in scenario.holds))
            for spec in scenario.other_holds:
                _attempt(failures, f"other holds {spec}",
                         lambda spec=spec: _holding(theirs, spec))
            for word in scenario.other_absent:
                _attempt(failures, f"absent {word!r}", lambda word=word: not any(
                    word.lower() in e.text.lower() for e in mem.search(user_id, word, k=30)))
            for ask in scenario.asks:
                _attempt(failures, f"ask after the other user {ask.question!r}",
                         lambda ask=ask: _top_ok(mem, user_id, ask, texts))
        finally:
            graph.forget_user(other_id)
    return failures


def _has_edge(graph, user_id: str, kind: str, predicate: str) -> bool:
    with graph.session(read_only=True) as s:
        rows = s.run("MATCH (a:FactEvent {user_id: $u})-[r]->(b:FactEvent {user_id: $u}) "
                     "RETURN type(r) AS t, a.predicate AS p", u=user_id).data()
    return any(r["t"] == kind and r["p"].startswith(predicate) for r in rows)


def _top_ok(mem: Memory, user_id: str, ask, texts: dict[str, str]) -> bool:
    res = mem.search_full(user_id, ask.question, k=10,
                          question_date=when(ask.question_date) if ask.question_date else None,
                          as_of=when(ask.as_of) if ask.as_of else None)
    turns = [t for t in res.turn_ranking if t in texts]  # the user's own turns, in rank order
    if not turns or ask.top.lower() not in texts[turns[0]].lower():
        return False
    if res.evidence and ask.top.lower() not in " ".join(
            texts.get(t, "") for t in res.evidence[0].source_turn_ids).lower() + \
            res.evidence[0].text.lower():
        return False
    if ask.not_above:
        stale = [i for i, t in enumerate(turns) if ask.not_above.lower() in texts[t].lower()]
        return all(i > 0 for i in stale)
    return True
