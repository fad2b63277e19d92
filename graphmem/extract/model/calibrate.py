"""How sure the tagger's facts are: precision and recall of the facts kept at or above each value
score, on two halves of the corpus's held-out batches.

A fact the tagger proposes has a score (its least sure value token's probability); the learned
extractor drops facts below `learned.MIN_SCORE`. A higher floor for the facts that decide a slot
(the rest kept as mentions) trades recall for precision; this prints the trade on one half
of the held-out batches (alternate batches in name order) with the other half beside it, and the
score at which the first half's F0.5 (precision weighted over recall) peaks. A fact counts as
right when its predicate, change and subject are the gold fact's and its value overlaps the gold
value (each gold fact matched once). The peak is `learned.SURE_SCORE`, below which a model fact
decides no slot (docs/bench/2026-12-06-sure-score-new-weights.md; a test checks they agree):

    python -m graphmem.extract.model.calibrate [--weights DIR]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from .. import corpus
from . import WEIGHTS_DIR
from .scoring import overlap

SCORES = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)


def halves(messages: Sequence[corpus.Message]) -> tuple[list[int], list[int]]:
    """Indexes of the held-out messages in the chosen-on half and the other: alternate batches
    in name order, so no batch (one author's sitting) straddles the halves."""
    batches = sorted({m.batch for m in messages})
    first = set(batches[::2])
    a = [i for i, m in enumerate(messages) if m.batch in first]
    b = [i for i, m in enumerate(messages) if m.batch not in first]
    return a, b


def table(messages: Sequence[corpus.Message], tagged: Sequence[Sequence],
          scores: Sequence[float] = SCORES) -> list[dict[str, float]]:
    """For each score: the facts kept at or above it, their precision, recall and F0.5."""
    gold_n = sum(len(m.facts) for m in messages)
    rows = []
    for at in scores:
        kept = right = 0
        for msg, facts in zip(messages, tagged, strict=True):
            left = list(msg.facts)
            for f in facts:
                if f.score < at:
                    continue
                kept += 1
                hit = next((g for g in left if g.predicate == f.predicate
                            and g.change.value == f.change and g.subject == f.subject
                            and overlap(g.value, f.value) > 0), None)
                if hit is not None:
                    right += 1
                    left.remove(hit)
        p = right / kept if kept else 0.0
        r = right / gold_n if gold_n else 0.0
        f05 = 1.25 * p * r / (0.25 * p + r) if p + r else 0.0
        rows.append({"score": at, "kept": kept, "precision": p, "recall": r, "f05": f05})
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m graphmem.extract.model.calibrate",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", type=Path, default=None,
                    help="a weights directory (default: the shipped weights)")
    args = ap.parse_args(argv)
    from .infer import ModelTagger  # deferred: onnxruntime loads the weights

    _, held = corpus.split(corpus.load(), corpus.heldout_batches())
    weights = args.weights or WEIGHTS_DIR
    # the held-out messages the weights were scored on, as the test of `learned.SURE_SCORE`
    # reads them (a batch held out after the weights were trained is not theirs)
    scored = weights / "scores.json"
    if scored.exists():
        ids = set(json.loads(scored.read_text(encoding="utf-8")).get("heldout_ids") or ())
        held = [m for m in held if m.id in ids] if ids else held
    tagger = ModelTagger(weights)
    tagged = tagger.tag_messages([m.text for m in held])
    chosen_on, other = halves(held)
    rows = [table([held[i] for i in idx], [tagged[i] for i in idx]) for idx in (chosen_on, other)]
    print(f"weights {tagger.version}; held-out halves of {len(chosen_on)} and {len(other)} "
          "messages; facts kept at or above each value score")
    print(f"{'score':>6} | {'kept':>5} {'P':>6} {'R':>6} {'F0.5':>6} | "
          f"{'kept':>5} {'P':>6} {'R':>6} {'F0.5':>6}")
    for a, b in zip(*rows, strict=True):
        print(f"{a['score']:>6.2f} | {a['kept']:>5} {a['precision']:>6.3f} {a['recall']:>6.3f} "
              f"{a['f05']:>6.3f} | {b['kept']:>5} {b['precision']:>6.3f} {b['recall']:>6.3f} "
              f"{b['f05']:>6.3f}")
    best = max(rows[0], key=lambda r: r["f05"])
    print(f"F0.5 on the first half peaks at {best['score']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
