"""Currency decided by an LLM: for facts the slot rules cannot compare (different predicates,
free-form predicates from the LLM extractor), the model names the relation between a new fact and
its candidate neighbours; which fact is newer, the edge direction and the interval it closes are
then fixed here, deterministically, from the facts' dates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .currency import COMPETING_MODALITIES, Link
from .llm.client import LLMClient
from .predicates import LLM_MADE
from .prompts import relate_facts as prompt

# Facts that can be replaced: stated ones, and plans (a plan can change).
RELATABLE_MODALITIES = COMPETING_MODALITIES | {"planned"}
EDGE_TYPE = {"supersedes": "SUPERSEDES", "updates": "UPDATES", "contradicts": "CONTRADICTS"}


@dataclass(frozen=True)
class Proposal:
    new_id: str
    candidate_id: str
    relation: str  # supersedes | updates | contradicts | none


def _effective(f: dict[str, Any]) -> datetime:
    return f.get("occurred_start") or f["mentioned_at"]


def _mention_key(f: dict[str, Any]) -> tuple[Any, ...]:
    return (f["mentioned_at"], f.get("turn_idx") or 0, f.get("span_start") or 0, f["id"])


def link_for(relation: str, a: dict[str, Any], b: dict[str, Any]) -> Link | None:
    """The currency edge for a proposed relation between facts a and b, or None.

    SUPERSEDES / UPDATES run from the fact that took effect later to the earlier one and close
    the earlier one at the later one's effective time; two facts in effect from the same moment
    cannot be ordered, so they CONTRADICT. CONTRADICTS runs from the later-mentioned fact, which
    wins for "current" questions, and closes the other no earlier than it began.
    """
    kind = EDGE_TYPE.get(relation)
    if kind is None or a["id"] == b["id"]:
        return None
    if kind != "CONTRADICTS" and _effective(a) == _effective(b):
        kind = "CONTRADICTS"
    if kind == "CONTRADICTS":
        newer, older = (a, b) if _mention_key(a) > _mention_key(b) else (b, a)
        return Link(newer["id"], older["id"], kind, max(_effective(newer), _effective(older)))
    newer, older = (a, b) if (_effective(a), _mention_key(a)) > (_effective(b),
                                                                 _mention_key(b)) else (b, a)
    return Link(newer["id"], older["id"], kind, _effective(newer))


class LLMRelationJudge:
    """Asks an OpenAI-compatible model how new facts relate to their candidates, in one request
    per session (no request when no fact has a candidate)."""

    def __init__(self, client: LLMClient, max_candidates: int = 6):
        self.client = client
        self.max_candidates = max_candidates
        self.name = f"{LLM_MADE}{client.model}"

    def propose(self, items: Sequence[tuple[dict[str, Any], Sequence[dict[str, Any]]]]
                ) -> list[Proposal]:
        """`items` are (new fact, its candidate facts); returns one Proposal per offered pair."""
        shown, ids, pairs = [], {}, set()
        for n, (fact, cands) in enumerate(items, start=1):
            cands = list(cands)[:self.max_candidates]
            if not cands:
                continue
            alias = f"N{n}"
            ids[alias] = fact["id"]
            listed = []
            for m, c in enumerate(cands, start=1):
                c_alias = f"{alias}C{m}"
                ids[c_alias] = c["id"]
                pairs.add((alias, c_alias))
                listed.append((c_alias, c))
            shown.append((alias, fact, listed))
        if not shown:
            return []
        found = self.client.complete_json(
            prompt.build_messages(shown), prompt.SCHEMA_NAME, prompt.SCHEMA,
            lambda obj: prompt.parse_relations(obj, pairs))
        return [Proposal(ids[a], ids[c], found.get((a, c), "none")) for a, c in sorted(pairs)]
