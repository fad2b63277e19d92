"""The evidence pool of one question: the turns found so far, each with a short handle (T1, T2…)
that prompts cite as `[turn:T1]`, the facts and pieces that pointed at it, and its date."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..knowledge import decisions_known_at, known
from ..models import Evidence
from ..store.time import utc_native

if TYPE_CHECKING:
    from .protocol import MemoryAccess


def day(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d (%a)") if value else "undated"


def fact_note(text: str, status: str | None, valid_until: datetime | None,
              occurred_start: datetime | None, mention: bool = False) -> str:
    """A fact as the prompts show it under its turn: "fact: … [superseded since …]"; a mention
    (a state read in passing, often a misreading) says so: "[active, read in passing]"."""
    status = status or "active"
    if status != "active" and valid_until:
        status = f"{status} since {day(valid_until)}"
    when = f", happened {day(occurred_start)}" if occurred_start else ""
    passing = ", read in passing" if mention else ""
    return f"fact: {text} [{status}{when}{passing}]"


@dataclass
class PoolTurn:
    handle: str
    turn_id: str  # the stored Turn id
    source_id: str | None
    session_source_id: str | None
    role: str
    text: str
    mentioned_at: datetime | None
    idx: int = 0
    speaker: str | None = None
    quote: str | None = None  # the verbatim words that made it relevant (a piece or a support)
    notes: list[str] = field(default_factory=list)  # facts drawn from it, with their status
    score: float = 0.0  # best retrieval score that reached it
    order: int = 0  # arrival order in the pool

    def add_fact(self, text: str, status: str | None, valid_until: datetime | None,
                 occurred_start: datetime | None, mention: bool = False) -> None:
        note = fact_note(text, status, valid_until, occurred_start, mention)
        if note not in self.notes:
            self.notes.append(note)


class EvidencePool:
    def __init__(self, memory: MemoryAccess, user_id: str, known_at: datetime | None = None):
        """`known_at`: the question date; turns and facts mentioned later stay out of the pool,
        and facts carry the status they had on that date."""
        self.memory = memory
        self.user_id = user_id
        self.known_at = known_at
        self.turns: dict[str, PoolTurn] = {}  # by stored turn id
        self.handles: dict[str, str] = {}  # handle -> stored turn id

    def __len__(self) -> int:
        return len(self.turns)

    def resolve(self, handle: str) -> PoolTurn | None:
        """The pool turn a handle ("T3", "turn:T3", or a stored turn id) names, if any."""
        h = handle.strip()
        h = h[5:] if h.lower().startswith("turn:") else h
        key = self.handles.get(h.upper()) or f"turn:{h}"
        return self.turns.get(key)

    def add_rows(self, rows: list[dict[str, Any]]) -> list[PoolTurn]:
        added = []
        decided: dict[str, Any] = {}
        if self.known_at is not None:
            rows = [r for r in rows if known(utc_native(r["mentioned_at"]), self.known_at)]
            graph = getattr(self.memory, "graph", None)  # a local Memory: re-decide the slots
            decided = decisions_known_at(graph, self.user_id, (
                f.get("slot") for r in rows for f in r.get("facts") or []),
                self.known_at) if graph is not None else {}
        for r in rows:
            if r["turn_id"] in self.turns:
                added.append(self.turns[r["turn_id"]])
                continue
            handle = f"T{len(self.turns) + 1}"
            t = PoolTurn(handle, r["turn_id"], r["source_id"], r["session_source_id"], r["role"],
                         r["text"] or "", utc_native(r["mentioned_at"]), r.get("idx") or 0,
                         r.get("speaker"), order=len(self.turns))
            for f in r.get("facts") or []:
                status, until = f["status"], utc_native(f["valid_until"])
                if self.known_at is not None:
                    if not known(utc_native(f.get("mentioned_at")), self.known_at):
                        continue
                    if f.get("id") in decided:
                        status, until = decided[f["id"]].status, decided[f["id"]].valid_until
                t.add_fact(f["text"], status, until, utc_native(f["occurred_start"]),
                           bool(f.get("mention")))
            self.turns[t.turn_id] = t
            self.handles[handle] = t.turn_id
            added.append(t)
        return added

    def add_turn_ids(self, turn_ids: list[str]) -> list[PoolTurn]:
        missing = [t for t in dict.fromkeys(turn_ids) if t and t not in self.turns]
        if missing:
            rows = self.memory.turns(self.user_id, missing)
            by_id = {r["turn_id"]: r for r in rows}
            self.add_rows([by_id[t] for t in missing if t in by_id])
        return [self.turns[t] for t in dict.fromkeys(turn_ids) if t in self.turns]

    def add_evidence(self, evidence: list[Evidence]) -> list[PoolTurn]:
        """Add the turns behind search results, with their facts and pieces as notes."""
        turns = self.add_turn_ids([e.turn_id for e in evidence if e.turn_id])
        for e in evidence:
            t = self.turns.get(e.turn_id or "")
            if t is None:
                continue
            t.score = max(t.score, e.score)
            if e.type == "piece" and not t.quote:
                t.quote = e.text
            elif e.type == "fact":
                t.add_fact(e.text, e.status, e.valid_until, e.occurred_start)
        return turns

    def ranked(self) -> list[PoolTurn]:
        """Best first: retrieval score, then arrival (search's scores never rise down its list,
        so the first search's turns keep its order: its first turn is first here)."""
        return sorted(self.turns.values(), key=lambda t: (-t.score, t.order))

    def render(self, turns: list[PoolTurn] | None = None, max_chars: int = 1200) -> str:
        """The turns as the prompts see them, in chronological order."""
        chosen = sorted(turns if turns is not None else self.turns.values(),
                        key=lambda t: (t.mentioned_at.timestamp() if t.mentioned_at else 0.0,
                                       t.session_source_id or "", t.idx))
        lines = []
        for t in chosen:
            text = " ".join(t.text.split())
            if len(text) > max_chars:
                text = text[:max_chars] + " …"
            who = t.speaker or t.role
            lines.append(f"[turn:{t.handle}] {day(t.mentioned_at)} session {t.session_source_id} "
                         f"· {who}: {text}")
            lines += [f"    {n}" for n in t.notes]
        return "\n".join(lines)
