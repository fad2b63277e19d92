"""Scoring every extractor alike on the corpus (graphmem.extract.compare)."""

from __future__ import annotations

import json

from graphmem.extract import OfflineExtractor
from graphmem.extract.compare import as_scored, main, predict
from graphmem.extract.corpus import parse_line
from graphmem.extract.model.scoring import score
from graphmem.models import FactCandidate


def message(text: str, facts: str) -> object:
    line = json.dumps({"id": "t-01-001", "text": text, "facts": json.loads(facts)})
    return parse_line(line, "t-01", "test")


def test_a_rule_fact_is_scored_as_its_canonical_predicate_with_the_values_offsets():
    text = "Sorry, long day. I lived in Hull for years before the move."
    cand = FactCandidate(kind="event", predicate="lived_in", text="User lived in Hull.",
                         support="I lived in Hull", value="Hull")
    piece_at = text.index("I lived")
    fact = as_scored(cand, text, piece_at)
    assert (fact.predicate, fact.change) == ("lives_in", "done")
    assert (fact.value.start, fact.value.text) == (text.index("Hull"), "Hull")
    assert as_scored(FactCandidate(kind="attribute", predicate="birthday", text="x",
                                   support="long day", value="long day"), text, 0) is None


def test_the_rules_read_piece_by_piece_and_score_against_the_labels():
    msgs = [message("ugh, mondays. I live in Leeds now.",
                    '[{"predicate": "lives_in", "value": "Leeds", "change": "ongoing"}]'),
            message("should I move to Leeds?", "[]")]
    predicted = predict(OfflineExtractor(), msgs)
    assert [[f.predicate for f in p] for p in predicted] == [["lives_in"], []]
    s = score(msgs, predicted)
    assert s["micro"]["f1"] == 1.0 and s["micro"]["value_em"] == 1.0
    assert s["lookalike_acc"] == 1.0


def test_an_unknown_extractor_is_one_line_and_exit_2(capsys):
    assert main(["--extractors", "offline,nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope" in err


def test_the_dev_split_is_the_training_splits_dev_slice(capsys):
    from graphmem.extract.corpus import dev_batches, heldout_batches, load, split

    train, held = split(load(), heldout_batches())
    rest, dev = split(train, dev_batches(train))
    assert dev and rest and not {m.batch for m in dev} & {m.batch for m in held}
    assert main(["--split", "dev", "--extractors", "offline"]) == 0
    assert capsys.readouterr().out.startswith(f"dev split: {len(dev)} messages")


def test_what_the_registry_brings_from_an_event_is_not_scored():
    """The corpus labels "sold the van" as `sold` alone; the owns (stops) the registry brings
    from it, and a count an event steps, are no reading of the extractor's to score."""
    from graphmem.extract.corpus import Span
    from graphmem.extract.learned import ModelExtractor
    from tests.unit.test_extract_learned import FakeTagger, Tagged

    text = "sold two of the guitars on sunday"
    msgs = [message(text, '[{"predicate": "sold", "value": "guitars", "change": "done"}]')]
    at = text.index("guitars")
    tagger = FakeTagger({text: [Tagged("sold", Span(at, at + 7, "guitars"), "done")]})
    model = ModelExtractor(tagger)
    made = [c.predicate for c in model.extract(text, "user")]
    assert made == ["sold", "owns", "owns_count:guitar"]
    assert [[f.predicate for f in p] for p in predict(model, msgs)] == [["sold"]]
    assert score(msgs, predict(model, msgs))["micro"]["precision"] == 1.0
