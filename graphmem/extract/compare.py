"""Every extractor scored alike on the corpus: the rules, the model and both, per predicate.

    python -m graphmem.extract.compare [--split held-out|train|dev] [--weights DIR]
                                       [--extractors offline,model,hybrid]

`--split dev` is the training split's dev slice (`corpus.dev_batches`), to be read with
weights trained without it (`python -m graphmem.extract.model.train --dev --dev-out DIR`, then
`--weights DIR`): choices between the extractors are made there, never on the held-out split.

Each message is cut into pieces as ingest cuts a turn (`graphmem.segment`), and each extractor
reads the pieces as in ingest (`prepare` for the session's pieces; the rules see the words before
a piece). A FactCandidate is scored as the fact its stored predicate is a case of
(`predicates.canonical_of`: "lived_in" is `lives_in` done, "spouse" is `partner`), with the value's
offsets found in its piece. What the registry brings from an event read (`BROUGHT_BY`: "bought a
kayak" → owns kayak; "another bike" → owns_count:bike +1) is not scored: the corpus labels the
event alone. Scores are `model.scoring.score`'s: predicate found per message (P / R /
F1) and value-span exact match. Change and subject are not compared here: a FactCandidate keeps a
modality, not the corpus's change, and a name or role, not its subject class. What training prints
(`model/weights/scores.json`) is the tagger's own reading of the same pieces
(`ModelTagger.tag_messages`), with change and subject compared; here each extractor's facts are.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .. import predicates as registry
from ..models import FactCandidate
from ..segment import segment
from .base import extract_in_turn
from .corpus import Message, Span, dev_batches, heldout_batches, load, split
from .learned import HybridExtractor, ModelExtractor
from .model.infer import TaggedFact
from .model.scoring import score
from .offline import OfflineExtractor

EXTRACTORS = ("offline", "model", "hybrid")
CONTEXT_CHARS = 300  # as ingest: the words before a piece an extractor may read


def _find(text: str, words: str | None, start: int) -> Span | None:
    """The first occurrence of `words` in `text` at or after `start` (case kept, else ignored)."""
    if not words:
        return None
    at = text.find(words, start)
    if at < 0:
        at = text.lower().find(words.lower(), start)
    return Span(at, at + len(words), text[at:at + len(words)]) if at >= 0 else None


def _change(cand: FactCandidate, entry: registry.Predicate, canonical: str) -> str:
    if cand.modality == "planned":
        return "planned"
    if cand.modality == "negated" or entry.ends_held:
        return "stops"
    target = registry.BY_NAME[canonical]
    if entry.cardinality is registry.Cardinality.EVENT or (
            target.cardinality is registry.Cardinality.EVENT):
        return "done"
    return "ongoing"


def as_scored(cand: FactCandidate, text: str, start: int) -> TaggedFact | None:
    """The fact `cand` (read from the piece of `text` at `start`) is scored as, in the model's
    terms; None when it is no corpus fact (a hypothetical, a predicate no canonical one covers)
    or its value is not in the piece."""
    canonical = registry.canonical_of(cand.predicate)
    entry = registry.lookup(cand.predicate)
    if canonical is None or entry is None or cand.modality == "hypothetical":
        return None
    support = _find(text, cand.support, start)
    base = support.start if support else start
    value = _find(text, cand.value, base) or _find(text, cand.value, start) or support
    if value is None:
        return None
    return TaggedFact(canonical, value, _change(cand, entry, canonical),
                      "user" if cand.subject == "user" else "other",
                      time=_find(text, cand.time_text, start))


def build(name: str, model: ModelExtractor | None = None) -> Any:
    """An extractor by name (the names of `graphmem ingest --extractor`, less the LLM)."""
    if name == "offline":
        return OfflineExtractor()
    model = model or ModelExtractor()
    return model if name == "model" else HybridExtractor(OfflineExtractor(), model)


def predict(extractor: Any, messages: Sequence[Message]) -> list[list[TaggedFact]]:
    """Each message's facts as `extractor` reads it, piece by piece as in ingest."""
    out = []
    for msg in messages:
        spans = segment(msg.text)
        prepare = getattr(extractor, "prepare", None)
        if prepare is not None:
            prepare([(msg.text, "user", spans)])
        facts: list[TaggedFact] = []
        for s, e in spans:
            before = msg.text[max(0, s - CONTEXT_CHARS):s]
            for cand in extract_in_turn(extractor, msg.text[s:e], "user", before):
                if cand.extracted_by == registry.BROUGHT_BY:
                    continue  # the registry's, from an event read: the corpus labels the event
                fact = as_scored(cand, msg.text, s)
                if fact is not None:
                    facts.append(fact)
        out.append(facts)
    return out


