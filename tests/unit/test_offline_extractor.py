"""The offline rule-based extractor: pattern families, honesty on negatives, spans and speed."""

from __future__ import annotations

import random
import time

import pytest

from graphmem.extract import Extractor, OfflineExtractor
from graphmem.models import FactCandidate

X = OfflineExtractor()

# (role, sentence, kind, predicate, value, modality, time_text or None for "don't care")
POSITIVE = [
    # preferences and dislikes
    ("user", "I love hiking in the mountains.", "preference", "likes",
     "hiking in the mountains", "asserted", None),
    ("user", "I really enjoy cooking Thai food, especially curries.", "preference", "likes",
     "cooking Thai food", "asserted", None),
    ("user", "I can't stand loud music.", "preference", "dislikes", "loud music", "asserted",
     None),
    ("user", "I hate cilantro.", "preference", "dislikes", "cilantro", "asserted", None),
    ("user", "I don't like spicy food anymore.", "preference", "likes", "spicy food", "negated",
     None),
    ("user", "I prefer tea over coffee.", "preference", "likes", "tea", "asserted", None),
    ("user", "My favorite restaurant is Thai Basil.", "preference", "favorite_restaurant",
     "Thai Basil", "asserted", None),
    ("user", "My favourite type of music is jazz.", "preference", "favorite_music", "jazz",
     "asserted", None),
    ("user", "Sushi Den is my favorite restaurant.", "preference", "favorite_restaurant",
     "Sushi Den", "asserted", None),
    # where they live, work, study
    ("user", "I live in Denver, Colorado.", "attribute", "lives_in", "Denver, Colorado",
     "asserted", None),
    ("user", "I moved to Seattle last year.", "event", "lives_in", "Seattle", "asserted",
     "last year"),
    ("user", "I relocated to Austin in March for work.", "event", "lives_in", "Austin",
     "asserted", "in March"),
    ("user", "I'm from Ohio originally.", "attribute", "from", "Ohio", "asserted", None),
    ("user", "I no longer live in Boston.", "attribute", "lives_in", "Boston", "negated", None),
    ("user", "I've lived in Denver for five years.", "attribute", "lives_in", "Denver",
     "asserted", None),
    ("user", "I work at Google as a software engineer.", "attribute", "works_at", "Google",
     "asserted", None),
    ("user", "I got a job at Microsoft last week.", "event", "works_at", "Microsoft", "asserted",
     "last week"),
    ("user", "I started working at Acme Robotics.", "event", "works_at", "Acme Robotics",
     "asserted", None),
    ("user", "I study at Stanford.", "attribute", "studies_at", "Stanford", "asserted", None),
    ("user", "I'm a student at UCLA.", "attribute", "studies_at", "UCLA", "asserted", None),
    ("user", "I'm a nurse.", "attribute", "occupation", "nurse", "asserted", None),
    ("user", "I'm a software engineer at Amazon.", "attribute", "occupation",
     "software engineer", "asserted", None),
    ("user", "I'm a software engineer at Amazon.", "attribute", "works_at", "Amazon",
     "asserted", None),
    ("user", "I work as a graphic designer.", "attribute", "occupation", "graphic designer",
     "asserted", None),
    # stopping and switching
    ("user", "I quit my job at Google last month.", "event", "works_at", "Google", "negated",
     "last month"),
    ("user", "I don't work at Google anymore.", "attribute", "works_at", "Google", "negated",
     None),
    ("user", "I left Acme Corp in January.", "event", "left", "Acme Corp", "asserted",
     "in January"),
    ("user", "I stopped running after my knee injury.", "event", "does:running", "running",
     "negated", None),
    ("user", "I gave up smoking two years ago.", "event", "does:smoking", "smoking", "negated",
     "two years ago"),
    ("user", "I switched from coffee to tea.", "event", "uses", "tea", "asserted", None),
    # possessions and counts
    ("user", "I have two cats.", "possession", "owns_count:cat", "2", "asserted", None),
    ("user", "I have a dog named Max.", "possession", "owns:dog", "Max", "asserted", None),
    ("user", "We adopted another cat yesterday.", "possession", "owns_count:cat", "+1",
     "asserted", "yesterday"),
    ("user", "I just got a new puppy!", "possession", "owns_count:dog", "+1", "asserted", None),
    ("user", "I've got three dogs.", "possession", "owns_count:dog", "3", "asserted", None),
    ("user", "I bought a new car last weekend.", "event", "bought", "new car", "asserted",
     "last weekend"),
    ("user", "I own a Tesla Model 3.", "possession", "owns", "Tesla Model 3", "asserted", None),
    ("user", "I have three kids.", "relationship", "count:child", "3", "asserted", None),
    # relationships
    ("user", "My sister Sarah is visiting next week.", "relationship", "sister", "Sarah",
     "asserted", None),
    ("user", "My wife is Anna.", "relationship", "spouse", "Anna", "asserted", None),
    ("user", "I went hiking with my friend Tom.", "relationship", "friend", "Tom", "asserted",
     None),
    ("user", "My boss, Mark, is really demanding.", "relationship", "boss", "Mark", "asserted",
     None),
    ("user", "Sarah is my best friend.", "relationship", "friend", "Sarah", "asserted", None),
    ("user", "I'm married.", "relationship", "marital_status", "married", "asserted", None),
    ("user", "I got engaged in June!", "relationship", "marital_status", "engaged", "asserted",
     "in June"),
    # plans and hypotheticals
    ("user", "I'm planning to visit Japan next spring.", "plan", "plans", "visit Japan",
     "planned", "next spring"),
    ("user", "I'm going to start a new diet next week.", "plan", "plans", "start a new diet",
     "planned", "next week"),
    ("user", "I will run the Boston Marathon in April.", "plan", "plans",
     "run the Boston Marathon", "planned", "in April"),
    ("user", "I plan to learn Spanish.", "plan", "plans", "learn Spanish", "planned", None),
    ("user", "I'm moving to Denver next month.", "plan", "plans", "move to Denver", "planned",
     "next month"),
    ("user", "I'm thinking about adopting a dog.", "plan", "plans", "adopting a dog",
     "hypothetical", None),
    ("user", "I might move to Portland.", "plan", "plans", "move to Portland", "hypothetical",
     None),
    # events, with and without dates
    ("user", "I went to the dentist yesterday.", "event", "went_to", "dentist", "asserted",
     "yesterday"),
    ("user", "I visited Paris last summer with my wife.", "event", "visited", "Paris",
     "asserted", "last summer"),
    ("user", "I attended a photography workshop on Saturday.", "event", "attended",
     "photography workshop", "asserted", "on Saturday"),
    ("user", "I finished my first novel last month.", "event", "finished", "first novel",
     "asserted", "last month"),
    ("user", "I started a podcast three weeks ago.", "event", "started", "podcast", "asserted",
     "three weeks ago"),
    ("user", "I ran a marathon in October.", "event", "ran", "marathon", "asserted",
     "in October"),
    ("user", "Yesterday, I went to the farmers market.", "event", "went_to", "farmers market",
     "asserted", "Yesterday"),
    ("user", "I've never been to Japan.", "event", "visited", "Japan", "negated", None),
    # counts of achievements
    ("user", "I've now run five marathons.", "attribute", "count:marathon", "5", "asserted",
     None),
    ("user", "This is my third marathon this year.", "attribute", "count:marathon", "3",
     "asserted", None),
    ("user", "I've read 12 books this year.", "attribute", "count:book", "12", "asserted", None),
    # ongoing activities, cars, age, birthdays
    ("user", "I've been learning Spanish for six months.", "attribute", "does:learning_spanish",
     "learning Spanish", "asserted", None),
    ("user", "I've been using Spotify for music.", "attribute", "uses", "Spotify", "asserted",
     None),
    ("user", "I recently switched to Apple Music.", "event", "uses", "Apple Music", "asserted",
     "recently"),
    ("user", "I'm currently reading \"The Lean Startup\".", "attribute", "reading",
     "Lean Startup", "asserted", None),
    ("user", "I drive a Honda Civic.", "possession", "drives", "Honda Civic", "asserted", None),
    ("user", "I just turned 32 last month.", "attribute", "age", "32", "asserted", None),
    ("user", "My birthday is on March 5th.", "attribute", "birthday", "March 5th", "asserted",
     None),
    ("user", "I recently moved into a new apartment in Brooklyn.", "event", "lives_in",
     "Brooklyn", "asserted", None),
    ("user", "My cat Luna passed away last month.", "possession", "owns:cat", "Luna", "negated",
     "last month"),
    # the assistant's recommendations
    ("assistant", "I recommend Thai Basil, a great spot for curry.", "recommendation",
     "recommended", "Thai Basil", "asserted", None),
    ("assistant", "I'd suggest trying the Blue Ridge Trail for a moderate hike.",
     "recommendation", "recommended", "Blue Ridge Trail", "asserted", None),
    ("assistant", "You could try meditation before bed.", "recommendation", "recommended",
     "meditation before bed", "asserted", None),
    ("assistant", "I suggest Lao Sze Chuan for dinner.", "recommendation", "recommended",
     "Lao Sze Chuan", "asserted", None),
    # other speaker roles speak in the first person like the user
    ("Caroline", "I love painting sunsets.", "preference", "likes", "painting sunsets",
     "asserted", None),
]

