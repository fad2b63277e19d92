"""The fact-extraction prompt: system text, JSON schemas, message builders and reply validators."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from .. import predicates as registry
from ..models import FactCandidate, RoleRef

log = logging.getLogger(__name__)

SCHEMA_NAME = "fact_events"
BATCH_SCHEMA_NAME = "fact_events_batch"

KINDS = ("preference", "attribute", "event", "plan", "relationship", "possession", "opinion",
         "recommendation")
MODALITIES = ("asserted", "negated", "hypothetical", "planned", "reported")
ENTITY_TYPES = ("person", "place", "organization", "product", "pet", "food", "activity", "other")

SYSTEM_PROMPT = """\
You extract durable facts for a personal memory from ONE piece (a sentence) of a chat message.
Return JSON: {"facts": [...]}; return {"facts": []} when the piece states nothing worth \
remembering (greetings, questions without facts, filler, generic knowledge).

Each fact is a FactEvent with these fields:
- kind: one of preference | attribute | event | plan | relationship | possession | opinion | \
recommendation.
- predicate: one of the registry's predicates listed below, nothing else. A family takes its \
key after the colon (does:running, owns_count:cat, count:marathon, knows:sister) or after \
favorite_ (favorite_restaurant).
- value: the slot's value as short text (a city, an employer, a count like "2", a dish), or null.
- subject: "user" when the fact is about the speaker of the piece; otherwise the name of the \
person it is about (e.g. "Sarah", "my sister" -> "sister"). In an assistant message, use \
"assistant" for the assistant's own suggestions.
- modality: asserted (stated as true) | negated (stated as not true / no longer true) | \
hypothetical (maybe, wishes, conditions) | planned (intended or scheduled for the future) | \
reported (someone else said it).
- text: one readable sentence stating the fact in the third person, e.g. "The user lives in Denver."
- support: the exact words of the piece the fact stands on, copied character for character \
(same spelling, case and punctuation). Never paraphrase, translate, fix typos or join words that \
are not contiguous in the piece. Keep it short: the clause that carries the fact.
- time_text: the temporal phrase of the piece that dates the fact, copied verbatim \
(e.g. "last Tuesday", "two months ago", "in March 2023"), or null when there is none.
- roles: the entities the fact involves, each {"role", "name", "type"}: role is subject, object, \
location, participant, employer, recipient, or similar; name is the entity as written; type is \
one of person | place | organization | product | pet | food | activity | other. \
Do not list the speaker as a role.

Rules: one fact per claim; prefer specific predicates; facts about the user's life, tastes, \
plans, possessions, relations, history and opinions matter most. In an assistant message, \
extract only concrete recommendations or suggestions made to the user (kind recommendation) \
and concrete facts the assistant gave that the user may ask about later; never re-extract what \
the user said. Never invent facts that the piece does not state.

