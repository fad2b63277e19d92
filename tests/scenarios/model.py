"""The shape of a currency scenario: sessions of user turns and the checks on the stored state."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from graphmem.models import SessionRecord, Transcript, TurnRecord

ACK = ("Got it.", "Thanks for telling me.", "Noted.", "Okay, I'll keep that in mind.")


def when(text: str) -> datetime:
    """'2024-03-05' (noon UTC) or '2024-03-05T08:30'."""
    value = datetime.fromisoformat(text if "T" in text else text + "T12:00")
    return value.replace(tzinfo=UTC)


@dataclass
class Ask:
    """A search whose best evidence turn must contain `top` (and, with `not_above`, rank above
    every turn containing that text)."""

    question: str
    top: str
    question_date: str | None = None
    as_of: str | None = None
    not_above: str | None = None


@dataclass
class Scenario:
    id: str
    category: str
    sessions: list[tuple[str, list[str]]]
    holds: list[tuple[str, ...]] = field(default_factory=list)  # (predicate prefix, value[, modality])
    stale: list[tuple[str, str]] = field(default_factory=list)  # a version no longer current
    as_of: list[tuple[str, str, str]] = field(default_factory=list)  # (when, predicate, value)
    known_at: list[tuple[str, str, str]] = field(default_factory=list)  # question date D
    unknown_at: list[tuple[str, str, str]] = field(default_factory=list)  # not known on D
    asks: list[Ask] = field(default_factory=list)
    events: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # (words, day)
    edges: list[tuple[str, str]] = field(default_factory=list)  # (type, predicate prefix)
    order: list[int] | None = None  # ingest sessions in this order, one ingest call each
    other: list[tuple[str, list[str]]] | None = None  # a second user saying similar words
    other_holds: list[tuple[str, ...]] = field(default_factory=list)
    other_absent: list[str] = field(default_factory=list)  # words never in the first user's hits
    xfail: str | None = None

    def transcript(self, user_id: str, sessions=None) -> Transcript:
        out = []
        for i, (day, texts) in enumerate(sessions or self.sessions):
            turns = []
            for k, text in enumerate(texts):
                turns.append(TurnRecord("user", text, source_id=f"s{i}_u{k}"))
                turns.append(TurnRecord("assistant", ACK[(i + k) % len(ACK)],
                                        source_id=f"s{i}_a{k}"))
            out.append(SessionRecord(f"s{i}", when(day), turns))
        return Transcript(user_id, out)

    def texts(self) -> dict[str, str]:
        return {f"s{i}_u{k}": text for i, (_d, texts) in enumerate(self.sessions)
                for k, text in enumerate(texts)}
