"""Currency scenario files: their format, and loading a directory of them, checked whole.

A scenario set is a directory of `*.json` files, one per category, read in name order:

    {"category": "counts",
     "scenarios": [
       {"id": "count-fourth-bike",
        "sessions": [{"date": "2024-01-01", "turns": ["I have three bikes."]},
                     {"date": "2024-04-01", "turns": ["We got a fourth bike last week."]}],
        "holds": [{"predicate": "owns_count:bike", "value": "4"}],
        "stale": [{"predicate": "owns_count:bike", "value": "3"}],
        "edges": [{"type": "UPDATES", "predicate": "owns_count:bike"}],
        "asks": [{"question": "How many bikes do I have now?", "top": "fourth bike"}]}]}

Each session is the user's turns on a date (`2024-03-05` is noon UTC, or `2024-03-05T08:30`); an
assistant acknowledgement follows every turn. The checks (see `docs/currency_scenarios.md`):
`holds`, `stale`, `as_of`, `known_at`, `unknown_at`, `events`, `edges`, `asks`; `order` ingests
the sessions in that order, one call each; `other_user` is a second user saying similar words;
`xfail` gives the reason a scenario is known to fail. Unknown keys are errors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.models import SessionRecord, Transcript, TurnRecord

ACK = ("Got it.", "Thanks for telling me.", "Noted.", "Okay, I'll keep that in mind.")
MODALITIES = ("asserted", "negated", "hypothetical", "planned", "reported")
EDGE_TYPES = ("SUPERSEDES", "UPDATES", "CONTRADICTS")

# Each list of checks: its required keys and its optional ones.
RECORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "holds": (("predicate", "value"), ("modality",)),
    "stale": (("predicate", "value"), ()),
    "as_of": (("date", "predicate", "value"), ()),
    "known_at": (("date", "predicate", "value"), ()),
    "unknown_at": (("date", "predicate", "value"), ()),
    "events": (("words", "day"), ()),
    "edges": (("type", "predicate"), ()),
    "asks": (("question", "top"), ("question_date", "as_of", "not_above")),
}
SCENARIO_KEYS = {"id", "sessions", "order", "other_user", "xfail", *RECORDS}
OTHER_KEYS = {"sessions", "holds", "absent"}


def when(text: str) -> datetime:
    """'2024-03-05' (noon UTC) or '2024-03-05T08:30' (UTC unless it says otherwise)."""
    value = datetime.fromisoformat(text if "T" in text else text + "T12:00")
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass
class Scenario:
    id: str
    category: str
    sessions: list[tuple[datetime, list[str]]]
    checks: dict[str, list[dict[str, Any]]]  # the RECORDS lists, each possibly empty
    order: list[int] | None = None
    other: list[tuple[datetime, list[str]]] | None = None
    other_holds: list[dict[str, Any]] = field(default_factory=list)
    other_absent: list[str] = field(default_factory=list)
    xfail: str | None = None

    def transcript(self, user_id: str, sessions: list[tuple[datetime, list[str]]] | None = None
                   ) -> Transcript:
        out = []
        for i, (day, texts) in enumerate(sessions or self.sessions):
            turns = []
            for k, text in enumerate(texts):
                turns.append(TurnRecord("user", text, source_id=f"s{i}_u{k}"))
                turns.append(TurnRecord("assistant", ACK[(i + k) % len(ACK)],
                                        source_id=f"s{i}_a{k}"))
            out.append(SessionRecord(f"s{i}", day, turns))
        return Transcript(user_id, out)

    def texts(self) -> dict[str, str]:
        """The user's turns by source id."""
        return {f"s{i}_u{k}": text for i, (_d, texts) in enumerate(self.sessions)
                for k, text in enumerate(texts)}


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Every scenario of the directory (or of one file); any malformed file or record is one
    InputError naming it, raised before anything is returned."""
    root = Path(path)
    if not root.exists():
        raise InputError(f"{root}: no such scenario directory or file")
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    if not files:
        raise InputError(f"{root}: no *.json scenario files in it")
    out: list[Scenario] = []
    seen: dict[str, Path] = {}
    for f in files:
        for s in _load_file(f):
            if s.id in seen:
                raise InputError(f"{f}: scenario id {s.id!r} is also used in {seen[s.id]}")
            seen[s.id] = f
            out.append(s)
    return out


def _load_file(f: Path) -> list[Scenario]:
    try:
        doc = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{f}: not a readable JSON file ({error})") from None
    try:
        if not isinstance(doc, dict) or set(doc) != {"category", "scenarios"}:
            raise ValueError('expected an object with exactly "category" and "scenarios"')
        category = _text(doc["category"], "category")
        if not isinstance(doc["scenarios"], list) or not doc["scenarios"]:
            raise ValueError('"scenarios" must be a non-empty list')
    except ValueError as error:
        raise InputError(f"{f}: {error}") from None
    out = []
    for i, raw in enumerate(doc["scenarios"]):
        name = raw.get("id") if isinstance(raw, dict) else None
        try:
            out.append(_scenario(raw, category))
        except (ValueError, TypeError) as error:
            label = f"scenario {name!r}" if isinstance(name, str) else f"scenario {i}"
            raise InputError(f"{f}: {label}: {error}") from None
    return out


def _scenario(raw: Any, category: str) -> Scenario:
    if not isinstance(raw, dict):
        raise ValueError("not an object")
    _keys(raw, {"id", "sessions"}, SCENARIO_KEYS, "")
    sessions = _sessions(raw["sessions"], "sessions")
    checks = {name: _records(raw.get(name, []), name, *keys) for name, keys in RECORDS.items()}
    order = raw.get("order")
    if order is not None and sorted(order) != list(range(len(sessions))):
        raise ValueError(f"order {order} is not an ordering of the {len(sessions)} sessions")
    other = raw.get("other_user")
    if other is not None:
        _keys(other, {"sessions"}, OTHER_KEYS, "other_user: ")
    if not any(checks.values()) and not other:
        raise ValueError("has no checks")
    xfail = raw.get("xfail")
    return Scenario(
        id=_text(raw["id"], "id"), category=category, sessions=sessions, checks=checks,
        order=order, xfail=_text(xfail, "xfail") if xfail is not None else None,
        other=_sessions(other["sessions"], "other_user.sessions") if other else None,
        other_holds=_records(other.get("holds", []), "other_user.holds",
                             *RECORDS["holds"]) if other else [],
        other_absent=[_text(w, "other_user.absent") for w in _list(
            other.get("absent", []), "other_user.absent")] if other else [])


def _keys(raw: Any, required: set[str], allowed: set[str], where: str) -> None:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}expected an object")
    missing, unknown = required - set(raw), set(raw) - allowed
    if missing:
        raise ValueError(f"{where}missing {', '.join(sorted(missing))}")
    if unknown:
        raise ValueError(f"{where}unknown key {', '.join(sorted(unknown))} "
                         f"(allowed: {', '.join(sorted(allowed))})")


def _sessions(raw: Any, where: str) -> list[tuple[datetime, list[str]]]:
    out = []
    for i, s in enumerate(_list(raw, where, non_empty=True)):
        _keys(s, {"date", "turns"}, {"date", "turns"}, f"{where}[{i}]: ")
        turns = [_text(t, f"{where}[{i}].turns") for t in
                 _list(s["turns"], f"{where}[{i}].turns", non_empty=True)]
        out.append((_date(s["date"], f"{where}[{i}].date"), turns))
    return out


def _records(raw: Any, where: str, required: tuple[str, ...],
             optional: tuple[str, ...]) -> list[dict[str, Any]]:
    out = []
    for i, r in enumerate(_list(raw, where)):
        at = f"{where}[{i}]"
        _keys(r, set(required), {*required, *optional}, f"{at}: ")
        for key, value in r.items():
            if key == "words":
                [_text(w, f"{at}.words") for w in _list(value, f"{at}.words", non_empty=True)]
            else:
                _text(value, f"{at}.{key}")
            if key in ("date", "day", "question_date", "as_of"):
                _date(value, f"{at}.{key}")
        if r.get("modality", "asserted") not in MODALITIES:
            raise ValueError(f"{at}.modality {r['modality']!r} is not one of {MODALITIES}")
        if where == "edges" and r["type"] not in EDGE_TYPES:
            raise ValueError(f"{at}.type {r['type']!r} is not one of {EDGE_TYPES}")
        out.append(r)
    return out


def _list(raw: Any, where: str, non_empty: bool = False) -> list[Any]:
    if not isinstance(raw, list) or (non_empty and not raw):
        raise ValueError(f"{where} must be a {'non-empty ' if non_empty else ''}list")
    return raw


def _text(raw: Any, where: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"{where} must be a non-empty string")
    return raw


def _date(raw: str, where: str) -> datetime:
    try:
        return when(raw)
    except ValueError:
        raise ValueError(f"{where} {raw!r} is not a date (2024-03-05 or 2024-03-05T08:30)"
                         ) from None
