"""Training reads a long message as ingest does: cut into windows of its pieces, each with the
facts whose value lies in it, so nothing a long message says after `max_len` tokens is lost."""

from __future__ import annotations

import pytest

from graphmem.extract.corpus import LabelledFact, Message, Span
from graphmem.extract.model import WEIGHTS_DIR
from graphmem.predicates import Change

pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not (WEIGHTS_DIR / "tokenizer.json").exists(),
                                reason="no shipped tokenizer")


def _fact(text: str, predicate: str, words: str, change: Change, time: str | None = None
          ) -> LabelledFact:
    at = text.index(words)
    when = None if time is None else Span(text.index(time), text.index(time) + len(time), time)
    return LabelledFact(predicate, Span(at, at + len(words), words), "user", change, time=when)


def test_a_long_message_is_cut_into_windows_with_its_facts_moved():
    from tokenizers import Tokenizer

    from graphmem.extract.model.train import windowed

    tok = Tokenizer.from_file(str(WEIGHTS_DIR / "tokenizer.json"))
    tok.enable_truncation(96)
    text = ("I adopted a greyhound called Pip in March. " + "She is terrified of the hoover and "
            "sleeps on the sofa all day, which I suppose is what retired racers do best. " * 6
            + "Anyway we move to Leeds on Friday and I need tips for the drive.")
    msg = Message("t-01-001", "t-01", text, (
        _fact(text, "has_pet", "Pip", Change.ONGOING),
        _fact(text, "lives_in", "Leeds", Change.PLANNED, "on Friday")))
    parts = windowed(msg, tok, 96)
    assert len(parts) > 1
    assert not any(tok.encode(p.text).overflowing for p in parts)  # each fits in a window
    facts = [(p, f) for p in parts for f in p.facts]
    assert sorted(f.value.text for _p, f in facts) == ["Leeds", "Pip"]
    for p, f in facts:
        assert p.text[f.value.start:f.value.end] == f.value.text
        if f.time is not None:
            assert p.text[f.time.start:f.time.end] == f.time.text == "on Friday"
    assert {p.batch for p in parts} == {"t-01"} and len({p.id for p in parts}) == len(parts)
    short = Message("t-01-002", "t-01", "we move to Leeds on Friday",
                    (_fact("we move to Leeds on Friday", "lives_in", "Leeds", Change.PLANNED),))
    assert windowed(short, tok, 96) == [short]
