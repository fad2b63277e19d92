"""The deterministic half of LLM-decided currency: direction, edge type and closing time."""

import pytest

from graphmem.prompts.relate_facts import parse_relations
from graphmem.relate import link_for
from tests.helpers import dt


def _f(id_, mentioned, occurred=None, turn_idx=1):
    return {"id": id_, "mentioned_at": mentioned, "occurred_start": occurred,
            "turn_idx": turn_idx, "span_start": 0}


def test_supersedes_runs_from_the_later_effective_fact_whatever_the_proposal_order():
    old, new = _f("a", dt(2024, 1, 1)), _f("b", dt(2024, 3, 1), occurred=dt(2024, 2, 20))
    for x, y in ((old, new), (new, old)):
        link = link_for("supersedes", x, y)
        assert (link.source, link.target, link.type, link.at) == ("b", "a", "SUPERSEDES",
                                                                 dt(2024, 2, 20))
    assert link_for("updates", old, new).type == "UPDATES"


def test_a_backdated_mention_can_be_the_older_fact():
    # Said later, but about an earlier time: the earlier-said fact is the newer state.
    said_first = _f("a", dt(2024, 3, 1))
    said_later_about_january = _f("b", dt(2024, 4, 1), occurred=dt(2024, 1, 5))
    link = link_for("supersedes", said_first, said_later_about_january)
    assert (link.source, link.target) == ("a", "b")


def test_same_moment_or_contradiction_links_from_the_later_mention():
    a, b = _f("a", dt(2024, 1, 1), turn_idx=1), _f("b", dt(2024, 1, 1), turn_idx=3)
    link = link_for("supersedes", a, b)
    assert (link.source, link.target, link.type) == ("b", "a", "CONTRADICTS")
    c = _f("c", dt(2024, 5, 1), occurred=dt(2023, 1, 1))
    link = link_for("contradicts", c, a)
    assert (link.source, link.target, link.at) == ("c", "a", dt(2024, 1, 1))


def test_none_and_self_give_no_link():
    a = _f("a", dt(2024, 1, 1))
    assert link_for("none", a, _f("b", dt(2024, 2, 1))) is None
    assert link_for("supersedes", a, a) is None


def test_parse_relations_keeps_offered_pairs_and_rejects_bad_shapes():
    pairs = {("N1", "N1C1"), ("N1", "N1C2")}
    got = parse_relations({"relations": [
        {"new": "N1", "candidate": "N1C1", "relation": "Supersedes"},
        {"new": "N9", "candidate": "N1C1", "relation": "updates"}]}, pairs)
    assert got == {("N1", "N1C1"): "supersedes"}
    for bad in ({"rel": []}, {"relations": ["x"]},
                {"relations": [{"new": "N1", "candidate": "N1C1", "relation": "maybe"}]}):
        with pytest.raises(ValueError):
            parse_relations(bad, pairs)
