"""The value score at which a tagged fact decides a slot: the halves it is chosen and checked on,
and the precision / recall table it is read from."""

from __future__ import annotations

from graphmem.extract.corpus import LabelledFact, Message, Span
from graphmem.extract.model.calibrate import halves, table
from graphmem.extract.model.infer import TaggedFact
from graphmem.predicates import Change


def Tagged(predicate: str, value: Span, change: str, score: float) -> TaggedFact:  # noqa: N802
    return TaggedFact(predicate, value, change, "user", score=score)


def msg(batch: str, n: int, text: str, *facts: LabelledFact) -> Message:
    return Message(f"{batch}-{n:03d}", batch, text, tuple(facts))


def test_the_halves_alternate_whole_batches():
    held = [msg(b, i, "x") for b in ("a-02", "b-02", "c-02", "d-02") for i in range(3)]
    first, second = halves(held)
    assert sorted(first + second) == list(range(len(held)))
    batches = [{held[i].batch for i in idx} for idx in (first, second)]
    assert batches == [{"a-02", "c-02"}, {"b-02", "d-02"}]


def test_the_table_counts_right_facts_at_each_score():
    text = "moved to Leeds in May, still at Acme"
    leeds, acme = Span(9, 14, "Leeds"), Span(32, 36, "Acme")
    gold = msg("a-02", 1, text, LabelledFact("lives_in", leeds, "user", Change("starts")),
               LabelledFact("works_at", acme, "user", Change("ongoing")))
    tagged = [[Tagged("lives_in", leeds, "starts", score=0.95),
               Tagged("works_at", acme, "starts", score=0.7),  # the change is wrong
               Tagged("likes", Span(0, 5, "moved"), "ongoing", score=0.55)]]  # no gold fact
    rows = {r["score"]: r for r in table([gold], tagged, scores=(0.5, 0.8, 0.99))}
    assert (rows[0.5]["kept"], rows[0.5]["precision"], rows[0.5]["recall"]) == (3, 1 / 3, 0.5)
    assert (rows[0.8]["kept"], rows[0.8]["precision"], rows[0.8]["recall"]) == (1, 1.0, 0.5)
    assert rows[0.8]["f05"] > rows[0.5]["f05"]
    assert (rows[0.99]["kept"], rows[0.99]["f05"]) == (0, 0.0)
