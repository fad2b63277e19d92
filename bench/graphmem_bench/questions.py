"""Benchmark questions, answers and evidence ids read from the raw LongMemEval and LoCoMo files.

The transcript loaders deliberately leave the QA side out (it is not memory); this module reads it.
LongMemEval: one `LMEQuestion` per question instance, with the README's evidence rules — a correct
session has "answer" in its id and at least one user turn with `has_answer`; a correct turn is a user
turn with `has_answer: true`. Turn and session ids follow the loader's rules (graphmem.loaders.
longmemeval, the only place they are written down); blank turns are left out of the haystack as there.
LoCoMo: one `LoCoMoQuestion` per QA item, evidence dia ids cleaned (split on ";" and whitespace,
stray colons and leading zeros removed, unparseable pieces dropped and counted).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

from graphmem.loaders.common import iter_json_array
from graphmem.loaders.locomo import parse_date as locomo_date
from graphmem.loaders.longmemeval import parse_date as lme_date
from graphmem.loaders.longmemeval import turn_source_id, unique_session_id

LOCOMO_CATEGORIES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop",
                                     5: "adversarial"}
_DIA = re.compile(r"D:?0*(\d+):+0*(\d+)")
_SESSION_KEY = re.compile(r"session_(\d+)")


@dataclass
class LMEQuestion:
    question_id: str
    question_type: str
    question: str
    answer: str
    question_date: datetime
    is_abstention: bool
    answer_session_ids: list[str]  # correct sessions (README rule), haystack order
    answer_turn_ids: list[str]  # user turns with has_answer: true, "<session_id>_<k>"
    haystack_user_turns: list[tuple[str, str]] = field(default_factory=list)  # (turn id, text)
    session_ids: list[str] = field(default_factory=list)  # the haystack's sessions after dedupe

    @property
    def has_user_evidence(self) -> bool:
        return bool(self.answer_turn_ids)


@dataclass
class LoCoMoQuestion:
    sample_id: str
    index: int  # position among all QA items of the file (0-based): the key for rankings
    question: str
    answer: str
    category: int
    evidence: list[str]  # cleaned dia ids such as "D3:7", first occurrence order
    question_date: datetime | None  # the last session's date of the sample
    raw_evidence: list[str] = field(default_factory=list)

    @property
    def category_name(self) -> str:
        return LOCOMO_CATEGORIES.get(self.category, str(self.category))


def session_of_dia(dia_id: str) -> str:
    """The session part of a LoCoMo dia id ("D3:7" -> "D3")."""
    return dia_id.split(":", 1)[0]


def clean_dia_ids(raw: list[Any]) -> list[str]:
    """LoCoMo evidence ids cleaned per the README quirks; unparseable pieces are dropped."""
    cleaned: list[str] = []
    for item in raw:
        if not isinstance(item, str):
            continue
        for piece in re.split(r"[;,\s]+", item):
            match = _DIA.fullmatch(piece.strip().strip(":"))
            if match:
                dia = f"D{int(match.group(1))}:{int(match.group(2))}"
                if dia not in cleaned:
                    cleaned.append(dia)
    return cleaned


def _answer_text(value: Any) -> str:
    return "" if value is None else str(value)


def dev_half(question_id: str) -> int:
    """Which half of the questions (1 or 2) a question falls in, by a hash of its id: rules and
    settings are chosen on one half and reported on both (issue 34)."""
    return 1 + int(hashlib.sha256(question_id.encode("utf-8")).hexdigest(), 16) % 2


def longmemeval_questions(path: str | Path, limit: int | None = None) -> list[LMEQuestion]:
    """Every question instance of a LongMemEval file (gzip allowed), or the first `limit`."""
    path = Path(path)
    instances = iter_json_array(path, "LongMemEval question instances")
    return [_lme_question(inst) for inst in islice(instances, limit)]


def _lme_question(inst: dict[str, Any]) -> LMEQuestion:
    qid = str(inst["question_id"])
    seen: dict[str, list[Any]] = {}
    user_turns: list[tuple[str, str]] = []
    sessions: list[str] = []
    answer_sessions: list[str] = []
    answer_turns: list[str] = []
    for raw_sid, turns in zip(inst["haystack_session_ids"], inst["haystack_sessions"],
                              strict=True):
        sid = unique_session_id(raw_sid, turns, seen)
        if sid is None:
            continue
        sessions.append(sid)
        evidence_here = False
        for k, turn in enumerate(turns, 1):
            if turn.get("role") != "user":
                continue
            turn_id = turn_source_id(sid, k)
            content = turn.get("content") or ""
            if content.strip():
                user_turns.append((turn_id, content))
            if turn.get("has_answer") is True:
                answer_turns.append(turn_id)
                evidence_here = True
        if "answer" in sid and evidence_here:
            answer_sessions.append(sid)
    return LMEQuestion(
        question_id=qid,
        question_type=str(inst["question_type"]),
        question=str(inst["question"]),
        answer=_answer_text(inst.get("answer")),
        question_date=lme_date(str(inst["question_date"]), f"question {qid}"),
        is_abstention=qid.endswith("_abs"),
        answer_session_ids=answer_sessions,
        answer_turn_ids=answer_turns,
        haystack_user_turns=user_turns,
        session_ids=sessions,
    )


def _last_session_date(sample: dict[str, Any]) -> datetime | None:
    conversation = sample.get("conversation") or {}
    numbers = sorted(int(m.group(1)) for key, value in conversation.items()
                     if (m := _SESSION_KEY.fullmatch(key)) and value)
    for n in reversed(numbers):
        raw = conversation.get(f"session_{n}_date_time")
        if isinstance(raw, str):
            return locomo_date(raw, f"sample {sample.get('sample_id')} session_{n}_date_time")
    return None


def locomo_questions(path: str | Path) -> list[LoCoMoQuestion]:
    """Every QA item of a LoCoMo file, in file order, with cleaned evidence ids."""
    questions: list[LoCoMoQuestion] = []
    for sample in iter_json_array(Path(path), "LoCoMo samples"):
        sample_id = str(sample["sample_id"])
        date = _last_session_date(sample)
        for qa in sample.get("qa") or []:
            raw = qa.get("evidence") or []
            answer = qa.get("answer", qa.get("adversarial_answer"))
            questions.append(LoCoMoQuestion(
                sample_id=sample_id, index=len(questions), question=str(qa["question"]),
                answer=_answer_text(answer), category=int(qa["category"]),
                evidence=clean_dia_ids(raw), question_date=date,
                raw_evidence=[str(r) for r in raw]))
    return questions
