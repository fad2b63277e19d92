"""Run the learned extractor: the int8 ONNX tagger with onnxruntime and `tokenizers` (no torch).

    tagger = ModelTagger()                       # weights/ beside this file
    tagger.tag(["moved to hove last week", "should i move to hove?"])
    # [[TaggedFact(predicate='lives_in', value=Span(9, 13, 'hove'), change='starts', …)], []]

    python -m graphmem.extract.model.infer --bench   # messages per second on this machine

The model tags every token with four heads over one encoder: the value BIO tag with its
predicate (a label may name two predicates sharing one span, "bought+owns"), the change and
the subject of the fact at its value tokens, and auxiliary BIO spans KEY / TIME / SUBJ. A fact
is a value span; its change and subject are the majority over its tokens (restricted to the
changes its predicate takes); each KEY / TIME / SUBJ span is attached to the nearest value span.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from tokenizers import Tokenizer

from ...segment import segment
from ...tokens import padded_batches
from ..corpus import CORPUS_PREDICATES, Span
from . import WEIGHTS_DIR

# Predicates whose facts carry a KEY span (`does` is keyed in the registry but its value is the
# activity: the corpus gives it no key).
KEYED = frozenset({"knows", "owns_count", "count", "favorite"})
AUX_TYPES = ("KEY", "TIME", "SUBJ")
PAIR = "+"  # joins the predicates (and changes) of two facts sharing one value span
_STRIP = " \t\n\r.,!?;:\"'()[]{}…~*-–—/\\|"


@dataclass(frozen=True)
class TaggedFact:
    predicate: str
    value: Span
    change: str
    subject: str
    key: Span | None = None
    time: Span | None = None
    subject_span: Span | None = None
    score: float = 1.0


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without surrounding spaces and punctuation (empty → (start, start))."""
    while start < end and text[start] in _STRIP:
        start += 1
    while end > start and text[end - 1] in _STRIP:
        end -= 1
    return start, end


def bio_spans(tags: list[str], offsets: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """(type, first token, last token) of each BIO span; an I- after O or another type opens one.

    A B- on a word piece that continues the previous token's word (no gap between them) and has
    the same type extends the open span: a word is never split between two spans.
    """
    out: list[tuple[str, int, int]] = []
    cur: list | None = None
    for i, tag in enumerate(tags):
        if tag == "O" or not tag:
            if cur:
                out.append(tuple(cur))
            cur = None
            continue
        bio, typ = tag[0], tag[2:]
        glued = cur is not None and i > 0 and offsets[i][0] == offsets[i - 1][1]
        if cur is not None and cur[0] == typ and (bio == "I" or glued):
            cur[2] = i
            continue
        if cur:
            out.append(tuple(cur))
        cur = [typ, i, i]
    if cur:
        out.append(tuple(cur))
    return out


def _type_matrix(labels: list[str]) -> tuple[list[str], np.ndarray]:
    """The span types of BIO `labels` ("O" first) and a labels × types matrix summing B- and I-."""
    types = ["O"] + sorted({lab[2:] for lab in labels if lab != "O"})
    col = {t: j for j, t in enumerate(types)}
    m = np.zeros((len(labels), len(types)), dtype=np.float32)
    for i, lab in enumerate(labels):
        m[i, col["O" if lab == "O" else lab[2:]]] = 1.0
    return types, m


def _leans_inside(piece: np.ndarray, labels: list[str], typ: str) -> bool:
    """Whether a piece's probabilities lean I- rather than B- of `typ` (I- when there is no B-)."""
    b = labels.index(f"B-{typ}") if f"B-{typ}" in labels else None
    inside = labels.index(f"I-{typ}") if f"I-{typ}" in labels else None
    return b is None or (inside is not None and piece[inside] > piece[b])


def word_tags(probs: np.ndarray, labels: list[str], types: list[str], to_type: np.ndarray,
              words: list[int | None]) -> list[str]:
    """One BIO tag per token, decided per word: a word's type is the one with the most
    probability (B- and I- together) averaged over its word pieces, its B-/I- is its first
    piece's, and its later pieces continue it. So a span never starts or ends inside a word."""
    n = len(words)
    if n == 0:
        return []
    starts = [i for i in range(n) if i == 0 or words[i] is None or words[i] != words[i - 1]]
    sizes = np.diff(np.append(starts, n))
    # Sum each word's pieces at once (reduceat), then average: argmax of the mean type.
    by_type = np.add.reduceat(probs @ to_type, starts, axis=0)
    best = (by_type / sizes[:, None]).argmax(-1)
    # Spans of words: a word continues the span of the word before it when both are values and
    # its first piece leans I- rather than B- (of its own type). A span takes one type, the one
    # with the most probability over all its pieces: "Marvel movies" is one value even when
    # "Marvel" leans one predicate and "movies" another.
    runs: list[list[int]] = []
    for w, (start, k) in enumerate(zip(starts, best, strict=True)):
        typ = types[int(k)]
        if typ == "O":
            continue
        if _leans_inside(probs[start], labels, typ) and runs and runs[-1][-1] == w - 1:
            runs[-1].append(w)
        else:
            runs.append([w])
    tags = ["O"] * n
    for run in runs:
        scores = by_type[run].sum(0)
        scores[0] = -1.0  # the span's type is a value type
        typ = types[int(scores.argmax())]
        s0 = starts[run[0]]
        tags[s0] = f"{'I' if _leans_inside(probs[s0], labels, typ) else 'B'}-{typ}"
        end = starts[run[-1]] + int(sizes[run[-1]])
        for k2 in range(s0 + 1, end):
            tags[k2] = f"I-{typ}"
    return tags


_NAME_WORD = r"[A-Z][\w'’.-]*"
_JOIN_LEFT = re.compile(rf"(?<![\w'’.-])({_NAME_WORD})( & | of | )$")
_JOIN_RIGHT = re.compile(rf"^( & | of | )({_NAME_WORD})")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n\"“(]\s*)$")
MAX_NAME_WORDS = 6


