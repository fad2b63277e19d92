"""The learned extractor's shipped weights: they score what scores.json says on the held-out
split, they find no fact in questions, and the decoding helpers behave."""

from __future__ import annotations

import json

import numpy as np
import pytest

from graphmem.extract import corpus
from graphmem.extract.learned import SURE_SCORE
from graphmem.extract.model import WEIGHTS_DIR, calibrate, scoring
from graphmem.extract.model.infer import (
    ModelTagger,
    TaggedFact,
    _type_matrix,
    bio_spans,
    strip_span,
    whole_name,
    word_start,
    word_tags,
)

pytest.importorskip("onnxruntime")
pytestmark = pytest.mark.skipif(not (WEIGHTS_DIR / "model.onnx").exists(),
                                reason="no shipped weights")


@pytest.fixture(scope="module")
def tagger() -> ModelTagger:
    return ModelTagger()


@pytest.fixture(scope="module")
def scored() -> dict:
    return json.loads((WEIGHTS_DIR / "scores.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def heldout(tagger: ModelTagger, scored) -> tuple[list[corpus.Message], list[list[TaggedFact]]]:
    """The held-out messages the weights were scored on, read from the corpus as it is now (a
    batch added later is not part of the shipped figures), each tagged as ingest reads a turn."""
    _, held = corpus.split(corpus.load(), corpus.heldout_batches())
    ids = set(scored["heldout_ids"])
    held = [m for m in held if m.id in ids]
    assert len(held) >= 0.95 * len(ids), "the held-out messages the weights were scored on are gone"
    return held, tagger.tag_messages([m.text for m in held])


def test_weights_match_their_scores(tagger: ModelTagger, scored, heldout) -> None:
    assert scored["version"] == tagger.version
    got = scoring.score(*heldout)
    assert got["micro"]["f1"] >= scored["micro"]["f1"] - 0.02, scoring.table(got)
    assert got["lookalike_acc"] >= scored["lookalike_acc"] - 0.03


def test_the_sure_score_is_where_the_weights_peak(heldout) -> None:
    """`learned.SURE_SCORE` (below it a model fact decides no slot) is calibrated for these
    weights: the value score at which F0.5 of their facts peaks on the first half of the
    held-out batches they were scored on (`python -m graphmem.extract.model.calibrate`). A
    message is tagged the same in any batch, so the peak is fixed for fixed weights; new
    weights, new floor."""
    held, tagged = heldout
    first, _other = calibrate.halves(held)
    rows = calibrate.table([held[i] for i in first], [tagged[i] for i in first])
    assert max(rows, key=lambda r: r["f05"])["score"] == pytest.approx(SURE_SCORE), rows


LOOKALIKE_QUESTIONS = [
    "should i move to lisbon or stay put?",
    "how do you know when it's time to quit a job",
    "what's the best way to learn spanish fast?",
    "is it weird to adopt a dog if you work long hours?",
    "any tips for running a first marathon?",
    "what do people usually bring to a housewarming?",
    "can you recommend a good book about the history of rome?",
]


def test_lookalike_questions_yield_no_fact(tagger: ModelTagger) -> None:
    for text, facts in zip(LOOKALIKE_QUESTIONS, tagger.tag(LOOKALIKE_QUESTIONS), strict=True):
        assert facts == [], f"{text!r} → {facts}"


def test_a_plain_fact_is_found_with_its_span(tagger: ModelTagger) -> None:
    text = "we finally moved to bristol last month, the new flat is tiny"
    facts = tagger.tag([text])[0]
    assert any(f.predicate == "lives_in" and f.value.text == "bristol" for f in facts), facts
    for f in facts:
        assert isinstance(f, TaggedFact)
        assert text[f.value.start:f.value.end] == f.value.text
        assert 0.0 < f.score <= 1.0


def test_batched_tagging_equals_one_by_one(tagger: ModelTagger) -> None:
    """A message is tagged the same whatever else is in its batch: the weights quantise each
    token from its own values (`quantize.per_token_int8`), not the whole batch from one range
    (the dynamic quantisation before made 16 of these 300 messages come out differently alone).
    Measured over corpus messages, with their scores, in batches in two orders; padding is
    exercised by six messages of very different lengths tagged as one batch."""
    texts = [m.text for m in corpus.load()][::17][:300]
    together, alone = tagger.tag(texts), [tagger.tag([t])[0] for t in texts]
    assert together == alone
    assert tagger.tag(texts[::-1])[::-1] == alone
    assert sum(map(len, alone)) > 200
    mixed = ["my sister priya lives in leeds", "ok", "what's a good pasta recipe?",
             "sold my old bike on sunday and bought a new one, going to ride to work now",
             "we moved to bristol last month", "is bristol nice to live in?"]
    together = tagger.tag(mixed)
    assert together == [tagger.tag([t])[0] for t in mixed]
    assert together[1] == [] and together[5] == []
    assert any(f.predicate == "lives_in" and f.score >= 0.7 for f in together[4])
    assert tagger.tag([]) == []


def test_bio_decoding_and_stripping() -> None:
    offs = [(0, 2), (3, 8), (8, 10), (11, 15), (16, 20)]
    tags = ["O", "B-lives_in", "B-lives_in", "I-lives_in", "B-TIME"]
    # a B- glued to the previous word piece continues its span
    assert bio_spans(tags, offs) == [("lives_in", 1, 3), ("TIME", 4, 4)]
    assert bio_spans(["I-KEY", "I-KEY", "O"], offs[:3]) == [("KEY", 0, 1)]
    assert strip_span(' "leeds!" ', 0, 10) == (2, 7)


def test_a_word_is_tagged_whole_by_its_pieces_together() -> None:
    labels = ["O", "B-joined", "I-joined", "B-member_of", "I-member_of"]
    types, m = _type_matrix(labels)
    # "the Harr ##iers": the first piece of Harriers leans O, the second strongly member_of; the
    # word goes to member_of as a whole (B- from its first piece's B/I), never "iers" alone.
    probs = np.array([[0.9, 0.02, 0.02, 0.03, 0.03],
                      [0.55, 0.05, 0.0, 0.25, 0.15],
                      [0.05, 0.0, 0.05, 0.1, 0.8]], dtype=np.float32)
    assert word_tags(probs, labels, types, m, [0, 1, 1]) == ["O", "B-member_of", "I-member_of"]
    # each piece its own word: the second piece stays O and the span is the third piece alone
    assert word_tags(probs, labels, types, m, [0, 1, 2]) == ["O", "O", "I-member_of"]


def test_a_span_of_words_takes_one_type() -> None:
    labels = ["O", "B-likes", "I-likes", "B-reading", "I-reading"]
    types, m = _type_matrix(labels)
    # "Marvel movies": the first word leans reading, the second (an I- piece) likes; one span of
    # the type with the most probability over both, not two values of two predicates.
    probs = np.array([[0.05, 0.30, 0.0, 0.35, 0.30],
                      [0.05, 0.0, 0.70, 0.05, 0.20],
                      [0.95, 0.01, 0.02, 0.01, 0.01]], dtype=np.float32)
    assert word_tags(probs, labels, types, m, [0, 1, 2]) == ["B-likes", "I-likes", "O"]
    # a second word that leans B- opens a value of its own
    probs[1] = [0.05, 0.70, 0.0, 0.05, 0.20]
    assert word_tags(probs, labels, types, m, [0, 1, 2]) == ["B-reading", "B-likes", "O"]


@pytest.mark.parametrize(("text", "word", "name"), [
    ("my driving at Laguna Seca. By the way", "Seca", "Laguna Seca"),
    ("a student at the Royal College of Surgeons?", "College", "Royal College of Surgeons"),
    ("thinking of the Logitech C920 since", "Logitech", "Logitech C920"),
    ("I love Bath & Body Works candles", "Body", "Bath & Body Works"),
    ("I live in the United States now", "States", "United States"),
    # two names joined by "and" stay two; a sentence's first word or "I" is no part of a name
    ("videos from Dave Ramsey and Graham Stephan", "Graham Stephan", "Graham Stephan"),
    ("Yesterday Boston was great", "Boston", "Boston"),
    ("I moved to Boston. Laguna is nice", "Laguna", "Laguna"),
    ("so I Googled it", "Googled", "Googled"),
    ("i work at google now", "google", "google"),
])
def test_a_value_is_the_whole_name_it_lies_in(text: str, word: str, name: str) -> None:
    i = text.index(word)
    a, b = whole_name(text, i, i + len(word))
    assert text[a:b] == name


@pytest.mark.parametrize(("text", "cut", "whole"), [
    ("on Friday I go to Kehoe's for the quiz", "s", "Kehoe's"),
    ("mum's shepherd's pie recipe please", "s pie", "shepherd's pie"),
    ("met my sister Rosa’s new boyfriend", "s new boyfriend", "Rosa’s new boyfriend"),
    ("running the 10k again", "10k", "10k"),  # a word's own start stays
    ("a trip to 'Bath' soon", "Bath", "Bath"),  # a quote before a word is not inside one
])
def test_a_value_never_starts_inside_a_word(text: str, cut: str, whole: str) -> None:
    i = text.rindex(cut)
    assert text[word_start(text, i):i + len(cut)] == whole


def test_tagged_names_are_never_cut(tagger: ModelTagger) -> None:
    texts = ["just got back from a track day at Laguna Seca, what a place",
             "my cousin is a student at the Royal College of Surgeons in Dublin",
             "we finally moved to the United States last spring",
             "picked up a Canon AE1 Program at a flea market on Saturday"]
    for text, facts in zip(texts, tagger.tag(texts), strict=True):
        for f in facts:
            assert (f.value.start, f.value.end) == whole_name(text, f.value.start, f.value.end)


def test_pieces_are_read_in_windows_and_given_back_in_their_own_offsets(
        tagger: ModelTagger) -> None:
    """`tag_pieces` reads a text's pieces together in windows of at most `max_len` tokens: a
    fact said after a long run of other sentences is still found (no window is cut short), and
    every fact comes back in the offsets of the piece its value lies in."""
    from graphmem.segment import segment

    filler = "The weather was grey and the trains were late again this morning. " * 12
    text = filler + "Anyway we finally moved to Bristol last month, the new flat is tiny."
    spans = segment(text)
    assert len(spans) > 12
    assert len(tagger.tokenizer.encode(text).ids) >= tagger.max_len  # one window would cut it
    [per_piece] = tagger.tag_pieces([(text, spans)])
    assert len(per_piece) == len(spans)
    for (s, e), facts in zip(spans, per_piece, strict=True):
        for f in facts:
            assert text[s:e][f.value.start:f.value.end] == f.value.text
            if f.time is not None:
                assert text[s:e][f.time.start:f.time.end] == f.time.text
    assert any(f.predicate == "lives_in" and f.value.text == "Bristol" for f in per_piece[-1])
    # one piece alone is read as `tag` reads it
    one = "sold my old bike on sunday"
    assert tagger.tag_pieces([(one, [(0, len(one))])]) == [[tagger.tag([one])[0]]]
    assert tagger.tag_pieces([("", [])]) == [[]]


class _Scripted:
    """An onnxruntime-like session whose heads say what the test scripts, word by word."""

    def __init__(self, tagger: ModelTagger, text: str, value: dict[str, str],
                 aux: dict[str, str], subject: dict[str, str] | None = None) -> None:
        self.t, self.text, self.value, self.aux = tagger, text, value, aux
        self.subject = subject or {}

    def run(self, _names, feeds):
        enc = self.t.tokenizer.encode(self.text)
        n = feeds["input_ids"].shape[1]

        def head(labels: list[str], said: dict[str, str]) -> np.ndarray:
            out = np.full((1, n, len(labels)), 1e-4, dtype=np.float32)
            out[0, :, labels.index("O") if "O" in labels else 0] = 1.0
            for word, label in said.items():
                at = self.text.index(word)
                pieces = [i for i, (a, b) in enumerate(enc.offsets[:n])
                          if b > a and at <= a and b <= at + len(word)]
                for k, i in enumerate(pieces):
                    out[0, i, :] = 1e-4
                    out[0, i, labels.index(label if k == 0 else "I-" + label[2:])] = 1.0
            return out
        change = np.zeros((1, n, len(self.t.change_labels)), dtype=np.float32)
        change[..., self.t.change_labels.index("ongoing")] = 1.0
        subject = np.zeros((1, n, len(self.t.subject_labels)), dtype=np.float32)
        subject[..., self.t.subject_labels.index("user")] = 1.0
        for word, label in self.subject.items():
            at = self.text.index(word)
            for i, (a, b) in enumerate(enc.offsets[:n]):
                if b > a and at <= a and b <= at + len(word):
                    subject[0, i, :] = 0.0
                    subject[0, i, self.t.subject_labels.index(label)] = 1.0
        return [head(self.t.value_labels, self.value), change, subject,
                head(self.t.aux_labels, self.aux)]


def test_a_keyed_fact_no_key_was_nearest_to_takes_the_nearest_key() -> None:
    """A key goes to the value nearest it; a keyed value it did not go to takes the nearest key
    all the same ("Idles replaced Oasis as my favourite band": both are bands), so that it can be
    stored; a value of an unkeyed predicate takes none."""
    base = ModelTagger()
    text = "Idles replaced Oasis as my favourite band and I moved to Leeds"
    script = _Scripted(base, text, {"Idles": "B-favorite", "Oasis": "B-favorite",
                                    "Leeds": "B-lives_in"}, {"band": "B-KEY"})
    tagger = ModelTagger(session=script)
    facts = {f.value.text: f for f in tagger.tag([text])[0]}
    assert set(facts) == {"Idles", "Oasis", "Leeds"}
    assert facts["Oasis"].key is not None and facts["Oasis"].key.text == "band"
    assert facts["Idles"].key is not None and facts["Idles"].key.text == "band"
    assert facts["Leeds"].key is None


def test_in_a_window_a_time_stays_in_its_sentence_and_a_subject_comes_from_before() -> None:
    """Read in a window of sentences, a time or key is attached only within its sentence, and a
    subject's words only to facts of their sentence or a later one: "Yesterday" opening the next
    sentence is not the move's time, and "She lives in Spain" does not take the words of the
    sister named after it."""
    base = ModelTagger()
    text = ("My mum is a nurse. I moved to Leeds. Yesterday I quit Tesco. She lives in Spain. "
            "My sister Ines is a chef.")
    bounds = [(0, 18), (19, 36), (37, 60), (61, 80), (81, len(text))]
    script = _Scripted(base, text, {"nurse": "B-occupation", "Leeds": "B-lives_in",
                                    "Tesco": "B-works_at", "Spain": "B-lives_in",
                                    "chef": "B-occupation"},
                       {"Yesterday": "B-TIME", "My mum": "B-SUBJ", "My sister Ines": "B-SUBJ"},
                       {"nurse": "parent", "Spain": "parent", "chef": "sibling"})
    tagger = ModelTagger(session=script)
    facts = {f.value.text: f for f in tagger.tag([text], [bounds])[0]}
    assert facts["Leeds"].time is None
    assert facts["Tesco"].time is not None and facts["Tesco"].time.text == "Yesterday"
    spans = {v: f.subject_span.text if f.subject_span else None for v, f in facts.items()}
    # each subject's words go to the nearest fact they may: never to "Spain", before them
    assert spans == {"nurse": "My mum", "Leeds": None, "Tesco": None, "Spain": None,
                     "chef": "My sister Ines"}
    # read as one message, the nearest time wins across the sentence break
    whole = {f.value.text: f for f in tagger.tag([text])[0]}
    assert whole["Leeds"].time is not None


LONG_REQUEST = (
    "Can you help me plan meals for a busy week? I work long shifts at the hospital, usually "
    "twelve hours, and by the time I get in I have no energy to cook anything complicated. I'd "
    "like things I can batch cook on a Sunday afternoon, freeze in portions and reheat in the "
    "microwave at work. Nothing with mushrooms please, I can't stand the texture. Budget is "
    "about forty pounds a week for one person. Oh and we finally moved to bristol last month, "
    "so the big supermarket near us is a Sainsbury's if that helps with the shopping list.")


def test_messages_are_read_as_ingest_reads_a_turn(tagger: ModelTagger) -> None:
    """`tag_messages` cuts a text into its pieces and reads them in windows, as ingest does, with
    every span in the text's offsets: a fact said after the first window of a long request is
    found where `tag` (one window, cut at `max_len` tokens) cannot see it."""
    assert len(tagger.tokenizer.encode(LONG_REQUEST).ids) >= tagger.max_len  # cut by `tag`
    short = "we finally moved to bristol last month, the new flat is tiny"
    got = tagger.tag_messages([LONG_REQUEST, short])
    assert len(got) == 2
    for text, facts in zip([LONG_REQUEST, short], got, strict=True):
        assert any(f.predicate == "lives_in" and f.value.text == "bristol" for f in facts), facts
        for f in facts:
            for span in (f.value, f.time, f.key, f.subject_span):
                if span is not None:
                    assert 0 <= span.start and text[span.start:span.end] == span.text
    assert tagger.tag_messages([]) == []
