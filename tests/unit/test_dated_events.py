"""Dated events said in ways the first rules did not read: the time before the subject ("A
week ago I …"), a thing of the user's as the subject ("my laptop died"), other people's deeds
with any past verb ("my son broke his arm"), an appointment one has ("I've got an interview on
Friday": ahead). Each case gives the day the event resolves to, as ingest resolves it (a
planned event prefers the future)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graphmem.extract.offline import OfflineExtractor
from graphmem.temporal import resolve_time_expression

X = OfflineExtractor()
THU = datetime(2025, 6, 12, 15, tzinfo=UTC)  # a Thursday

CASES = [
    # the time leads
    ("A week ago I finally handed in my thesis.", "did", "handed in my thesis", date(2025, 6, 5)),
    ("Last Tuesday, we repainted the spare room.", "renovated", "spare room",
     date(2025, 6, 10)),
    ("In April I ran my first 10k.", "ran", "first 10k", date(2025, 4, 1)),
    ("Two Sundays ago we drove up to the lakes.", "did", "drove up to the lakes",
     date(2025, 6, 1)),
    # a thing of the user's
    ("My car broke down on the motorway yesterday.", "did", "car broke", date(2025, 6, 11)),
    ("Our boiler packed in the night before last.", "did", "boiler packed", date(2025, 6, 10)),
    ("My first day at the new place is the day after tomorrow.", "did", "first day at the new place",
     date(2025, 6, 14)),
    ("A couple of days ago my phone screen cracked.", "did", "phone screen cracked",
     date(2025, 6, 10)),
    # other people's deeds, any past verb
    ("My niece passed her driving test on Monday!", "niece_event", "passed her driving test",
     date(2025, 6, 9)),
    ("My husband sprained his ankle three days ago.", "spouse_event", "sprained his ankle",
     date(2025, 6, 9)),
    ("Dad's flying in at the end of the month.", "father_event", "flying in", date(2025, 6, 21)),
    # an appointment one has, on a bare weekday: the coming one
    ("I have a dentist appointment on Monday.", "did", "dentist appointment",
     date(2025, 6, 16)),
    ("I've got my citizenship interview on Friday.", "did", "got my citizenship interview",
     date(2025, 6, 13)),
    # an obligation ahead is a plan: the coming Monday, not the last one
    ("I have to give a presentation on Monday.", "did", "give a presentation",
     date(2025, 6, 16)),
    ("I had to return the van on Monday.", "did", "had to return the van", date(2025, 6, 9)),
    # "having" guests or a party is a plan, not a state of mind
    ("We're having friends over on Saturday.", "did", "having friends over", date(2025, 6, 14)),
    # months and years back count from the day, as weeks do
    ("I got my braces off four months ago.", "did", "got my braces off", date(2025, 2, 12)),
    # a named person's event moved: the new day, ahead, though the verb is past
    ("Ugh, Marco's graduation got pushed back to the 3rd of July.", "person_event",
     "graduation got pushed back", date(2025, 7, 3)),
    ("Sam's surgery has been rescheduled for the 20th of June.", "person_event",
     "surgery has been rescheduled", date(2025, 6, 20)),
    # several relatives at once, with a plural possessive or a plural verb
    ("My grandparents' golden anniversary is on the 2nd of August.",
     "grandparents_event", "golden anniversary", date(2025, 8, 2)),
    ("Our neighbours' barbecue is next Saturday, should I bring something?", "neighbors_event",
     "barbecue", date(2025, 6, 14)),  # the coming Saturday, as the project reads it
    ("My in-laws are flying in on the 30th.", "in_laws_event", "flying in", date(2025, 6, 30)),
    ("The twins start nursery on Monday", None, None, None),
    ("Our kids start swimming lessons on Monday.", "children_event", "swimming lessons",
     date(2025, 6, 16)),
    ("My cousins were in town last weekend.", "cousins_event", "in town", date(2025, 6, 7)),
    # the "I" left out, as people write in chat
    ("Got my ears pierced on Saturday!", "did", "got my ears pierced", date(2025, 6, 7)),
    ("Finally sorted out the garage yesterday.", "did", "sorted out the garage",
     date(2025, 6, 11)),
    ("Lost my wallet on the bus two days ago, so annoying.", "did", "lost my wallet",
     date(2025, 6, 10)),
    # a thing's day said as booked: as "is on"
    ("My driving test is booked for the 14th of June.", "did", "driving test",
     date(2025, 6, 14)),
    ("Our boiler service is scheduled for next Tuesday.", "did", "boiler service",
     date(2025, 6, 17)),
    # seasons counted back, New Year said without its "'s"
    ("I learned to surf two summers ago in Cornwall.", "learned", "surf",
     date(2023, 6, 1)),
    ("We broke up over New Year.", "did", "broke up", date(2025, 1, 1)),
]


@pytest.mark.parametrize(("text", "predicate", "value", "day"), CASES,
                         ids=[c[0][:40] for c in CASES])
def test_dated_event(text, predicate, value, day):
    if predicate is None:  # no "my" or "our": whose twins is not said
        assert not [f for f in X.extract(text, "user") if f.predicate.endswith("_event")]
        return
    found = [f for f in X.extract(text, "user") if f.predicate == predicate and f.time_text]
    assert found, [(f.predicate, f.value, f.time_text) for f in X.extract(text, "user")]
    f = found[0]
    assert value.lower() in (f.value or "").lower() + " " + f.text.lower()
    prefer = "future" if f.modality == "planned" else "past"
    when = resolve_time_expression(f.time_text, THU, prefer=prefer)
    assert when.resolved and when.start.date() == day, (f.time_text, when)


@pytest.mark.parametrize("text", [
    "My son asked me yesterday whether we could get a dog.",  # words, not a deed
    "If my flight is delayed on Friday I'll miss the wedding.",  # conditional
    "The conference I'm speaking at is in three weeks.",  # no "did" of "speaking at is"
    "We're having trouble with the landlord this week.",  # a state, not an event
    "Excited for the gig on Friday!",  # a feeling, its "I" left out
    "Stressed out about the exam tomorrow.",
    "Need to ring the bank tomorrow.",
])
def test_look_alikes_give_no_dated_deed(text):
    bad = [f for f in X.extract(text, "user") if f.predicate in ("did", "son_event")]
    assert not bad, [(f.predicate, f.value) for f in bad]