def _inside_word(text: str, at: int) -> bool:
    """Whether `at` falls inside a word: after a letter or digit, or after the apostrophe of
    "Kehoe's" or "shepherd's"."""
    return at > 0 and (text[at - 1].isalnum()
                       or (text[at - 1] in "'’" and at > 1 and text[at - 2].isalnum()))


def word_start(text: str, start: int) -> int:
    """A value never starts inside a word: the tagger reads the "'s" of a possessive as a word of
    its own, and its "s" alone ("going to Kehoe's") or "s pie" ("shepherd's pie") is no value;
    the span starts where its word does."""
    while _inside_word(text, start):
        start -= 1
    return start


def whole_name(text: str, start: int, end: int) -> tuple[int, int]:
    """The whole capitalised name a value span lies in ("Laguna Seca", "Royal College of
    Surgeons", "Logitech C920"): the span grown over the neighbouring words that start with a
    capital letter, joined by a space, " & " or " of ". A word that opens a sentence
    is not taken in (it is capitalised as the sentence's first word), nor "I". A value that does
    not start with a capital is left as it is."""
    if not text[start:start + 1].isupper():
        return start, end
    s, e, words = start, end, len(text[start:end].split())
    while (words < MAX_NAME_WORDS and not _SENTENCE_START.search(text, 0, s)
           and (m := _JOIN_LEFT.search(text, 0, s)) is not None):
        if m.group(1) == "I" or _SENTENCE_START.search(text, 0, m.start(1)):
            break
        s, words = m.start(1), words + 1
    while words < MAX_NAME_WORDS and (m := _JOIN_RIGHT.match(text[e:])) is not None:
        if m.group(2) == "I":
            break
        e, words = e + m.end(2), words + 1
    return strip_span(text, s, e)


def _gap(a: Span, b: Span) -> int:
    return max(0, max(a.start, b.start) - min(a.end, b.end))


