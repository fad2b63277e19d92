"""The typed results every door returns, declared once: `Memory` builds them (or the records they
are made from), the HTTP routes declare them as response models, the MCP tools return them (their
output schemas), and `graphmem.client` parses the server's JSON into them. Pydantic only, nothing
heavier, so the client stays light. Id names mean one thing each: `id` / `turn_id` /
`session_id` are stored graphmem ids, `source_id` / `source_turn_ids` / `session_source_id` the
source's own. Fields a newer server adds are ignored by an older client."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, computed_field

Status = Annotated[str, Field(description="active | superseded | invalid, as of the time asked")]
Change = Annotated[str, Field(description="SUPERSEDES | UPDATES | CONTRADICTS")]


class Result(BaseModel):
    """A result: `to_dict()` gives its fields as Python values (times stay datetimes)."""

    model_config = ConfigDict(extra="ignore")

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


# --- stored things ------------------------------------------------------------------------------


class SessionSummary(Result):
    """A session as listed: its ids, start and how many turns it holds now."""

    id: str
    source_id: str = Field(description="The session id the messages were sent to")
    started_at: datetime | None = None
    turns: int = 0


class Turn(Result):
    """One message, verbatim, with the facts derived from it (when asked)."""

    id: str
    session_id: str
    source_id: str = Field(description="The message's own id (its turn_id when sent)")
    idx: int = Field(description="Its position in the session, from 1")
    role: str
    text: str
    speaker: str | None = None
    mentioned_at: datetime | None = Field(None, description="When it was said")
    session_source_id: str | None = None
    redacted_at: datetime | None = Field(None, description="When its words were replaced")
    fact_ids: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] | None = Field(None, description="The caller's labels")


class FactChange(Result):
    """An edge from a fact to an older one it replaced."""

    type: Change
    id: str


class Invalidation(Result):
    """Who marked a fact wrong ("forget that"), when, and why."""

    by: str
    at: datetime | None = None
    reason: str | None = None


class Fact(Result):
    """A FactEvent: a claim derived from the user's words, with its times and status."""

    id: str
    kind: str
    predicate: str = Field(description="The slot it fills (lives_in, owns_count:dog, …)")
    text: str = Field(description="The fact as a sentence")
    modality: str = Field(description="asserted | negated | hypothetical | planned | reported")
    status: Status
    value: str | None = None
    quantity: float | None = None
    mentioned_at: datetime | None = Field(None, description="When it was said")
    occurred_start: datetime | None = Field(None, description="When it happened (start)")
    occurred_end: datetime | None = None
    valid_from: datetime | None = Field(None, description="When it started to hold")
    valid_until: datetime | None = Field(None, description="When it stopped holding")
    turn_id: str | None = Field(None, description="The stored turn it was derived from")
    source_turn_ids: list[str] = Field(default_factory=list)
    session_source_id: str | None = None
    changes: list[FactChange] = Field(default_factory=list)
    slot: str | None = Field(None, description="What it competes for (currency)")
    invalidation: Invalidation | None = None
    extracted_by: str | None = Field(None, description="rule:<id>, model:<version>, llm:<model>")
    mention: bool = Field(False, description="Read in passing: a later fact of its slot ends "
                                             "it; it ends nothing")


class Facts(Result):
    facts: list[Fact]


# --- writing ------------------------------------------------------------------------------------


class Replaced(Result):
    """An older fact a new one replaced (`type`), with its statement and its status now."""

    type: Change
    id: str
    text: str
    status: Status


class MadeFact(Result):
    """A fact an append made, with the facts it replaced."""

    id: str
    predicate: str
    value: str | None = None
    text: str
    status: Status
    turn_id: str | None = None
    replaced: list[Replaced] = Field(default_factory=list)


class AddedTurn(Result):
    turn_id: str
    source_turn_id: str
    idx: int


class AppendResult(Result):
    """What appending messages did: the turns added and the facts they made."""

    session_id: str = Field(description="The stored session id")
    session: str = Field(description="The session id the messages were sent to")
    created: bool
    added: list[AddedTurn] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list,
                                 description="Turn ids the session already held")
    pieces: int = 0
    facts: int = 0
    made: list[MadeFact] = Field(default_factory=list)
    rejected: int = 0
    ms: float = 0.0


class Counts(Result):
    """How many of each: users, sessions, turns, pieces, facts, entities."""

    users: int = 0
    sessions: int = 0
    turns: int = 0
    pieces: int = 0
    facts: int = 0
    entities: int = 0


class IngestCounts(Counts):
    """What an ingest wrote, and what it found stored already or refused."""

    sessions_unchanged: int = Field(0, description="Sessions already stored as they are")
    rejected: int = Field(0, description="Fact candidates whose words the turn does not hold")
    judged_links: int = Field(0, description="Currency edges drawn from the relation judge")


