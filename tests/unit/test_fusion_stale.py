"""Fusion: which evidence counts as stale for a present-tense question."""

from graphmem.retrieval.fusion import current_first, stale_on_asked_slot


def test_stale_on_the_asked_slot():
    states = [["lives_in", "superseded"], ["occupation", "active"]]
    assert stale_on_asked_slot(states, ["lives_in", "from"])
    assert not stale_on_asked_slot(states, ["works_at", "occupation"])
    assert not stale_on_asked_slot(states + [["lives_in", "active"]], ["lives_in"])
    assert stale_on_asked_slot([["owns_count:cat", "superseded"]], ["owns_count:"])
    assert not stale_on_asked_slot(None, ["lives_in"]) and not stale_on_asked_slot(states, [])


def _row(id_, type_, conf, status=None, predicate=None, turn_id=None, states=None):
    return {"id": id_, "type": type_, "conf": conf, "status": status, "predicate": predicate,
            "turn_id": turn_id or id_, "slot_states": states}


def test_current_first_moves_stale_turns_below_the_current_evidence():
    rows = [_row("old", "turn", 2.0, "stale", states=[["works_at", "superseded"]]),
            _row("chat", "turn", 1.5),
            _row("f-new", "fact", 1.0, "active", "works_at", turn_id="new"),
            _row("new", "turn", 0.8, states=[["works_at", "active"]]),
            _row("tail", "turn", 0.1)]
    out = current_first(rows, ["works_at", "occupation"])
    assert [r["id"] for r in out] == ["chat", "f-new", "new", "old", "tail"]
    assert out[3]["conf"] == 0.8  # no longer scored above what ranks above it
    # nothing current among the candidates: the order is kept
    assert [r["id"] for r in current_first(rows[:2], ["works_at"])] == ["old", "chat"]


def test_latest_first_within_the_band_of_direct_hits():
    from datetime import UTC, datetime

    from graphmem.retrieval.config import FUSED
    from graphmem.retrieval.fusion import latest_first

    def said(id_, conf, day, direct=1.0):
        return {"id": id_, "conf": conf, "direct_score": direct,
                "mentioned_at": datetime(2024, 1, day, 12, tzinfo=UTC)}

    rows = [said("jan-old", 2.0, 3), said("jan-new", 1.2, 20), said("neighbour", 1.1, 25, 0.0),
            said("far", 0.5, 28)]
    # the later of two direct hits within half the best comes first; a derived-only neighbour
    # and an item below the band keep their places after them
    assert [r["id"] for r in latest_first(rows, FUSED)] == ["jan-new", "jan-old", "neighbour",
                                                             "far"]
    # the band is off: the order is kept
    assert latest_first(rows, FUSED.with_(recency_band=1.0)) == rows
    # same day: the order is kept
    same = [said("a", 2.0, 3), said("b", 1.5, 3)]
    assert [r["id"] for r in latest_first(same, FUSED)] == ["a", "b"]


def test_latest_first_keeps_to_the_asked_slot_when_the_band_knows_it():
    from datetime import UTC, datetime

    from graphmem.retrieval.config import FUSED
    from graphmem.retrieval.fusion import latest_first

    def said(id_, conf, day, states=None):
        return {"id": id_, "type": "turn", "conf": conf, "direct_score": 1.0,
                "slot_states": states, "mentioned_at": datetime(2024, 1, day, 12, tzinfo=UTC)}

    home = said("home", 2.0, 3, [["lives_in", "active"]])
    chat = said("restaurant", 1.2, 20, [["favorite_restaurant", "active"]])
    moved = said("moved", 1.1, 10, [["lives_in", "active"]])
    # "where do I live now?": the later turn about a restaurant stays behind; of the two about
    # the home, the later comes first
    assert [r["id"] for r in latest_first([home, chat, moved], FUSED, ["lives_in"])] == [
        "moved", "home", "restaurant"]
    # a later turn nothing was extracted from may come first; without slots, plain recency
    quiet = said("quiet", 1.0, 25)
    assert [r["id"] for r in latest_first([home, chat, quiet], FUSED, ["lives_in"])] == [
        "quiet", "home", "restaurant"]
    assert [r["id"] for r in latest_first([home, chat], FUSED, [])] == ["restaurant", "home"]