class ModelTagger:
    """The shipped ONNX tagger: `tag(texts)` → the facts of each message."""

    def __init__(self, weights_dir: Path | str = WEIGHTS_DIR, *, model_file: str = "model.onnx",
                 threads: int = 2, batch_size: int = 32, session: Any = None) -> None:
        """`session`: anything with onnxruntime's `run(None, feeds)` (training scores the torch
        model through it); by default the ONNX model `model_file` in `weights_dir`."""
        weights_dir = Path(weights_dir)
        meta = json.loads((weights_dir / "labels.json").read_text(encoding="utf-8"))
        self.version: str = meta.get("version", "")
        self.max_len: int = int(meta["max_len"])
        self.value_labels: list[str] = meta["value_labels"]
        self.change_labels: list[str] = meta["change_labels"]
        self.subject_labels: list[str] = meta["subject_labels"]
        self.aux_labels: list[str] = meta["aux_labels"]
        self.batch_size = batch_size
        self._value_types = _type_matrix(self.value_labels)
        self._aux_types = _type_matrix(self.aux_labels)
        self.tokenizer = Tokenizer.from_file(str(weights_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.max_len)
        if session is None:
            # deferred: onnxruntime (heavy) loads only when no session is given (training
            # scores its torch model through `session`)
            import onnxruntime as ort
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = max(1, threads)
            opts.inter_op_num_threads = 1
            opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Waiting threads sleep, as the embedder's do: ingest runs the tagger beside the
            # embedder and Neo4j on the same cores, and a spinning thread takes their CPU.
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
            session = ort.InferenceSession(str(weights_dir / model_file), opts,
                                           providers=["CPUExecutionProvider"])
        self.session = session
        # For each value label, the change labels it may take: as many changes as predicates,
        # each one its predicate accepts.
        self._change_mask: dict[str, np.ndarray] = {}
        for lab in self.value_labels:
            if lab == "O":
                continue
            preds = lab[2:].split(PAIR)
            mask = np.zeros(len(self.change_labels), dtype=bool)
            for j, ch in enumerate(self.change_labels):
                parts = ch.split(PAIR)
                mask[j] = len(parts) == len(preds) and all(
                    p in CORPUS_PREDICATES and c in {x.value for x in CORPUS_PREDICATES[p].changes}
                    for p, c in zip(preds, parts, strict=True))
            if not mask.any():
                mask[:] = True
            self._change_mask[lab[2:]] = mask

    def tag(self, texts: list[str], bounds: Sequence[Sequence[tuple[int, int]]] | None = None
            ) -> list[list[TaggedFact]]:
        """The facts of each text; `bounds`: each text's pieces (sentences, in its offsets),
        across which no time or key is attached and no subject is taken from a later piece (a
        window of sentences, `tag_pieces`); by default a text is one piece."""
        if not texts:
            return []
        encs = self.tokenizer.encode_batch(list(texts), add_special_tokens=True)
        out: list[list[TaggedFact]] = [[] for _ in texts]
        for idx, ids, mask in padded_batches(encs, self.batch_size):
            vp, cp, sp, ap = self.session.run(None, {"input_ids": ids, "attention_mask": mask})
            for r, i in enumerate(idx):
                n = len(encs[i].ids)
                out[i] = self._decode(texts[i], encs[i].offsets[:n], encs[i].word_ids[:n],
                                      vp[r, :n], cp[r, :n], sp[r, :n], ap[r, :n],
                                      bounds[i] if bounds is not None else ())
        return out

    def tag_pieces(self, texts: Sequence[tuple[str, Sequence[tuple[int, int]]]]
                   ) -> list[list[list[TaggedFact]]]:
        """The facts of each piece of each text, read in context: consecutive pieces of one
        text (its sentences, `segment`) are tagged together in windows of up to `max_len`
        tokens, as the corpus's messages were (a sentence read alone loses what the sentences
        around it say: whose life it is, that a list is a wish list, that an article is
        pasted). Each fact belongs to the piece its value is in; its spans are given in the
        piece's offsets. A time or key is attached only within a piece; a subject's words may
        come from a piece before ("My sister Ines is a nurse. She moved to Hull."), with offsets
        before the piece's start."""
        windows = piece_windows(self.tokenizer, self.max_len, texts)
        read = self.tag([texts[i][0][spans[a][0]:spans[b][1]]
                         for i, a, b in windows for spans in (texts[i][1],)],
                        [[(s - spans[a][0], e - spans[a][0]) for s, e in spans[a:b + 1]]
                         for i, a, b in windows for spans in (texts[i][1],)])
        out: list[list[list[TaggedFact]]] = [[[] for _ in spans] for _text, spans in texts]
        for (i, a, b), facts in zip(windows, read, strict=True):
            spans, w0 = texts[i][1], texts[i][1][a][0]
            found: int | None
            for f in facts:
                pos = f.value.start + w0
                found = next((k for k in range(a, b + 1) if spans[k][0] <= pos < spans[k][1]),
                             None)
                if found is None or f.value.end + w0 > spans[found][1]:
                    continue
                s0, s1 = spans[found]
                out[i][found].append(_rebased(f, w0 - s0, s1 - s0))
        return out

    def tag_messages(self, texts: Sequence[str]) -> list[list[TaggedFact]]:
        """The facts of each text as ingest reads a turn: cut into its pieces (`segment`), the
        pieces read in windows (`tag_pieces`), every span in the text's offsets. Unlike `tag`,
        a time or key is attached only within its value's piece (as at ingest), even in a text
        that fits in one window."""
        cut = [(text, segment(text)) for text in texts]
        return [[_rebased(f, s, len(text)) for (s, _e), found in zip(spans, facts, strict=True)
                 for f in found]
                for (text, spans), facts in zip(cut, self.tag_pieces(cut), strict=True)]

    def _decode(self, text: str, offsets: list[tuple[int, int]], words: list[int | None],
                vp: np.ndarray, cp: np.ndarray, sp: np.ndarray,
                ap: np.ndarray, bounds: Sequence[tuple[int, int]] = ()) -> list[TaggedFact]:
        real = [i for i, (a, b) in enumerate(offsets) if b > a]
        if not real:
            return []
        offs = [offsets[i] for i in real]
        wids = [words[i] for i in real]
        vtags = word_tags(vp[real], self.value_labels, *self._value_types, wids)
        atags = word_tags(ap[real], self.aux_labels, *self._aux_types, wids)

        def char_span(t0: int, t1: int) -> Span | None:
            s, e = strip_span(text, offs[t0][0], offs[t1][1])
            s = word_start(text, s) if e > s else s
            return Span(s, e, text[s:e]) if e > s else None

        # A name's words tagged apart ("Laguna" one fact, "Seca" another) make one value, the
        # whole name, of the predicate its surest fragment was tagged with.
        named: dict[tuple[int, int], tuple[float, str, list[int]]] = {}
        for typ, t0, t1 in bio_spans(vtags, offs):
            span = char_span(t0, t1)
            if span is None:
                continue
            toks = [real[t] for t in range(t0, t1 + 1)]
            sure = float(vp[toks].max(-1).min())
            key = whole_name(text, span.start, span.end)
            if key in named:
                best, btyp, btoks = named[key]
                named[key] = (max(best, sure), typ if sure > best else btyp, btoks + toks)
            else:
                named[key] = (sure, typ, toks)
        values = [(Span(a, b, text[a:b]), typ, sorted(set(toks)))
                  for (a, b), (_sure, typ, toks) in sorted(named.items())]
        if not values:
            return []
        facts: list[dict] = []
        for span, typ, toks in values:
            preds = typ.split(PAIR)
            cprob = cp[toks].sum(0)
            cprob = np.where(self._change_mask.get(typ, True), cprob, -1.0)
            changes = self.change_labels[int(cprob.argmax())].split(PAIR)
            if len(changes) != len(preds):
                changes = [changes[0]] * len(preds)
            subject = self.subject_labels[int(sp[toks].sum(0).argmax())]
            score = float(vp[toks].max(-1).min())
            for p, c in zip(preds, changes, strict=True):
                facts.append({"predicate": p, "value": span, "change": c, "subject": subject,
                              "score": score})
        # Auxiliary spans: each to the nearest eligible value span (facts sharing it all get it),
        # in the value's own piece; a subject also to the pieces after its own ("My sister Ines
        # is a nurse. She moved to Hull."), never to one before it.
        def piece(at: int) -> int:
            return next((k for k, (a, b) in enumerate(bounds) if a <= at < b), 0)
        keys: list[Span] = []
        for typ, t0, t1 in bio_spans(atags, offs):
            span = char_span(t0, t1)
            if span is None:
                continue
            field = {"KEY": "key", "TIME": "time", "SUBJ": "subject_span"}.get(typ)
            if field is None:
                continue
            if typ == "KEY":
                keys.append(span)
            at = piece(span.start)
            ok = [f for f in facts
                  if (typ != "KEY" or f["predicate"] in KEYED)
                  and (typ != "SUBJ" or f["subject"] != "user")
                  and (piece(f["value"].start) >= at if typ == "SUBJ"
                       else piece(f["value"].start) == at)]
            if not ok:
                continue
            best = min(_gap(span, f["value"]) for f in ok)
            for f in ok:
                if _gap(span, f["value"]) != best:
                    continue
                old = f.get(field)
                if old is None or _gap(span, f["value"]) < _gap(old, f["value"]):
                    f[field] = span
        # A keyed fact no key was nearest to takes the nearest key all the same: one kind said
        # for two values ("Idles have replaced AM as my favourite band": the band is the key of
        # both), or a key nearer another value ("my new favourite restaurant is this spot called
        # Kru"). Without a key such a fact could not be stored at all.
        # Only a key of its own piece, and not one another predicate's fact holds ("I have two
        # dogs and my son's favourite food is pizza": "dogs" is the count's).
        held = {(f["key"].start, f["predicate"]) for f in facts if f.get("key") is not None}
        for f in facts:
            if f["predicate"] not in KEYED or f.get("key") is not None:
                continue
            value: Span = f["value"]
            mine = [k for k in keys if piece(k.start) == piece(value.start)
                    and all(p == f["predicate"] for at, p in held if at == k.start)]
            if mine:
                f["key"] = min(mine, key=lambda k: _gap(k, value))
        return [TaggedFact(f["predicate"], f["value"], f["change"], f["subject"], f.get("key"),
                           f.get("time"), f.get("subject_span"), f["score"]) for f in facts]


def piece_windows(tokenizer: Tokenizer, max_len: int,
                  texts: Sequence[tuple[str, Sequence[tuple[int, int]]]]
                  ) -> list[tuple[int, int, int]]:
    """The windows consecutive pieces of each text are read in, (text index, first piece, last
    piece): as many pieces as fit in `max_len` tokens with [CLS] and [SEP], a piece that does
    not fit alone in a window of its own. Ingest reads turns so (`ModelTagger.tag_pieces`) and
    training cuts its long messages so (`train.windowed`)."""
    budget = max_len - 2  # [CLS] and [SEP]
    windows: list[tuple[int, int, int]] = []
    # each piece's tokens, and those of the text between it and the piece before (closing
    # quotes, a dash rule between paragraphs): both are in a window
    parts = [text[s:e] if k % 2 else text[spans[j - 1][1] if j else s:s]
             for text, spans in texts for j, (s, e) in enumerate(spans) for k in (0, 1)]
    counts = [len(enc.ids) for enc in tokenizer.encode_batch(parts, add_special_tokens=False)]
    at = 0
    for i, (_text, spans) in enumerate(texts):
        first, used = 0, 0
        for j in range(len(spans)):
            gap, n = counts[at + 2 * j], counts[at + 2 * j + 1]
            if j > first and used + gap + n > budget:
                windows.append((i, first, j - 1))
                first, used = j, 0
            used += n + (gap if j > first else 0)
        if spans:
            windows.append((i, first, len(spans) - 1))
        at += 2 * len(spans)
    return windows


def _rebased(fact: TaggedFact, shift: int, size: int) -> TaggedFact:
    """`fact` read in a window, in the offsets of its piece (`shift` from the window's to the
    piece's, `size` its length). Its time and key start in the piece (`_decode` keeps them
    there); a time running past the piece's end is dropped; a subject's words may lie before
    the piece, at offsets below 0."""
    def moved(span: Span | None) -> Span | None:
        return None if span is None else Span(span.start + shift, span.end + shift, span.text)
    time = moved(fact.time)
    return replace(fact, value=moved(fact.value) or fact.value, key=moved(fact.key),
                   time=time if time is None or time.end <= size else None,
                   subject_span=moved(fact.subject_span))


_BENCH_TEXTS = (
    "ugh the commute from leeds is killing me",
    "started at a new job today, bit nervous tbh",
    "what's a good name for a goldfish?",
    "my sister priya just moved to lisbon",
    "sold the old bike on sunday, got 200 quid",
    "i don't drink coffee anymore",
    "we're thinking about a trip to porto in may, any tips?",
    "ran my first half marathon yesterday 🥵",
)


def bench(tagger: ModelTagger, n: int = 2000, texts: list[str] | None = None) -> float:
    """Messages per second tagging `n` short messages in batches (after one warm-up call)."""
    texts = list(texts or _BENCH_TEXTS)
    batch = [texts[i % len(texts)] for i in range(n)]
    tagger.tag(batch[:64])
    t0 = time.perf_counter()
    tagger.tag(batch)
    return n / (time.perf_counter() - t0)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m graphmem.extract.model.infer")
    ap.add_argument("--bench", action="store_true", help="measure messages per second")
    ap.add_argument("--weights", default=str(WEIGHTS_DIR))
    ap.add_argument("--model-file", default="model.onnx")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("texts", nargs="*")
    args = ap.parse_args(argv)
    tagger = ModelTagger(args.weights, model_file=args.model_file, threads=args.threads)
    if args.bench:
        size = os.path.getsize(Path(args.weights) / args.model_file) / 1e6
        rate = bench(tagger, args.n)
        print(f"{args.model_file} ({size:.1f} MB, version {tagger.version}), "
              f"{args.threads} threads: {rate:.0f} messages/s on {args.n} short messages")
    for text in args.texts:
        print(text)
        for fact in tagger.tag([text])[0]:
            print("   ", fact)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