class UploadResult(IngestCounts):
    """What ingesting a transcript file did: what it wrote, and what it left out."""

    skipped_other_users: int = Field(0, description="Records of other users, not ingested")
    seconds: float = 0.0
    turns_per_s: float = 0.0
    skipped: dict[str, int] = Field(default_factory=dict,
                                    description="What the loader left out, by reason")


class TimeZone(Result):
    time_zone: str | None = Field(description="An IANA zone name; null: UTC")


class Deleted(Result):
    deleted: int = Field(description="How many nodes went")


class TurnRemoval(Result):
    """What deleting or redacting one turn did."""

    turn_id: str
    source_id: str
    session_source_id: str
    redacted: bool = Field(description="True: the turn stays, its words replaced")
    pieces: int = 0
    facts: list[str] = Field(default_factory=list, description="Ids of the facts deleted")
    entities: int = Field(0, description="Entities deleted: no fact names them any more")
    slots: list[str] = Field(default_factory=list,
                             description="Slots whose currency was decided again")


class Redecided(Result):
    """What deciding every slot of one user again did (graphmem redecide)."""

    user_id: str
    slots: int = Field(0, description="Slots decided again")
    changed: list[str] = Field(default_factory=list,
                               description="Ids of the facts whose status, interval or count "
                                           "changed")


class SessionPage(Result):
    sessions: list[SessionSummary]
    next_cursor: str | None = Field(None, description="null: the last page")


class TurnPage(Result):
    turns: list[Turn]
    next_cursor: str | None = Field(None, description="null: the last page")


# --- reading ------------------------------------------------------------------------------------


class BriefEvidence(Result):
    """One ranked search item (a fact, a piece or a turn): what a reader needs."""

    id: str
    type: str = Field(description="fact | piece | turn")
    text: str
    score: float = Field(description="conf = density + time bonus")
    status: str | None = Field(None, description="facts: active | superseded | invalid (as "
                               "of the time asked); a turn whose facts no longer hold: stale")
    turn_id: str | None = Field(None, description="The stored turn it comes from")
    source_turn_ids: list[str] = Field(default_factory=list)
    session_source_id: str | None = None
    mentioned_at: datetime | None = Field(None, description="When it was said")
    occurred_start: datetime | None = None
    occurred_end: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None


class Evidence(BriefEvidence):
    """A search item with how it was found (tunnels, heads, density, near-duplicates)."""

    density: float = 0.0
    time_bonus: float = 0.0
    tunnels: list[str] = Field(default_factory=list)
    heads: list[str] = Field(default_factory=list)
    role: str | None = None
    merged: list[str] = Field(default_factory=list, description="Near-duplicates folded in")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def source_id(self) -> str | None:
        """The first source turn id."""
        return self.source_turn_ids[0] if self.source_turn_ids else None


class Intent(Result):
    """What the query asked about in time."""

    window: list[datetime] | None = None
    direction: str | None = None
    about_present: bool = False


class SearchResult(Result):
    results: list[Evidence]
    intent: Intent = Field(default_factory=Intent)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    hits: list[dict[str, Any]] | None = Field(None, description="With explain only")


class SearchHits(Result):
    """Search results as a model reads them (MCP)."""

    results: list[BriefEvidence]


class Citation(Result):
    turn_id: str = Field(description="The stored turn id")
    handle: str
    source_turn_id: str | None = None
    session_source_id: str | None = None
    date: str | None = None
    role: str
    quote: str = Field(description="The turn's verbatim words")
    speaker: str | None = None


class Answer(Result):
    question: str
    text: str
    citations: list[Citation] = Field(default_factory=list)
    generated: bool = Field(True, description="False: extractive (no LLM)")
    not_in_memory: bool = False
    invalid_citations: int = 0
    cited: bool = True
    stopped: str = ""
    steps: int = 0
    trace: list[dict[str, Any]] = Field(default_factory=list, description="With trace only")
    usage: dict[str, Any] = Field(default_factory=dict)
    cost_usd: float = 0.0
    seconds: float = 0.0


class Card(Result):
    """A memory card: its `type` (fact, piece, turn, entity) and the fields of that type."""

    model_config = ConfigDict(extra="allow")

    type: str

    @property
    def data(self) -> dict[str, Any]:
        return self.model_dump()


class Stats(Counts):
    """What a user's memory (or, for an admin, every user's) holds."""


# --- the service --------------------------------------------------------------------------------


class Health(Result):
    status: str


class Readiness(Result):
    ready: bool
    neo4j: bool = False
    schema_: bool = Field(False, alias="schema")
    model: bool = False

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    @property
    def checks(self) -> dict[str, bool]:
        return {"neo4j": self.neo4j, "schema": self.schema_, "model": self.model}


class ErrorDetail(BaseModel):
    code: str = Field(description="e.g. unknown_user, not_found, invalid_request")
    message: str = Field(description="What went wrong and what to do")


class ErrorBody(BaseModel):
    """Every failure of the HTTP API."""

    error: ErrorDetail
