"""The labelled extraction corpus: its format, its validator and its fixed held-out split.

One JSON object a line, in `graphmem/extract/data/corpus/<author>-<batch>.jsonl`; every message
written for this purpose (docs/corpus.md says how). A file is a batch written at one sitting by
one author; the held-out split is a fixed list of batches (`data/corpus/HELDOUT`), so no batch
straddles the split. Value, key, subject and time spans are verbatim words of the message; their
character offsets are computed here (`offsets`), first occurrence unless `*_at` says which.

    python -m graphmem.extract.corpus check [FILE ...]   # validate; prints counts per predicate
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..predicates import CANONICAL, Change

CORPUS_DIR = Path(__file__).parent / "data" / "corpus"
HELDOUT_FILE = CORPUS_DIR / "HELDOUT"
SUBJECTS = frozenset({"user", "partner", "child", "parent", "sibling", "friend", "colleague",
                      "relative", "other"})
# Predicates the corpus labels (user messages): all but the assistant's recommendations.
CORPUS_PREDICATES = {p.name: p for p in CANONICAL if p.name != "recommended"}
_FACT_FIELDS = frozenset({"predicate", "value", "value_at", "key", "key_at", "subject",
                          "subject_text", "subject_at", "change", "time", "time_at"})


class CorpusError(ValueError):
    """A record that breaks the format: the message names the file, line and field."""


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class LabelledFact:
    predicate: str
    value: Span
    subject: str
    change: Change
    key: Span | None = None
    subject_span: Span | None = None
    time: Span | None = None


@dataclass(frozen=True)
class Message:
    id: str
    batch: str
    text: str
    facts: tuple[LabelledFact, ...] = field(default_factory=tuple)

    @property
    def lookalike(self) -> bool:
        return not self.facts


def _span(text: str, words: object, at: object, where: str) -> Span:
    if not isinstance(words, str) or not words.strip():
        raise CorpusError(f"{where}: must be non-empty words of the message")
    if words != words.strip():
        raise CorpusError(f"{where}: {words!r} has spaces at its ends")
    nth = 0 if at is None else at
    if not isinstance(nth, int) or isinstance(nth, bool) or nth < 0:
        raise CorpusError(f"{where}_at: must be a whole number ≥ 0")
    start = -1
    for _ in range(nth + 1):
        start = text.find(words, start + 1)
        if start < 0:
            raise CorpusError(f"{where}: {words!r} does not occur in the message"
                              + (f" {nth + 1} times" if nth else ""))
    return Span(start, start + len(words), words)


def _fact(text: str, raw: object, where: str) -> LabelledFact:
    if not isinstance(raw, dict):
        raise CorpusError(f"{where}: a fact must be an object")
    extra = set(raw) - _FACT_FIELDS
    if extra:
        raise CorpusError(f"{where}: unknown field(s) {sorted(extra)}")
    name = raw.get("predicate")
    pred = CORPUS_PREDICATES.get(name)  # type: ignore[arg-type]
    if pred is None:
        raise CorpusError(f"{where}.predicate: {name!r} is not a registry predicate")
    try:
        change = Change(str(raw.get("change")))
    except ValueError:
        raise CorpusError(f"{where}.change: {raw.get('change')!r} is not one of "
                          f"{[c.value for c in Change]}") from None
    if change not in pred.changes:
        raise CorpusError(f"{where}.change: {name} does not take {change.value!r}")
    subject = raw.get("subject", "user")
    if subject not in SUBJECTS:
        raise CorpusError(f"{where}.subject: {subject!r} is not one of {sorted(SUBJECTS)}")
    key = None
    if pred.keyed and pred.name != "does":
        key = _span(text, raw.get("key"), raw.get("key_at"), f"{where}.key")
    elif raw.get("key") is not None:
        raise CorpusError(f"{where}.key: {name} takes no key")
    subj = (_span(text, raw["subject_text"], raw.get("subject_at"), f"{where}.subject_text")
            if raw.get("subject_text") is not None else None)
    if subj is not None and subject == "user":
        raise CorpusError(f"{where}.subject_text: the user is never named by a span")
    time = (_span(text, raw["time"], raw.get("time_at"), f"{where}.time")
            if raw.get("time") is not None else None)
    value = _span(text, raw.get("value"), raw.get("value_at"), f"{where}.value")
    return LabelledFact(pred.name, value, subject, change, key, subj, time)


def parse_line(line: str, batch: str, where: str) -> Message:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as err:
        raise CorpusError(f"{where}: not JSON ({err.msg})") from None
    if not isinstance(raw, dict) or set(raw) - {"id", "text", "facts"}:
        raise CorpusError(f"{where}: a record has exactly id, text and facts")
    mid, text, facts = raw.get("id"), raw.get("text"), raw.get("facts")
    if not isinstance(mid, str) or not mid:
        raise CorpusError(f"{where}.id: must be a non-empty string")
    if not isinstance(text, str) or not text.strip() or "\x00" in text:
        raise CorpusError(f"{where}.text: must be a non-empty message")
    if not isinstance(facts, list):
        raise CorpusError(f"{where}.facts: must be a list ([] for a look-alike)")
    parsed = tuple(_fact(text, f, f"{where}.facts[{i}]") for i, f in enumerate(facts))
    return Message(mid, batch, text, parsed)


def read_file(path: Path, errors: list[str] | None = None) -> list[Message]:
    """The file's messages; a bad record raises CorpusError, or with `errors` is listed there and
    skipped (the checker reports them all)."""
    out: list[Message] = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(parse_line(line, path.stem, f"{path.name}:{no}"))
        except CorpusError as err:
            if errors is None:
                raise
            errors.append(str(err))
    return out


def corpus_files(root: Path = CORPUS_DIR) -> list[Path]:
    return sorted(root.glob("*.jsonl"))


def heldout_batches(root: Path = CORPUS_DIR) -> frozenset[str]:
    path = root / "HELDOUT"
    if not path.exists():
        return frozenset()
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w for line in lines for w in line.split("#", 1)[0].split())


def load(root: Path = CORPUS_DIR) -> list[Message]:
    """Every message of the corpus; raises CorpusError on the first bad record or a repeated id."""
    seen: dict[str, str] = {}
    out: list[Message] = []
    for path in corpus_files(root):
        for msg in read_file(path):
            if msg.id in seen:
                raise CorpusError(f"{path.name}: id {msg.id!r} also in {seen[msg.id]}")
            seen[msg.id] = path.name
            out.append(msg)
    return out


def split(messages: Iterable[Message], heldout: frozenset[str]) -> tuple[list[Message],
                                                                         list[Message]]:
    """(train, held-out) by batch: a batch is wholly on one side."""
    train: list[Message] = []
    test: list[Message] = []
    for m in messages:
        (test if m.batch in heldout else train).append(m)
    return train, test


def dev_batches(train: Iterable[Message]) -> frozenset[str]:
    """The dev slice carved from the training split for tuning (`model.train --dev`) and for
    choices between extractors (`compare --split dev`): every fifth training batch."""
    return frozenset(sorted({m.batch for m in train})[2::5])


def summary(messages: list[Message]) -> Iterator[str]:
    preds: Counter[str] = Counter()
    changes: Counter[str] = Counter()
    subjects: Counter[str] = Counter()
    for m in messages:
        for f in m.facts:
            preds[f.predicate] += 1
            changes[f.change.value] += 1
            subjects[f.subject] += 1
    looks = sum(m.lookalike for m in messages)
    yield f"{len(messages)} messages, {looks} look-alikes ({looks / max(1, len(messages)):.0%})"
    yield "predicates: " + ", ".join(f"{p} {n}" for p, n in preds.most_common())
    missing = sorted(set(CORPUS_PREDICATES) - set(preds))
    if missing:
        yield "no example yet: " + ", ".join(missing)
    yield "changes: " + ", ".join(f"{c} {n}" for c, n in changes.most_common())
    yield "subjects: " + ", ".join(f"{s} {n}" for s, n in subjects.most_common())


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "check":
        print("usage: python -m graphmem.extract.corpus check [FILE ...]", file=sys.stderr)
        return 2
    files = [Path(a) for a in argv[1:]] or corpus_files()
    messages: list[Message] = []
    errors: list[str] = []
    for path in files:
        try:
            messages += read_file(path, errors)
        except OSError as exc:
            errors.append(str(exc))
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    for line in summary(messages):
        print(line)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
