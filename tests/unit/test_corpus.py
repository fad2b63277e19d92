"""The labelled extraction corpus: it validates, it is the size and mix the extractor needs, its
held-out split is by batch, and it is written for the purpose (nothing of the benchmarks in it)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from graphmem.extract import corpus

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture(scope="module")
def messages():
    return corpus.load()


def test_the_corpus_validates_and_has_the_size_and_mix_asked_for(messages):
    assert len(messages) >= 6000
    looks = sum(m.lookalike for m in messages)
    assert looks >= len(messages) / 3
    labelled = {f.predicate for m in messages for f in m.facts}
    assert labelled == set(corpus.CORPUS_PREDICATES)
    subjects = {f.subject for m in messages for f in m.facts}
    assert {"user", "partner", "child", "parent", "friend"} <= subjects
    for m in messages:
        for f in m.facts:
            assert m.text[f.value.start:f.value.end] == f.value.text


def test_the_held_out_split_is_fixed_and_by_batch(messages):
    heldout = corpus.heldout_batches()
    batches = {m.batch for m in messages}
    assert heldout and heldout <= batches
    authors = {b.split("-")[0] for b in batches}
    assert {b.split("-")[0] for b in heldout} == authors  # every author on both sides
    for m in messages:  # an id names its batch: no message moved across the split
        assert m.id.startswith(m.batch + "-"), m.id
    train, test = corpus.split(messages, heldout)
    assert {m.batch for m in train}.isdisjoint({m.batch for m in test})
    assert 0.1 <= len(test) / len(messages) <= 0.3


def test_no_message_is_copied_from_the_benchmarks(messages):
    lme = SHARED / "longmemeval" / "longmemeval_s_dev.json.gz"
    locomo = SHARED / "locomo" / "locomo10.json"
    if not lme.exists() or not locomo.exists():
        pytest.skip("../shared/data is not beside the repository")
    theirs = {t["content"].strip().lower() for q in json.load(gzip.open(lme))
              for s in q["haystack_sessions"] for t in s}
    theirs |= {t.get("text", "").strip().lower() for c in json.load(locomo.open())
               for v in c["conversation"].values() if isinstance(v, list) for t in v}
    copied = [m.id for m in messages if m.text.strip().lower() in theirs]
    assert not copied


@pytest.mark.parametrize("line, says", [
    ('{"id": "x-1", "text": "hi", "facts": [{"predicate": "lives_in", "value": "Hove", '
     '"change": "ongoing"}]}', "does not occur"),
    ('{"id": "x-1", "text": "I live in Hove", "facts": [{"predicate": "job_title", '
     '"value": "Hove", "change": "ongoing"}]}', "not a registry predicate"),
    ('{"id": "x-1", "text": "I went to Hove", "facts": [{"predicate": "traveled_to", '
     '"value": "Hove", "change": "stops"}]}', "does not take"),
    ('{"id": "x-1", "text": "my cat", "facts": [{"predicate": "owns_count", '
     '"value": "cat", "change": "ongoing"}]}', "key"),
    ('{"id": "x-1", "text": "x", "facts": {}}', "must be a list"),
    ('not json', "not JSON"),
])
def test_the_validator_names_what_is_wrong(line, says):
    with pytest.raises(corpus.CorpusError, match=says):
        corpus.parse_line(line, "x", "f.jsonl:1")
