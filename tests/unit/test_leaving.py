"""What a `left` fact ends (currency.ended_by_leaving): pure logic; the write is tested in
tests/integration/test_plan_slots.py."""

from datetime import UTC, datetime

from graphmem.currency import ENDED_BY_LEAVING, ended_by_leaving
from graphmem.store.currency import HeldFact


def _row(predicate, value, at, subject="user", **kw):
    return {"id": f"{predicate}:{value}", "turn_id": "t2", "span_start": 0, "kind": "event",
            "predicate": predicate, "value": value, "subject": subject, "modality": "asserted",
            "mentioned_at": datetime(2026, 2, at, tzinfo=UTC), **kw}


def _held(predicate, value, at, subject="user", kind="attribute"):
    return HeldFact(id=f"{predicate}:{value}", predicate=predicate, value=value, subject=subject,
                    kind=kind, mentioned_at=datetime(2026, 2, at, tzinfo=UTC))


def _id(*parts):
    return "fact:" + "|".join(map(str, parts))


def test_leaving_ends_the_held_value_of_that_name_told_before():
    left = [_row("left", "Northwind", 5)]
    held = [_held("works_at", "northwind", 1),                 # same name, other case
            _held("works_at", "Initech", 1),                   # another employer
            _held("member_of", "Northwind", 9),                # told after the leaving
            _held("works_at", "Northwind", 1, subject="anna")]  # somebody else's
    (ended,) = ended_by_leaving(left, held, _id)
    assert (ended["predicate"], ended["value"], ended["modality"]) == ("works_at", "northwind",
                                                                       "negated")
    assert ended["slot"] == "user|works_at" and ended["kind"] == "attribute"
    assert ended["extracted_by"] == "rule:currency.left_ends"
    # its words say the value ended: never read as the value itself (not the leaving's words)
    assert ended["text"] == "User: works at northwind (no longer)."
    assert ended["id"] == _id("fact", "t2", 0, "works_at", "northwind")


def test_what_leaving_may_end_is_read_from_the_registry():
    assert {"works_at", "studies_at", "lives_in", "member_of"} <= ENDED_BY_LEAVING
    assert not {"partner", "has_pet", "traveled_to", "hometown"} & ENDED_BY_LEAVING
