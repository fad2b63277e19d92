"""The currency benchmark: each scenario ingested as its own user, checked through `Memory`
(current facts, stale versions, as-of and question-date answers, events, edges, top evidence),
and forgotten after; pass rates per category and in total against the goals."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.memory import Memory
from graphmem.store.nodes import FactEvent

from .scenarios import Scenario, when

GOAL_TOTAL = 0.95  # share of all scenarios that pass
GOAL_CATEGORY = 0.85  # share of each category's scenarios that pass


def default_path() -> Path:
    """The checkout's own suite, `tests/scenarios` beside the package."""
    return Path(__file__).resolve().parents[2] / "tests" / "scenarios"


def _matches(f: FactEvent, predicate: str, value: str) -> bool:
    if not f.predicate.startswith(predicate):
        return False
    if f.quantity is not None and value.lstrip("-").isdigit():
        return float(f.quantity) == float(value)
    return value.lower() in (f.value or "").lower()


def _holding(facts: list[FactEvent], spec: dict[str, Any]) -> bool:
    modalities = (spec["modality"],) if "modality" in spec else ("asserted", "planned")
    return any(_matches(f, spec["predicate"], spec["value"]) and f.modality in modalities
               for f in facts)


class Failures(list[str]):
    """The labels of the checks that did not hold, and how many checks were made."""

    attempted: int = 0


def _attempt(failures: list[str], label: str, check: Callable[[], bool]) -> None:
    if isinstance(failures, Failures):
        failures.attempted += 1
    try:
        ok = check()
    except Exception as error:  # a missing feature counts as a failed check, not a crash
        failures.append(f"{label}: {type(error).__name__}: {error}")
        return
    if not ok:
        failures.append(label)


def _ingest(mem: Memory, scenario: Scenario, user_id: str, sessions=None) -> None:
    transcript = scenario.transcript(user_id, sessions)
    if scenario.order and sessions is None:
        for i in scenario.order:
            mem.ingest([type(transcript)(user_id, [transcript.sessions[i]])])
    else:
        mem.ingest([transcript])


def check(mem: Memory, scenario: Scenario, user_id: str, preset: str = "fused") -> Failures:
    """Ingest the scenario as `user_id` and list the checks that do not hold (empty: it
    passes). The caller forgets `user_id`; the second user, if any, is forgotten here. The asks
    search with the retrieval `preset` (e.g. "fused-no-stale": one rerank step off)."""
    _ingest(mem, scenario, user_id)
    c, failures = scenario.checks, Failures()
    _check_facts(mem, c, user_id, failures)
    if c["edges"]:
        timeline = mem.timeline(user_id)
        for spec in c["edges"]:
            _attempt(failures, f"edge {_show(spec)}", lambda s=spec: any(
                f.predicate.startswith(s["predicate"]) and any(ch.type == s["type"]
                                                               for ch in f.changes)
                for f in timeline))
    texts = scenario.texts()
    for ask in c["asks"]:
        _attempt(failures, f"ask {_show(ask)}",
                 lambda a=ask: _top_ok(mem, user_id, a, texts, preset))
    if scenario.other is not None:
        _check_other(mem, scenario, user_id, texts, failures, preset)
    return failures


def _check_facts(mem: Memory, c: dict[str, Any], user_id: str, failures: Failures) -> None:
    """What holds now, what was replaced, what held at a date, what was known by then, and
    events dated to their day."""
    current = mem.facts(user_id)
    history = mem.facts(user_id, history=True)
    for spec in c["holds"]:
        _attempt(failures, f"holds {_show(spec)}", lambda spec=spec: _holding(current, spec))
    for spec in c["stale"]:
        _attempt(failures, f"stale {_show(spec)}", lambda s=spec: any(
            _matches(f, s["predicate"], s["value"]) and f.status in ("superseded", "invalid")
            for f in history))
    for spec in c["as_of"]:
        _attempt(failures, f"as_of {_show(spec)}", lambda s=spec: _holding(
            mem.facts(user_id, when(s["date"])), s))
    for spec in c["known_at"]:
        _attempt(failures, f"known_at {_show(spec)}", lambda s=spec: _holding(
            mem.facts(user_id, question_date=when(s["date"])), s))
    for spec in c["unknown_at"]:
        _attempt(failures, f"unknown_at {_show(spec)}", lambda s=spec: not _holding(
            mem.facts(user_id, question_date=when(s["date"])), s))
    for spec in c["events"]:
        _attempt(failures, f"event {_show(spec)}", lambda s=spec: any(
            all(w.lower() in (f.text + " " + (f.value or "")).lower() for w in s["words"])
            and f.occurred_start is not None
            and f.occurred_start.date().isoformat() == s["day"] for f in history))