NEGATIVE = [
    ("user", "Do I like pizza?"),
    ("user", "Do you like pizza?"),
    ("user", "Do you like pizza"),
    ("user", "Should I move to Denver"),
    ("user", "What do I usually order at Thai Basil?"),
    ("user", "I think so."),
    ("user", "I'm not sure."),
    ("user", "That's great!"),
    ("user", "Thanks, that's really helpful."),
    ("user", "Hello, how are you today?"),
    ("user", "I like that idea."),
    ("user", "I love it!"),
    ("user", "I love your suggestion."),
    ("user", "I'll keep that in mind."),
    ("user", "I'll let you know how it goes."),
    ("user", "I have a question about my taxes."),
    ("user", "I have two weeks off."),
    ("user", "I'm a little confused."),
    ("user", "I'm a morning person."),
    ("user", "I wonder if I should move to Austin."),
    ("user", "I don't think I like sushi."),
    ("user", "If I moved to Denver, would I need a car?"),
    ("user", "If I moved to Denver, I'd need a car."),
    ("user", "I'm not going to move."),
    ("user", "And now explain it like I'm 5 years old."),
    ("user", '"I\'m gonna make him an offer he can\'t refuse" - that was a great line.'),
    ("user", "I read a few of them."),
    ("user", "I'm doing great, thanks."),
    ("user", "I used to drive an hour to work every day."),
    ("assistant", "I understand how you feel."),
    ("assistant", "You might consider genres like:"),
    ("assistant", "Here are some options: Thai Basil and Pho King."),
    ("assistant", "I recommend the following:"),
    ("assistant", "Would you like me to suggest some restaurants?"),
    ("system", "I love pizza."),
]