Predicates (name: what it holds (cardinality, value type)):
""" + "\n".join(f"- {registry.described(p.name)}" for p in registry.CANONICAL)

_ROLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "role": {"type": "string"},
        "name": {"type": "string"},
        "type": {"type": "string", "enum": list(ENTITY_TYPES)},
    },
    "required": ["role", "name", "type"],
    "additionalProperties": False,
}
FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": list(KINDS)},
        "predicate": {"type": "string", "pattern": registry.PATTERN},
        "value": {"type": ["string", "null"]},
        "subject": {"type": "string"},
        "modality": {"type": "string", "enum": list(MODALITIES)},
        "text": {"type": "string"},
        "support": {"type": "string"},
        "time_text": {"type": ["string", "null"]},
        "roles": {"type": "array", "items": _ROLE_SCHEMA},
    },
    "required": ["kind", "predicate", "value", "subject", "modality", "text", "support",
                 "time_text", "roles"],
    "additionalProperties": False,
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"facts": {"type": "array", "items": FACT_SCHEMA}},
    "required": ["facts"],
    "additionalProperties": False,
}
BATCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"pieces": {"type": "array", "items": {
        "type": "object",
        "properties": {"id": {"type": "integer"},
                       "facts": {"type": "array", "items": FACT_SCHEMA}},
        "required": ["id", "facts"],
        "additionalProperties": False,
    }}},
    "required": ["pieces"],
    "additionalProperties": False,
}
BATCH_NOTE = """
You receive several pieces at once, each with an id and its speaker role. Extract from each \
piece on its own: every support and time_text must be copied from that same piece. Return \
{"pieces": [{"id": <id>, "facts": [...]}, ...]} with one entry per piece id."""


def _speaker_line(role: str) -> str:
    if role == "assistant":
        return "Speaker: the AI assistant (subject \"assistant\" for its own suggestions)."
    return f"Speaker: {role} (the memory's owner; subject \"user\" for facts about them)."


def build_messages(text: str, role: str) -> list[dict[str, Any]]:
    """The chat messages asking for the facts of one piece."""
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"{_speaker_line(role)}\nPiece:\n{text}"}]


def build_batch_messages(pieces: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """The chat messages asking for the facts of several pieces, identified by position."""
    listed = [{"id": i, "role": role, "text": text} for i, (text, role) in enumerate(pieces)]
    return [{"role": "system", "content": SYSTEM_PROMPT + "\n" + BATCH_NOTE},
            {"role": "user", "content": "Pieces (JSON):\n" + json.dumps(listed,
                                                                         ensure_ascii=False)}]


# --- validation ---------------------------------------------------------------------------------

_QUOTES = {"'": "'’‘`", '"': '"“”'}
_PREDICATE_JUNK = re.compile(r"[^a-z0-9_]+")


def _normalise_predicate(raw: str) -> str:
    head, _, qualifier = raw.strip().lower().partition(":")
    head = _PREDICATE_JUNK.sub("_", head).strip("_")
    qualifier = _PREDICATE_JUNK.sub("_", qualifier).strip("_")
    return f"{head}:{qualifier}" if head and qualifier else head


def snap_to_text(span: str, text: str) -> str | None:
    """`span` as it literally occurs in `text`: itself, or the one place that differs only in case,
    quote style or spacing; None when there is no such place (never an invented span)."""
    if span in text:
        return span
    core = span.strip().strip("\"'“”‘’")
    if not core:
        return None
    if core in text:
        return core
    pattern = ""
    for ch in core:
        if ch.isspace():
            if not pattern.endswith(r"\s+"):
                pattern += r"\s+"
        elif ch in "'’‘`":
            pattern += "[" + re.escape(_QUOTES["'"]) + "]"
        elif ch in '"“”':
            pattern += "[" + re.escape(_QUOTES['"']) + "]"
        else:
            pattern += re.escape(ch)
    found = [m.group(0) for m in re.finditer(pattern, text, re.IGNORECASE)]
    return found[0] if len(set(found)) == 1 else None


def _optional_str(item: dict[str, Any], key: str) -> tuple[bool, str | None]:
    """(ok, value) for a field that may be a string, a number or null."""
    value = item.get(key)
    if value is None:
        return True, None
    if isinstance(value, bool):
        return False, None
    if isinstance(value, int | float):
        return True, str(value)
    if isinstance(value, str):
        return True, value.strip() or None
    return False, None


def _roles(raw: Any) -> list[RoleRef] | None:
    if raw is None:
        return []
    if not isinstance(raw, list):
        return None
    roles = []
    for entry in raw:
        if not isinstance(entry, dict):
            continue
        role, name, type_ = entry.get("role"), entry.get("name"), entry.get("type", "other")
        if not isinstance(role, str) or not isinstance(name, str) or not name.strip():
            continue
        type_ = type_.strip().lower() if isinstance(type_, str) else "other"
        roles.append(RoleRef(role=role.strip().lower() or "object", name=name.strip(),
                             type=type_ if type_ in ENTITY_TYPES else "other"))
    return roles


def parse_candidate(item: Any, text: str) -> FactCandidate | None:
    """One FactCandidate from one reply item, or None when the item is malformed."""
    if not isinstance(item, dict):
        return None
    kind, modality = item.get("kind"), item.get("modality", "asserted")
    predicate, support = item.get("predicate"), item.get("support")
    subject, readable = item.get("subject", "user"), item.get("text")
    if not isinstance(kind, str) or kind.strip().lower() not in KINDS:
        return None
    modality = "asserted" if modality is None else modality
    if not isinstance(modality, str) or modality.strip().lower() not in MODALITIES:
        return None
    if not isinstance(predicate, str) or not _normalise_predicate(predicate):
        return None
    entry = registry.lookup(_normalise_predicate(predicate))
    if entry is None:  # not a registry predicate: currency and search would not know it
        return None
    if not isinstance(support, str) or not support.strip():
        return None
    if subject is None:
        subject = "user"
    if not isinstance(subject, str) or (readable is not None and not isinstance(readable, str)):
        return None
    ok_value, value = _optional_str(item, "value")
    ok_time, time_text = _optional_str(item, "time_text")
    roles = _roles(item.get("roles"))
    if not ok_value or not ok_time or roles is None:
        return None
    # A support that is not in the piece is kept as given: ingest's provenance check rejects it.
    support = snap_to_text(support, text) or support
    # A time phrase must be the piece's own words, or temporal resolution would date a guess.
    time_text = snap_to_text(time_text, text) if time_text else None
    return FactCandidate(
        kind=entry.kind, predicate=_normalise_predicate(predicate),
        text=(readable or "").strip() or support, support=support,
        modality=modality.strip().lower(), subject=subject.strip() or "user", value=value,
        roles=roles, time_text=time_text)


def _facts_list(obj: Any) -> list[Any]:
    if isinstance(obj, list):  # a bare array from a server that could not enforce the schema
        return obj
    if isinstance(obj, dict) and isinstance(obj.get("facts"), list):
        return obj["facts"]
    raise ValueError('expected a JSON object of the form {"facts": [...]}')


def parse_candidates(obj: Any, text: str) -> list[FactCandidate]:
    """The well-formed candidates of a reply; malformed items are dropped, a malformed reply
    raises ValueError (so the client asks for a repair)."""
    items = _facts_list(obj)
    out: list[FactCandidate] = []
    seen: set[tuple[Any, ...]] = set()
    for item in items:
        cand = parse_candidate(item, text)
        if cand is None:
            log.debug("dropped malformed fact item: %r", item)
            continue
        key = (cand.kind, cand.predicate, cand.value, cand.subject, cand.modality, cand.support)
        if key not in seen:
            seen.add(key)
            out.append(cand)
    return out


def parse_batch(obj: Any, texts: Sequence[str]) -> list[list[FactCandidate]]:
    """Per-piece candidates of a batch reply, in the order of `texts` (missing pieces: none)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("pieces"), list):
        raise ValueError('expected a JSON object of the form {"pieces": [{"id": 0, "facts": '
                         '[...]}, ...]}')
    out: list[list[FactCandidate]] = [[] for _ in texts]
    for entry in obj["pieces"]:
        if not isinstance(entry, dict):
            continue
        idx = entry.get("id")
        if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx < len(texts):
            continue
        try:
            out[idx].extend(parse_candidates(entry, texts[idx]))
        except ValueError:
            continue
    return out