def _check_other(mem: Memory, scenario: Scenario, user_id: str, texts: dict[str, str],
                 failures: list[str], preset: str = "fused") -> None:
    """A second user saying similar words changes nothing of the first user's memory."""
    other_id = user_id + "-other"
    try:
        _ingest(mem, scenario, other_id, scenario.other)
        mine, theirs = mem.facts(user_id), mem.facts(other_id)
        _attempt(failures, "own facts unchanged by the other user",
                 lambda: all(_holding(mine, s) for s in scenario.checks["holds"]))
        for spec in scenario.other_holds:
            _attempt(failures, f"other holds {_show(spec)}",
                     lambda spec=spec: _holding(theirs, spec))
        for word in scenario.other_absent:
            _attempt(failures, f"absent {word!r}", lambda word=word: not any(
                word.lower() in e.text.lower() for e in mem.search(user_id, word, k=30)))
        for ask in scenario.checks["asks"]:
            _attempt(failures, f"ask after the other user {_show(ask)}",
                     lambda a=ask: _top_ok(mem, user_id, a, texts, preset))
    finally:
        mem.forget(other_id, missing_ok=True)


def _show(spec: dict[str, Any]) -> str:
    return " ".join(f"{k}={v!r}" for k, v in spec.items())


def _top_ok(mem: Memory, user_id: str, ask: dict[str, Any], texts: dict[str, str],
            preset: str = "fused") -> bool:
    """The best of the user's turns contains `top`, so does the first evidence item (its text
    or source turns), and no turn containing `not_above` ranks first."""
    qd, as_of = ask.get("question_date"), ask.get("as_of")
    res = mem.search_full(user_id, ask["question"], k=10, config=preset,
                          question_date=when(qd) if qd else None,
                          as_of=when(as_of) if as_of else None)
    top = ask["top"].lower()
    turns = [t for t in res.turn_ranking if t in texts]  # the user's own turns, in rank order
    if not turns or top not in texts[turns[0]].lower():
        return False
    if res.evidence and top not in (" ".join(texts.get(t, "") for t in
                                             res.evidence[0].source_turn_ids)
                                    + res.evidence[0].text).lower():
        return False
    stale = ask.get("not_above")
    return not stale or all(i > 0 for i, t in enumerate(turns)
                            if stale.lower() in texts[t].lower())


@dataclass
class Outcome:
    id: str
    category: str
    failures: list[str]
    xfail: str | None = None
    checks: int = 0  # how many checks were made (a scenario passes only if all hold)

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class CurrencyBench:
    path: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def categories(self) -> dict[str, tuple[int, int]]:
        """(passed, total) per category, in the order of the files."""
        out: dict[str, tuple[int, int]] = {}
        for o in self.outcomes:
            p, n = out.get(o.category, (0, 0))
            out[o.category] = (p + o.passed, n + 1)
        return out

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    def checks(self) -> tuple[int, int]:
        """(held, made) over every check of every scenario: a finer figure than scenarios."""
        made = sum(o.checks for o in self.outcomes)
        return made - sum(len(o.failures) for o in self.outcomes), made

    def goals_missed(self) -> list[str]:
        """One phrase per goal not met (empty: all are met)."""
        missed = []
        if self.passed < GOAL_TOTAL * len(self.outcomes):
            missed.append(f"total {self.passed}/{len(self.outcomes)} < {GOAL_TOTAL:.0%}")
        for cat, (p, n) in self.categories().items():
            if p < GOAL_CATEGORY * n:
                missed.append(f"{cat} {p}/{n} < {GOAL_CATEGORY:.0%}")
        return missed

    def to_dict(self) -> dict[str, Any]:
        n = len(self.outcomes)
        return {"path": self.path, "seconds": round(self.seconds, 1),
                "passed": self.passed, "total": n, "rate": round(self.passed / n, 4) if n else 0,
                "checks": dict(zip(("held", "made"), self.checks(), strict=True)),
                "categories": {c: {"passed": p, "total": t, "rate": round(p / t, 4)}
                               for c, (p, t) in self.categories().items()},
                "failures": [o.__dict__ for o in self.outcomes if not o.passed],
                "goals": {"total": GOAL_TOTAL, "category": GOAL_CATEGORY},
                "goals_missed": self.goals_missed()}


def run_currency_bench(mem: Memory, scenarios: list[Scenario], path: str | Path = "",
                       on_scenario: Callable[[Outcome], None] | None = None,
                       preset: str = "fused") -> CurrencyBench:
    """Every scenario as a fresh user (`currency-<random>`), forgotten after its checks."""
    res = CurrencyBench(str(path))
    started = time.perf_counter()
    for s in scenarios:
        user_id = f"currency-{uuid.uuid4().hex[:12]}"
        try:
            failures = check(mem, s, user_id, preset)
        finally:
            mem.forget(user_id, missing_ok=True)
        outcome = Outcome(s.id, s.category, list(failures), s.xfail, failures.attempted)
        res.outcomes.append(outcome)
        if on_scenario:
            on_scenario(outcome)
    res.seconds = time.perf_counter() - started
    return res
