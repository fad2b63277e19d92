"""A correction told later takes the slot of what it corrects, through ingest and a real Neo4j:
the corrected value holds, the replaced one never held (invalid, a CONTRADICTS edge); words that
only look like a correction change nothing; in a chat between named people one speaker never
corrects the other's facts."""

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import FakeVectors, dt


def _memory(graph, user_id, *sessions):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [
        SessionRecord(f"s{k}", when, [TurnRecord("user", text) for text in texts])
        for k, (when, texts) in enumerate(sessions, start=1)])])
    return mem


def _values(mem, user_id, predicate, **kw):
    return sorted((f.value, f.status) for f in mem.facts(user_id, **kw)
                  if f.predicate == predicate and f.modality == "asserted")


def test_a_number_taken_back_in_the_next_message_is_the_count(graph, user_id):
    mem = _memory(graph, user_id, (dt(2024, 4, 2), [
        "We have 4 dogs so the flat is chaos.",
        "wait scratch that, it's three, one of them lives with my brother now."]))
    assert _values(mem, user_id, "owns_count:dog") == [("3", "active")]
    history = [f for f in mem.facts(user_id, history=True) if f.predicate == "owns_count:dog"]
    old = next(f for f in history if f.value == "4" and f.modality == "asserted")
    assert old.status == "invalid"
    new = next(f for f in history if f.value == "3")
    assert new.extracted_by == "rule:correction"
    assert any(c.type == "CONTRADICTS" and c.id == old.id
               for f in mem.timeline(user_id) for c in f.changes)


def test_the_old_value_named_a_week_later_is_replaced_in_its_own_predicate(graph, user_id):
    mem = _memory(graph, user_id,
                  (dt(2025, 1, 8), ["I live in Hull."]),
                  (dt(2025, 1, 15), ["Correction from last week: it's not Hull, it's Leeds. "
                                     "Hull is where my sister lives."]))
    assert _values(mem, user_id, "lives_in") == [("Leeds", "active")]
    hull = [f for f in mem.facts(user_id, history=True)
            if f.predicate == "lives_in" and f.value == "Hull" and f.modality == "asserted"]
    assert [f.status for f in hull] == ["invalid"]


def test_look_alikes_leave_the_facts_alone(graph, user_id):
    mem = _memory(graph, user_id, (dt(2024, 5, 1), [
        "I live in Hull.", "I have 2 cats.",
        "It's not always easy, but it's definitely worth it.",
        "I mean it's Netflix, what do you expect.",
        "How do you think we can make that happen?",
        "no wait, make that Tuesday for the dentist."]))
    assert _values(mem, user_id, "lives_in") == [("Hull", "active")]
    assert _values(mem, user_id, "owns_count:cat") == [("2", "active")]
    assert not [f for f in mem.facts(user_id, history=True)
                if f.extracted_by == "rule:correction"]


def test_one_speaker_never_corrects_the_other(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [SessionRecord("s1", dt(2024, 6, 1), [
        TurnRecord("user", "I have 4 dogs at home.", speaker="Ana"),
        TurnRecord("user", "Wow! wait no, it's three for me, I gave one away.", speaker="Ben"),
    ])])])
    counts = [f for f in mem.facts(user_id, history=True)
              if f.predicate == "owns_count:dog" and f.modality == "asserted"]
    assert [(f.value, f.status) for f in counts if f.slot.startswith("ana|")] == [
        ("4", "active")]
    assert not [f for f in counts if f.extracted_by == "rule:correction"]
