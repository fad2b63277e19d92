"""The currency prompt: how a new fact relates to the facts already in memory that might compete
with it. The model only names the relation; ordering, intervals and statuses stay in code."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

SCHEMA_NAME = "fact_relations"
RELATIONS = ("supersedes", "updates", "contradicts", "none")

SYSTEM_PROMPT = """\
You maintain a personal memory. For each NEW fact you get candidate facts already known about \
the same person (same topic, same entity, or similar wording). For every (new, candidate) pair \
say how they relate:
- supersedes: both cannot hold at once and one replaced the other over time (moved city, new \
job, new favourite, changed diet, plan changed).
- updates: the same quantity or state changed or grew without the old one having been wrong \
(a count went from two to three, a total was extended).
- contradicts: they conflict and no change over time explains it (a correction or retraction, \
or two different claims about the same moment).
- none: both can hold together, or they are about different things.
Judge only from the texts and dates given. Which one is newer is decided from the dates by the \
caller: do not reason about direction. Answer every listed pair exactly once."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"relations": {"type": "array", "items": {
        "type": "object",
        "properties": {
            "new": {"type": "string"},
            "candidate": {"type": "string"},
            "relation": {"type": "string", "enum": list(RELATIONS)},
        },
        "required": ["new", "candidate", "relation"],
        "additionalProperties": False,
    }}},
    "required": ["relations"],
    "additionalProperties": False,
}


def describe(fact: dict[str, Any]) -> dict[str, Any]:
    """What the model sees of a fact: its sentence, slot, modality and dates."""
    out = {"text": fact["text"], "predicate": fact["predicate"], "value": fact.get("value"),
           "modality": fact["modality"], "said_on": fact["mentioned_at"].date().isoformat()}
    if fact.get("occurred_start") is not None:
        out["happened_on"] = fact["occurred_start"].date().isoformat()
    return out


def build_messages(items: Sequence[tuple[str, dict[str, Any], list[tuple[str, dict[str, Any]]]]]
                   ) -> list[dict[str, Any]]:
    """`items` are (new alias, new fact, [(candidate alias, candidate fact), ...])."""
    listed = [{"id": alias, **describe(fact),
               "candidates": [{"id": c_alias, **describe(c)} for c_alias, c in cands]}
              for alias, fact, cands in items]
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": "New facts with their candidates (JSON):\n"
             + json.dumps(listed, ensure_ascii=False)}]


def parse_relations(obj: Any, pairs: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """{(new alias, candidate alias): relation} for the offered pairs; raises ValueError on a
    reply that is not shaped as asked. Pairs the model did not offer are ignored; pairs it left
    out count as "none"."""
    if not isinstance(obj, dict) or not isinstance(obj.get("relations"), list):
        raise ValueError('expected an object {"relations": [...]}')
    out: dict[tuple[str, str], str] = {}
    for item in obj["relations"]:
        if not isinstance(item, dict):
            raise ValueError("each relation must be an object")
        relation = str(item.get("relation", "")).strip().lower()
        if relation not in RELATIONS:
            raise ValueError(f"relation {item.get('relation')!r} is not one of {RELATIONS}")
        pair = (str(item.get("new", "")), str(item.get("candidate", "")))
        if pair in pairs:
            out[pair] = relation
    return out