def _matches(f: FactCandidate, kind: str, predicate: str, value: str, modality: str) -> bool:
    return (f.kind, f.predicate, f.value, f.modality) == (kind, predicate, value, modality)


@pytest.mark.parametrize("role,text,kind,predicate,value,modality,time_text", POSITIVE,
                         ids=[f"{p[3]}:{p[1][:30]}" for p in POSITIVE])
def test_pattern_families(role: str, text: str, kind: str, predicate: str, value: str,
                          modality: str, time_text: str | None) -> None:
    facts = X.extract(text, role)
    hits = [f for f in facts if _matches(f, kind, predicate, value, modality)]
    assert hits, f"no {kind}/{predicate}={value!r}/{modality} in {facts!r}"
    f = hits[0]
    assert f.support and f.support in text
    if time_text is not None:
        assert f.time_text == time_text
        assert time_text in f.support
    assert f.text.endswith(".") and f.text[0].isupper()
    assert f.roles and f.roles[0].role == "subject"
    expected_subject = "assistant" if role == "assistant" else "user"
    assert f.subject == expected_subject and f.roles[0].name == expected_subject


@pytest.mark.parametrize("role,text", NEGATIVE, ids=[n[1][:40] for n in NEGATIVE])
def test_no_fact_when_unsure(role: str, text: str) -> None:
    assert X.extract(text, role) == []


def test_conditional_move_is_never_an_asserted_home() -> None:
    for text in ("If I moved to Denver, I'd need a car.", "If I move to Denver, I will buy a car.",
                 "If I get the job, I will move to Seattle.", "Suppose I lived in Paris."):
        for f in X.extract(text, "user"):
            assert f.modality == "hypothetical", f
            assert f.predicate != "lives_in"


def test_negation_and_past_do_not_claim_the_present() -> None:
    (used,) = [f for f in X.extract("I used to live in Chicago.", "user")
               if f.predicate == "lives_in"]
    assert used.modality == "negated"
    past = X.extract("I worked at IBM before.", "user")
    assert [(f.predicate, f.value) for f in past] == [("worked_at", "IBM")]


def test_support_is_verbatim_and_values_are_clean() -> None:
    text = "  Honestly,   I   moved to the   Netherlands   last   year!  "
    (f,) = X.extract(text, "user")
    assert f.support in text and f.support == "I   moved to the   Netherlands   last   year"
    assert f.value == "Netherlands" and f.time_text is not None
    said = "I'd recommend **The Name of the Wind** by Patrick Rothfuss."
    (rec,) = X.extract(said, "assistant")
    assert rec.value == "Name of the Wind by Patrick Rothfuss"
    assert rec.support == "I'd recommend **The Name of the Wind** by Patrick Rothfuss"


