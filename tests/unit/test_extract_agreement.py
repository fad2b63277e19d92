"""The second annotation of held-out corpus messages: it pairs with the corpus (same held-out
messages, same text), is never read by training, and is scored with the tagger's metrics."""

import json

from graphmem.extract import agreement, corpus
from graphmem.extract.model import scoring


def test_every_second_annotation_is_of_held_out_corpus_messages():
    files = sorted(agreement.AGREEMENT_DIR.glob("*.jsonl"))
    assert files
    for path in files:
        gold, second = agreement.pairs(path)
        assert len(gold) == len(second) == len({m.id for m in gold}) >= 400
        assert not set(corpus.corpus_files()) & set(files)  # training never reads them


def test_agreement_is_scored_with_the_taggers_metrics(capsys):
    gold, second = agreement.pairs(sorted(agreement.AGREEMENT_DIR.glob("*.jsonl"))[0])
    same = scoring.score(gold, [list(m.facts) for m in gold])
    assert same["micro"]["f1"] == 1.0  # the labels agree with themselves
    s = scoring.score(gold, second)
    assert 0.5 < s["micro"]["f1"] < 1.0
    assert agreement.main([]) == 0
    assert "second annotation" in capsys.readouterr().out


def test_a_second_annotation_that_is_not_of_the_corpus_is_refused(tmp_path, capsys):
    gold, _ = agreement.pairs(sorted(agreement.AGREEMENT_DIR.glob("*.jsonl"))[0])
    m = gold[0]
    changed = tmp_path / "x.jsonl"
    changed.write_text(json.dumps({"id": m.id, "text": m.text + " !", "facts": []}) + "\n")
    assert agreement.main([str(changed)]) == 1
    err = capsys.readouterr().err
    assert "not the corpus's" in err and len(err.strip().splitlines()) == 1
    trained = next(x for x in corpus.load() if x.batch not in corpus.heldout_batches())
    other = tmp_path / "y.jsonl"
    other.write_text(json.dumps({"id": trained.id, "text": trained.text, "facts": []}) + "\n")
    assert agreement.main([str(other)]) == 1
    assert "not held out" in capsys.readouterr().err