def compare(messages: Sequence[Message], names: Sequence[str],
            weights: str | None = None) -> dict[str, dict]:
    """`score` of each named extractor on `messages` (the model's `weights`: a weights folder,
    by default the shipped one)."""
    model = None
    if set(names) & {"model", "hybrid"}:
        from .model.infer import ModelTagger  # deferred: onnxruntime loads the weights

        model = ModelExtractor(ModelTagger(weights) if weights else None)
    return {name: score(messages, predict(build(name, model), messages)) for name in names}


def table(scores: dict[str, dict]) -> str:
    """Per predicate: gold facts, then F1 and value EM of each extractor; the micro line last."""
    names = list(scores)
    first = scores[names[0]]
    preds = sorted({p for s in scores.values() for p in s["per_predicate"]})

    def f(x: float | None) -> str:
        return "   -" if x is None else f"{x:.2f}"

    head = f"{'predicate':<16}{'gold':>5}" + "".join(f"{n[:7] + ' F1':>11}{'valEM':>7}"
                                                     for n in names)
    lines = [head, "-" * len(head)]

    def row(label: str, get: Any) -> str:
        gold = max((get(s).get("gold_facts", 0) for s in scores.values()), default=0)
        cells = "".join(f"{f(get(s).get('f1')):>11}{f(get(s).get('value_em')):>7}"
                        for s in scores.values())
        return f"{label:<16}{gold:>5}{cells}"

    for p in preds:
        lines.append(row(p, lambda s, p=p: s["per_predicate"].get(p, {})))
    lines.append("-" * len(head))
    lines.append(row("MICRO", lambda s: s["micro"]))
    lines.append("precision / recall: " + "; ".join(
        f"{n} {s['micro']['precision']:.3f} / {s['micro']['recall']:.3f}"
        for n, s in scores.items()))
    lines.append("time EM (matched facts with a gold time): " + "; ".join(
        f"{n} {f(s['micro'].get('time_em'))}" for n, s in scores.items()))
    lines.append("look-alikes with no fact: " + "; ".join(
        f"{n} {s['lookalike_acc']:.3f}" for n, s in scores.items())
        + f" ({first['lookalikes']} of {first['messages']} messages)")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m graphmem.extract.compare",
                                 description="Score the rules, the model and both on the corpus.")
    ap.add_argument("--split", choices=("held-out", "train", "dev"), default="held-out")
    ap.add_argument("--weights", default=None, help="the model's weights folder "
                    "(default: the shipped weights)")
    ap.add_argument("--extractors", default=",".join(EXTRACTORS),
                    help="comma-separated, of: " + ", ".join(EXTRACTORS))
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    unknown = [n for n in names if n not in EXTRACTORS]
    if unknown or not names:
        print(f"error: unknown extractor {', '.join(unknown) or '(none)'}; use "
              f"{', '.join(EXTRACTORS)}", file=sys.stderr)
        return 2
    train, held = split(load(), heldout_batches())
    messages = held if args.split == "held-out" else train
    if args.split == "dev":
        messages = split(train, dev_batches(train))[1]
    print(f"{args.split} split: {len(messages)} messages")
    print(table(compare(messages, names, args.weights)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
