"""How far two annotators agree on the corpus's held-out messages, beside the tagger.

`data/agreement/*.jsonl` holds second annotations: held-out corpus messages (same ids, same
text) labelled again from `docs/corpus.md` and the registry alone by an annotator who saw
neither the labels nor the model's output. Scored against the corpus labels with the tagger's
own metrics (`model.scoring`), a second annotation measures how well the labelling can be
repeated — the ceiling a learned extractor can be judged against — and, with `--model`, the
shipped tagger is scored on exactly those messages in the same run:

    python -m graphmem.extract.agreement [--model] [--weights DIR] [--table]

Never trained on (the training reads `data/corpus/` only).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import corpus
from .model import scoring

AGREEMENT_DIR = Path(__file__).resolve().parent / "data" / "agreement"


class AgreementError(ValueError):
    pass


def pairs(path: Path, root: Path = corpus.CORPUS_DIR, *,
          labelled: dict[str, corpus.Message] | None = None,
          ) -> tuple[list[corpus.Message], list[list[corpus.LabelledFact]]]:
    """(the corpus messages, the second annotation's facts for each), in the file's order.
    Every message must be a held-out corpus message with its exact text. `labelled`: the
    corpus by id, when the caller has read it already (several files read it once)."""
    if labelled is None:
        labelled = {m.id: m for m in corpus.load(root)}
    heldout = corpus.heldout_batches(root)
    gold, second = [], []
    for m in corpus.read_file(path):
        g = labelled.get(m.id)
        if g is None:
            raise AgreementError(f"{path.name}: {m.id!r} is no corpus message")
        if g.batch not in heldout:
            raise AgreementError(f"{path.name}: {m.id!r} is not held out")
        if g.text != m.text:
            raise AgreementError(f"{path.name}: {m.id!r}'s text is not the corpus's")
        gold.append(g)
        second.append(list(m.facts))
    return gold, second


def _line(name: str, s: dict) -> str:
    mi = s["micro"]
    return (f"{name:<22} F1 {mi['f1']:.3f}  P {mi['precision']:.3f}  R {mi['recall']:.3f}  "
            f"value EM {mi['value_em']:.3f}  change {mi['change_acc']:.3f}  "
            f"time EM {mi['time_em'] or 0:.2f}  look-alikes {s['lookalike_acc'] or 0:.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m graphmem.extract.agreement")
    ap.add_argument("files", nargs="*", type=Path,
                    help="second annotations (default: every file in data/agreement/)")
    ap.add_argument("--model", action="store_true", help="score the tagger on the same messages")
    ap.add_argument("--weights", type=Path, default=None, help="the tagger's weights directory")
    ap.add_argument("--table", action="store_true", help="per-predicate tables")
    args = ap.parse_args(argv)
    files = args.files or sorted(AGREEMENT_DIR.glob("*.jsonl"))
    try:
        gold, second = [], []
        labelled = {m.id: m for m in corpus.load()}
        for path in files:
            g, facts = pairs(path, labelled=labelled)
            gold += g
            second += facts
    except (AgreementError, corpus.CorpusError, OSError) as err:
        print(f"graphmem: error: {err}", file=sys.stderr)
        return 1
    scores = {"second annotation": scoring.score(gold, second)}
    if args.model:
        from .model.infer import WEIGHTS_DIR, ModelTagger  # deferred: onnxruntime loads the weights
        tagger = ModelTagger(args.weights or WEIGHTS_DIR)
        scores[f"tagger {tagger.version}"] = scoring.score(gold, tagger.tag_messages([m.text for m in gold]))
    print(f"{len(gold)} held-out messages, {sum(not m.facts for m in gold)} look-alikes "
          f"(by the corpus labels), {len(files)} file(s)")
    for name, found in scores.items():
        print(_line(name, found))
        if args.table:
            print(scoring.table(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
