"""Typed records at the boundaries of the pipeline, in the vocabulary of the product.

Loaders produce `Transcript`s; ingest turns them into `Turn`s, `MessagePiece`s and `FactEvent`s;
extractors produce `FactCandidate`s, which become FactEvents only when their spans check out.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .responses import Evidence as Evidence  # one ranked search item: declared with the results

# --- what loaders produce ---------------------------------------------------------------------

# The most characters one message may hold, at every door (Memory.append, HTTP, MCP) and in a
# file checked whole before ingest (graphmem.loaders).
MAX_MESSAGE_CHARS = 100_000

# The predicate of what a person is called ("my name is Kate", "Hey Kate!"): written by the
# extractor, read by retrieval to tell speakers apart.
NAME_PREDICATE = "name"
# Counts of people in a family ("count:child"): every other "count:" predicate tallies deeds
# ("completed 4 courses"), which only grow; a lower tally later counts something else.
FAMILY_COUNTS = frozenset({"count:child", "count:son", "count:daughter", "count:grandchild"})
# Occupations that name being a student ("a grad student", "a PhD candidate"): studying and
# holding a job go together, so the two kinds never end each other (currency).
STUDENT_HEADS = frozenset("student undergrad undergraduate freshman sophomore junior senior "
                          "postdoc candidate scholar".split())


@dataclass
class TurnRecord:
    """One message as the source gave it."""

    role: str  # "user" | "assistant" | a speaker-derived role
    text: str
    speaker: str | None = None
    source_id: str | None = None  # the source's own id: LongMemEval "<session>_<k>", LoCoMo "D1:3"
    # When it was said, if the source says (naive: in the user's time zone, else UTC); None means
    # the session's time. Its own day anchors its time phrases ("yesterday").
    timestamp: datetime | None = None
    # The caller's own labels (agent, run, channel…): a flat map of keys to strings, numbers or
    # booleans kept on the turn (graphmem.metadata); search, facts and timelines filter on it.
    metadata: dict[str, Any] | None = None


@dataclass
class SessionRecord:
    source_id: str
    started_at: datetime | None  # timezone-aware (UTC when the source gives no zone)
    turns: list[TurnRecord] = field(default_factory=list)


@dataclass
class Transcript:
    """Everything one user said, by session."""

    user_id: str
    sessions: list[SessionRecord] = field(default_factory=list)


# --- what ingest stores -------------------------------------------------------------------------


def stable_id(kind: str, *parts: object) -> str:
    """A deterministic id: the same inputs always give the same id, so re-ingesting changes nothing.

    Each part is hashed with its length in front (an unambiguous encoding), so no choice of user,
    session or turn ids, whatever characters they contain, can make two different part lists —
    two users' sessions, say — hash the same bytes."""
    digest = hashlib.blake2b(digest_size=12, person=b"graphmem-id-v2")
    for part in parts:
        data = str(part).encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return f"{kind}:{digest.hexdigest()}"


def legacy_stable_id(kind: str, *parts: object) -> str:
    """The ids of schema versions before 5 (parts joined by \\x1f, which ids may contain):
    kept only so that migration 0005 can record each node's old id as `legacy_id`."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=12)
    return f"{kind}:{digest.hexdigest()}"


@dataclass
class MessagePiece:
    id: str
    turn_id: str
    start: int  # character offsets into the turn text: turn.text[start:end] == text
    end: int
    text: str


@dataclass
class RoleRef:
    """An entity playing a role in a fact: subject, object, location, participant, employer…"""

    role: str
    name: str
    type: str = "other"  # person | place | organization | product | pet | food | activity | other


@dataclass
class TimeExpression:
    """A temporal phrase and what it resolved to against the mention time."""

    text: str
    start: datetime | None = None
    end: datetime | None = None
    granularity: str | None = None  # day | week | weekend | month | year | range | instant
    resolved: bool = False


@dataclass
class FactCandidate:
    """What an extractor proposes. `support` must occur literally in the source turn."""

    kind: str  # preference | attribute | event | plan | relationship | possession | opinion | recommendation
    predicate: str  # normalised slot, e.g. "lives_in", "favorite_restaurant", "owns_count:cat"
    text: str  # readable sentence
    support: str  # exact words from the turn the fact stands on
    modality: str = "asserted"  # asserted | negated | hypothetical | planned | reported
    subject: str = "user"  # "user" or the name of who the fact is about
    value: str | None = None  # the slot's value (city, employer, count…), compared for currency
    roles: list[RoleRef] = field(default_factory=list)
    time_text: str | None = None  # raw temporal expression, resolved by ingest
    piece_ids: list[str] = field(default_factory=list)  # filled by ingest from `support`
    # What made it: "rule:<rule id>", "model:<version>" or "llm:<model>" (stored on the fact).
    extracted_by: str = ""
    # False: a mention, e.g. most of the learned extractor's states (extract.learned._competes):
    # a later fact of its slot ends it, but it ends nothing, since on real chats such a state is
    # too often a value read from pasted text or a passing noun to replace what was told.
    competes: bool = True
    # True: the extractor was unsure of it (the learned tagger below its sure score): it does not
    # compete, and the hybrid keeps the rules' reading of its predicate in that piece. Not stored.
    doubtful: bool = False
    # True: about someone other than the user whom its words do not name (the learned tagger's
    # subject class alone, "partner"): the hybrid holds it back where the rules read the same value
    # for the user ("My husband works at Google and I work at Amazon": Amazon is no husband's
    # employer). Not stored.
    unnamed_subject: bool = False
