"""Which outcomes fulfil a plan, read from the store: an outcome told in a session that tells
the plan again is another occasion (a later outcome still closes both tellings of the plan); an
outcome with no time of its own told on the plan's own day, the user's day, fulfils nothing."""

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import FakeVectors, dt


def _plans(mem, user_id):
    return sorted(f.status for f in mem.facts(user_id, history=True) if f.modality == "planned")


def test_an_outcome_told_beside_the_plan_told_again_fulfils_nothing(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [
        SessionRecord("s1", dt(2024, 2, 1), [
            TurnRecord("user", "I'm planning a trip to Chicago next month.")]),
        SessionRecord("s2", dt(2024, 2, 20), [
            TurnRecord("user", "I'm planning a trip to Chicago soon and need restaurant tips. "
                               "I went to Chicago for a funeral once.")])])])
    told = [f for f in mem.facts(user_id, history=True) if f.slot == "user|plan|chicago"]
    assert {f.modality for f in told} == {"planned", "asserted"}  # the rules read both
    assert _plans(mem, user_id) == ["active", "active"]
    mem.ingest([Transcript(user_id, [SessionRecord("s3", dt(2024, 4, 2), [
        TurnRecord("user", "I went to Chicago last week, it was great!")])])])
    assert _plans(mem, user_id) == ["superseded", "superseded"]


def test_an_untimed_outcome_on_the_plans_own_day_is_the_users_day(graph, new_user):
    # 3 pm and 6 pm in Los Angeles: the same day there, two days in UTC
    def told(zone):
        mem = Memory(graph, embedder=FakeVectors())
        uid = new_user()
        if zone:
            mem.set_time_zone(uid, zone)
        mem.ingest([Transcript(uid, [
            SessionRecord("s1", dt(2024, 5, 24, 22), [
                TurnRecord("user", "I'm planning a trip to Chicago.")]),
            SessionRecord("s2", dt(2024, 5, 25, 1), [
                TurnRecord("user", "I went to Chicago, it was great!")])])])
        return _plans(mem, uid)

    assert told("America/Los_Angeles") == ["active"]
    assert told(None) == ["superseded"]