def test_object_phrases_stop_at_clause_boundaries() -> None:
    (f,) = [f for f in X.extract("I love sushi, but my wife hates it.", "user")
            if f.predicate == "likes"]
    assert f.value == "sushi"
    long = X.extract("I love " + " ".join(["very"] * 3 + ["long"] * 20) + " walks.", "user")
    assert all(len((f.value or "").split()) <= 8 for f in long)
    rec = X.extract("I recommend " + "a " * 100 + "thing.", "assistant")
    assert all(len(r.value or "") <= 120 for r in rec)


def test_readable_text_is_third_person() -> None:
    texts = {f.text for s in ("I live in Denver.", "I have two cats.", "I visited my parents.")
             for f in X.extract(s, "user")}
    assert "User lives in Denver." in texts and "User has 2 cats." in texts
    assert "User visited their parents." in texts
    rec = X.extract("I recommend Thai Basil.", "assistant")
    assert [r.text for r in rec] == ["Assistant recommended Thai Basil."]


def test_roles_carry_entity_types() -> None:
    (home,) = X.extract("I live in Denver.", "user")
    assert [(r.role, r.name, r.type) for r in home.roles] == [
        ("subject", "user", "person"), ("location", "Denver", "place")]
    (job,) = [f for f in X.extract("I work at Acme Robotics.", "user")]
    assert ("employer", "Acme Robotics", "organization") in [(r.role, r.name, r.type)
                                                               for r in job.roles]
    (sis,) = X.extract("My sister Sarah lives in Boston.", "user")[:1]
    assert ("object", "Sarah", "person") in [(r.role, r.name, r.type) for r in sis.roles]


def test_deterministic_and_a_protocol_implementation() -> None:
    assert isinstance(X, Extractor) and X.name
    sentences = [p[1] for p in POSITIVE] + [n[1] for n in NEGATIVE]
    assert [X.extract(s, "user") for s in sentences] == [
        OfflineExtractor().extract(s, "user") for s in sentences]


def test_every_support_is_a_substring_on_noisy_input() -> None:
    rng = random.Random(7)
    words = ("I my we love moved to Denver have two cats yesterday , . ? ! the a my sister Sarah "
             "will visit Paris next week I'm a nurse at Google favorite restaurant is Thai Basil "
             "recommend try you could bought own stopped started quit job at").split()
    for _ in range(3000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 18)))
        for role in ("user", "assistant"):
            for f in X.extract(text, role):
                assert f.support and f.support in text, (text, f)


def _synthetic(n: int) -> list[str]:
    rng = random.Random(1)
    templates = [
        "I live in {place} and I love {thing}.", "I moved to {place} {when}.",
        "My favorite restaurant is {org}.", "I have {num} cats.", "I went to the {thing} {when}.",
        "Can you help me plan a trip to {place}?", "That sounds great, thanks!",
        "I'm planning to visit {place} {when}.", "The weather in {place} is nice in spring.",
        "My sister {name} works at {org}.", "I'm a nurse at {org}.",
        "It was a long day and the traffic was terrible.", "What do you think about {thing}?",
    ]
    fill = {"place": ["Denver", "Paris", "New York City", "Austin, Texas"],
            "thing": ["hiking", "sushi", "jazz", "dentist", "farmers market"],
            "when": ["yesterday", "last week", "two months ago", "in March", "next summer"],
            "org": ["Google", "Thai Basil", "Acme Robotics"], "num": ["two", "three", "4"],
            "name": ["Sarah", "Tom", "Anna"]}
    return [rng.choice(templates).format(**{k: rng.choice(v) for k, v in fill.items()})
            for _ in range(n)]


def test_throughput_print() -> None:
    sentences = _synthetic(5000)
    start = time.perf_counter()
    facts = sum(len(X.extract(s, "user")) for s in sentences)
    elapsed = time.perf_counter() - start
    print(f"\noffline extractor: {len(sentences) / elapsed:,.0f} sentences/s "
          f"({facts} facts from {len(sentences)} sentences)")
    assert facts > 0


def test_a_value_cut_at_its_word_limit_keeps_a_name_whole() -> None:
    from graphmem.extract.text import bounded

    text = "a half-day writing workshop at the Los Angeles Public Library today"
    # seven words end inside the name: the name runs on to its end, not into "today"
    assert text[:bounded(text, 0, max_words=8)].endswith("Los Angeles Public Library")
    # a limit that ends on a plain word cuts there; a weekday after a name is no part of it
    assert text[:bounded(text, 0, max_words=4)] == "a half-day writing workshop"
    text = "a gig at the Brudenell Monday night"
    assert text[:bounded(text, 0, max_words=5)] == "a gig at the Brudenell"
    [fact] = [c for c in OfflineExtractor().extract(
        "I just attended a half-day writing workshop at the Los Angeles Public Library today.",
        "user") if c.predicate == "attended"]
    assert fact.value.endswith("Los Angeles Public Library")
