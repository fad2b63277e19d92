"""How people state changing facts, in phrasings the scenario suite does not use: perfect tenses,
"haven't … in ages", "it's N X now", "one of our X died", a last day at work, a trip that is off,
values that stop before a time or a degree word. Each case names the fact the offline extractor
must produce (predicate, value, modality) and, for some, what it must not."""

from __future__ import annotations

import pytest

from graphmem.extract.offline import OfflineExtractor
from graphmem.extract.text import activity_key

X = OfflineExtractor()

CASES = [
    # stopping, in the perfect and with other verbs
    ("I've given up soda completely.", "avoids", "soda", "asserted"),
    ("We've dropped pilates since the studio closed.", "does:pilates", "pilates", "negated"),
    ("I haven't played squash in months.", "does:squash", "squash", "negated"),
    ("Honestly I haven't had sugar in weeks.", "avoids", "sugar", "asserted"),
    # cutting down without "cut"
    ("I'm eating less red meat these days.", "reduces", "red meat", "asserted"),
    # frequencies beyond "every"
    ("I run most mornings before work.", "does:running", "running", "asserted"),
    ("Most Saturdays after breakfast we cycle to the lake.", "does:cycling", "cycling",
     "asserted"),
    # starting again, coming back
    ("I'm back on the guitar after a year off.", "does:guitar", "guitar", "asserted"),
    ("We're just back from Crete.", "returned_from", "Crete", "asserted"),
    # counts
    ("It's four chickens now, we kept two of the chicks.", "owns_count:chicken", "4", "asserted"),
    ("Two of our goldfish died last week.", "owns_count:fish", "-2", "asserted"),
    ("We ended up getting a second dog.", "owns_count:dog", "2", "asserted"),
    ("I've got three bikes in the garage.", "owns_count:bike", "3", "asserted"),
    # jobs
    ("Yesterday was my last day at Oracle.", "works_at", "Oracle", "negated"),
    ("I started at Spotify last month.", "works_at", "Spotify", "asserted"),
    ("I got bumped up to team lead in March.", "occupation", "team lead", "asserted"),
    # plans
    ("We're going to Lisbon in October.", "plans", "go to Lisbon", "planned"),
    ("We're not going to Lisbon anymore, flights got too pricey.", "cancelled", "go to Lisbon",
     "asserted"),
    ("Lisbon's off, we couldn't get the time.", "cancelled", "Lisbon", "asserted"),
    # preferences
    ("I'm a die-hard fan of the Mets.", "likes", "Mets", "asserted"),
    ("Horror films just don't do it for me anymore.", "dislikes", "Horror films", "asserted"),
    ("I've grown to love sushi.", "likes", "sushi", "asserted"),
    ("Lately I'm totally into bouldering.", "likes", "bouldering", "asserted"),
    ("I am not allergic to shellfish after all.", "allergic_to", "shellfish", "negated"),
    # homes said indirectly
    ("We're renting a tiny two-bed flat in Leeds now.", "lives_in", "Leeds", "asserted"),
    ("We got the keys to our new house in Austin on Friday.", "lives_in", "Austin", "asserted"),
    ("Now that I'm living out in Boulder the winters are long.", "lives_in", "Boulder",
     "asserted"),
    ("Getting to work from our new flat in Hackney takes ages.", "lives_in", "Hackney",
     "asserted"),
    # plans called off, children counted
    ("We decided to scrap the kitchen extension.", "cancelled", "kitchen extension", "asserted"),
    ("Kid number three was born on Friday, we're over the moon!", "count:child", "3", "asserted"),
    ("I haven't ridden since the crash, honestly I haven't played golf since June either.",
     "does:golfing", "golf", "negated"),
    # habits in the progressive or with a habit adverb, an app used all the time, habits ended
    ("I've been knitting every evening since the baby came.", "does:knitting", "knitting",
     "asserted"),
    ("I normally have a glass of wine after work.", "consumes", "wine", "asserted"),
    ("I'm on Instagram way too much, it's a problem.", "uses", "Instagram", "asserted"),
    ("We used to hike a lot before the kids.", "does:hiking", "hiking", "negated"),
    ("I quit cola cold turkey in January.", "avoids", "cola", "asserted"),
    # said without "I": the speaker is the subject
    ("Just back from Marrakech, what a trip!", "returned_from", "Marrakech", "asserted"),
    ("Adopted two more hens at the weekend.", "owns_count:chicken", "+2", "asserted"),
    # a number taken back at once; an employer said in passing
    ("We've got four kids, sorry, five, I keep forgetting the baby.", "count:child", "5",
     "asserted"),
    ("I teach maths at Holloway Academy.", "works_at", "Holloway Academy", "asserted"),
    ("Loving my first month at Atlassian after quitting Canva.", "works_at", "Canva", "negated"),
    ("Loving my first month at Atlassian after quitting Canva.", "works_at", "Atlassian",
     "asserted"),
    ("No, I never worked for Deloitte, I'm still with KPMG.", "works_at", "KPMG", "asserted"),
    # on advice, an amount a day, a habit that went out the window
    ("My GP wants me to cut out sugar for a month.", "avoids", "sugar", "asserted"),
    ("The physio told me to cut back on running.", "reduces", "running", "asserted"),
    ("I'm on about four teas a day.", "consumes", "tea", "asserted"),
    ("Our Sunday hikes went out the window once the baby came.", "does:hiking", "hiking",
     "negated"),
    # a count said without "I"; a job left for the next; long hours at a place; a promotion
    ("Twins arrived in March, so that's four kids now.", "count:child", "4", "asserted"),
    ("Gave my notice in at Accenture, starting at Wise after Easter.", "works_at", "Accenture",
     "negated"),
    ("Gave my notice in at Accenture, starting at Wise after Easter.", "works_at", "Wise",
     "asserted"),
    ("Another 12-hour shift at St Thomas' tonight.", "works_at", "St Thomas", "asserted"),
    ("Finally got promoted, lead engineer from next month!", "occupation", "lead engineer",
     "asserted"),
    # a test ahead is a plan
    ("I'm sitting my driving test on the 14th, wish me luck.", "plans", "take the driving test",
     "planned"),
    # one key per activity however it is named: a time word, a clock time, a generic head
    ("Gave up on the nightly journaling thing ages ago.", "does:journaling",
     "nightly journaling thing", "negated"),
    ("We quit the Thursday walking group after the leader moved.", "does:walking",
     "Thursday walking group", "negated"),
    ("I've started doing 6am laps at the lido before work.", "does:swimming",
     "swimming (laps)", "asserted"),
    ("I've taken up knitting to keep my hands busy.", "does:knitting", "knitting", "asserted"),
    ("I packed in the salsa classes, my knees hated them.", "does:salsa", "salsa classes",
     "negated"),
    ("I jacked in my job at the council in the end.", "works_at", "council", "negated"),
    # joining a club, class or team for an activity takes it up; quitting it ends it
    ("We joined a Thursday cycling club last spring.", "does:cycling", "Thursday cycling club",
     "asserted"),
    ("Quit the cycling club back in May, my knees weren't having it.", "does:cycling",
     "cycling club", "negated"),
    ("Guess who enrolled in ceramics classes again!", "does:ceramics", "ceramics classes",
     "asserted"),
    # counts said with "number N", "N fewer … now", "another two", a verb of keeping
    ("Rabbit number four came home with us on Saturday.", "owns_count:rabbit", "4", "asserted"),
    ("Long story, but that's one fewer goldfish now.", "owns_count:fish", "-1", "asserted"),
    ("We sold another two of the bikes at the car boot.", "owns_count:bike", "-2", "asserted"),
    ("We keep three goats at the allotment.", "owns_count:goat", "3", "asserted"),
    # an obligation taken on about food
    ("After the scan I've got to stay away from alcohol for good.", "avoids", "alcohol",
     "asserted"),
    ("I can no longer eat shellfish, doctor's orders.", "avoids", "shellfish", "asserted"),
    # a diet taken up, a liking that began, giving up with "off"
    ("We've decided to go vegan this year.", "diet", "vegan", "asserted"),
    ("I turned pescatarian after that documentary.", "diet", "pescatarian", "asserted"),
    ("I've gotten into birdwatching, weirdly.", "likes", "birdwatching", "asserted"),
    ("I've been off caffeine since March.", "avoids", "caffeine", "asserted"),
    # counts: after an arrival, given away, the noun said before the number
    ("We have three kids since the baby came along.", "count:child", "3", "asserted"),
    ("We gave three of the puppies to friends.", "owns_count:dog", "-3", "asserted"),
    ("Bought one more plant, that's twelve now.", "owns_count:plant", "12", "asserted"),
    ("I'm down to two beers a week.", "reduces", "beer", "asserted"),
    # a trip that did not happen, a home said with "now we're in"
    ("We ended up not going to Vienna in the end.", "cancelled", "Vienna", "asserted"),
    ("We moved house in May and now we're in Hove.", "lives_in", "Hove", "asserted"),
    # jobs
    ("I was made redundant from Arup in June.", "works_at", "Arup", "negated"),
    ("Started my new job at Ocado on Monday.", "works_at", "Ocado", "asserted"),
    # starting again, a favourite replaced in one breath
    ("I've gone back to pottery after the summer.", "does:pottery", "pottery", "asserted"),
    ("Tea used to be my favourite drink, now it's coffee.", "favorite_drink", "coffee",
     "asserted"),
    ("Tea used to be my favourite drink, now it's coffee.", "favorite_drink", "Tea", "negated"),
    # other people's dated events: a parent named without "my", a named person
    ("Mum's having her hip done on the 9th, fingers crossed.", "mother_event",
     "having her hip done on the 9th", "planned"),
    ("Tom got engaged last weekend, so happy for him.", "person_event", "got engaged last weekend",
     "asserted"),
    # a liking said with "been" ("be" was required and "been" was not counted as it)
    ("I've been really into pottery lately.", "likes", "pottery", "asserted"),
    ("We've been obsessed with Korean dramas this year.", "likes", "Korean dramas", "asserted"),
    # a role held for a while, the next employer "now", a home said through who lives there
    ("Nine years as a paramedic at St Luke's and I still love it.", "occupation", "paramedic",
     "asserted"),
    ("Nine years as a paramedic at St Luke's and I still love it.", "works_at", "St Luke's",
     "asserted"),
    ("Quit Deloitte in the spring and now I'm at KPMG.", "works_at", "KPMG", "asserted"),
    ("Our housemates in Leeds threw a party for us.", "lives_in", "Leeds", "asserted"),
    ("My flat in Hackney is freezing this week.", "lives_in", "Hackney", "asserted"),
    ("Sold the Leeds flat at last, so that's that.", "lives_in", "Leeds", "negated"),
    # an employer corrected, a role begun, a role some weeks in
    ("Correction: I'm not at Barclays, I'm at HSBC.", "works_at", "HSBC", "asserted"),
    ("Correction: I'm not at Barclays, I'm at HSBC.", "works_at", "Barclays", "negated"),
    ("I'm starting as a staff nurse at the Royal Free in June.", "occupation", "staff nurse",
     "asserted"),
    ("Three weeks into the new paralegal job and it's intense.", "occupation", "paralegal",
     "asserted"),
    ("had to withdraw from the Berlin half. knee's gone again.", "cancelled", "Berlin half",
     "asserted"),
    ("Second term teaching A-level physics at Hills Road and I love it.", "works_at",
     "Hills Road", "asserted"),
    # a return to meat ends a meat-free diet
    ("We've started eating beef again after ten years.", "diet", "omnivore", "asserted"),
    # a favourite named with where it is one: the kind of thing is the slot
    ("My favourite bakery in Bath is Colonna & Small's.", "favorite_bakery",
     "Colonna & Small's", "asserted"),
    ("My favourite film of all time is Paddington 2.", "favorite_film", "Paddington 2",
     "asserted"),
    ("My favourite bit of the holiday was the snorkelling.", "favorite_bit_of_the_holiday",
     "snorkelling", "asserted"),
    # a statement with the question after it in one sentence
    ("I adopted two rabbits last week, what should I feed them?", "owns_count:rabbit", "+2",
     "asserted"),
    ("We went pescatarian in March, help me with a shopping list?", "diet", "pescatarian",
     "asserted"),
    ("We're moving to Porto in the spring — any tips on neighbourhoods?", "plans",
     "move to Porto in the spring", "planned"),
]


@pytest.mark.parametrize(("key", "canonical"), [
    ("nightly_journal_thing", "journaling"), ("journal", "journaling"),
    ("journaling", "journaling"), ("sunday_run_club", "running"), ("runs", "running"),
    ("7am_lengths", "swimming"), ("pottery_classes", "pottery"), ("choir_practice", "choir"),
    ("book_club", "book"), ("pub_quiz", "pub_quiz"), ("running_marathons", "running_marathons"),
    ("weekend_stuff", "weekend_stuff"),  # nothing but time words and a head: kept as it was
    ("of_strength_training", "strength_training"),  # "20 minutes of strength training"
])
def test_one_key_per_activity(key, canonical):
    assert activity_key(key) == canonical


@pytest.mark.parametrize(("text", "predicate", "value", "modality"), CASES)
def test_the_change_is_extracted(text, predicate, value, modality):
    got = {(f.predicate, f.value, f.modality) for f in X.extract(text, "user")}
    assert (predicate, value, modality) in got, got


@pytest.mark.parametrize(("text", "predicate", "value"), [
    ("I started working at Canva on Monday.", "works_at", "Canva"),  # not "Canva on Monday"
    ("I drink green tea pretty much every day.", "consumes", "green tea"),  # not "… pretty"
    ("I go climbing most evenings.", "does:climbing", "climbing"),  # not "climbing most evenings"
])
def test_a_value_stops_before_a_time_or_degree_word(text, predicate, value):
    got = {(f.predicate, f.value) for f in X.extract(text, "user")}
    assert (predicate, value) in got, got


@pytest.mark.parametrize("text", [
    "I moved up to Seattle last year.",  # a move, not a promotion
    "I started at 9 this morning.",  # a time, not an employer
    "The lights are off.",  # no one's plan
    "It's two o'clock now.",  # no count
    "I haven't seen him in ages.",  # no habit
    "I'm back at work tomorrow.",  # a state regained, no hobby
    "I'm back to normal now.",
    "I usually go to bed around 11.",  # no hobby
    "My first week at Camp Juniper was a blast.",  # no employer without a word of work
    "Since leaving Denver I sleep better.",  # a city left, no job
    "Left Paris yesterday, I'm at Heathrow now.",  # a trip, no job
    "Left Rome after the conference and I'm at Fiumicino now waiting for my flight.",
    "After twelve years as a nurse at Mercy General I retrained.",  # a role that is over
    "I spent a few years as a barista at Blue Bottle.",
    "I'm not at Heathrow, I'm at Gatwick.",  # a place, not an employer corrected
    "My mum is teaching maths at Eton these days.",  # someone else's job
    "Three weeks into my training plan and my legs hurt.",  # no role
    "I started at Monday's class.",  # a day, no employer
    "I started at 7am sharp and finished at six.",  # a clock time, no activity
    "I joined Twitter back in 2010.",  # a platform joined, no activity
    # a role in a narrated past is no current occupation
    "I spent six years at the bureau, where towards the end I was promoted to head of design.",
])
def test_look_alikes_make_no_such_fact(text):
    preds = {f.predicate for f in X.extract(text, "user")}
    assert not preds & {"occupation", "works_at", "cancelled", "owns_count:o'clock"}, preds
    assert not any(p.startswith("does:") for p in preds), preds


@pytest.mark.parametrize("text", [
    "My old flatmate in Glasgow is visiting next week.",  # a home of the past
    "My roommate in Boston was a nightmare.",
    "My sister's flatmate in Paris is French.",  # someone else's home
])
def test_no_home_from_someone_elses_or_a_past_flatmate(text):
    assert "lives_in" not in {f.predicate for f in X.extract(text, "user")}


def test_meat_without_a_return_is_no_diet():
    for text in ("I'm eating chicken tonight.", "I love steak.", "My son eats meat again."):
        assert "diet" not in {f.predicate for f in X.extract(text, "user")}, text


@pytest.mark.parametrize("text", [
    "Should I move to Denver, or stay in Austin?",
    "If I quit my job at Acme, what should I do next?",
    "Do you think I have three cats too many, honestly?",
    "I wonder if I should move to Leeds, what do you think?",
])
def test_a_question_gives_no_fact(text):
    assert X.extract(text, "user") == []


def test_a_home_given_up_or_a_part_of_the_home_is_no_second_home():
    sold = {(f.value, f.modality) for f in X.extract("So we sold our house in Bath.", "user")
            if f.predicate == "lives_in"}
    assert sold == {("Bath", "negated")}
    part = X.extract("I've been living in Tokyo for months and settled into my apartment in "
                     "Kichijoji.", "user")
    assert {f.value for f in part if f.predicate == "lives_in"} == {"Tokyo"}


def test_dates_are_not_places_and_a_day_trip_is_no_time():
    facts = X.extract("The move to my new apartment in March was stressful for me.", "user")
    assert not [f for f in facts if f.predicate == "lives_in"]
    plan = X.extract("Maybe we'll squeeze in a day trip to Bruges if we have time.", "user")
    assert all(f.time_text is None for f in plan)


def test_an_adverb_is_no_activity():
    assert "does:regularly" not in {f.predicate for f in X.extract(
        "I've been playing regularly on Saturdays", "user")}


def test_a_test_drive_is_no_exam():
    facts = X.extract("I'm taking a test drive of the new Civic tomorrow.", "user")
    assert not [f for f in facts if "test" in (f.value or "") and "drive" not in f.value]


def test_a_name_does_not_run_across_a_full_stop():
    got = {(f.predicate, f.value) for f in X.extract(
        "As of today I work at Uber. Lyft was my old job.", "user")}
    assert ("works_at", "Uber") in got, got
    got = {(f.predicate, f.value) for f in X.extract("I work at J. Crew now.", "user")}
    assert ("works_at", "J. Crew") in got, got


@pytest.mark.parametrize("text", [
    "Preferred Vendors",  # a heading
    "applied to Astronomy and Physics",  # a piece that starts mid-sentence
    "I'm going to start making some changes in my daily routine",  # a plan, no habit
])
def test_no_fact_from_headings_fragments_or_adverbs(text):
    facts = X.extract(text, "user")
    assert not [f for f in facts if f.predicate.startswith("does:") or f.predicate in (
        "likes", "signed_up_for")], facts


@pytest.mark.parametrize("text", [
    "I can't have a dog in this flat, the landlord said no.",  # a rule, nothing avoided
    "I keep forgetting my keys.",  # no count
    "Page number three is here somewhere.",  # no pet, no count
    "Ugh, we're down to two now.",  # no noun said: no count of "now"
    "I'm off work until Monday.",  # time off, nothing given up
    "I'm off to Rome tomorrow.",  # a trip
    "I moved my car and I'm in Leeds for a meeting.",  # no move of home
    "I'm off to bake a cake for Sam.",  # off to do something: nothing given up
])
def test_look_alikes_make_no_count_or_avoidance(text):
    preds = {f.predicate for f in X.extract(text, "user")}
    assert not {p for p in preds if p.startswith(("owns_count:", "count:"))
                or p in ("avoids", "lives_in")}, preds


def _in_turn(turn):
    """Facts as ingest reads the turn: piece by piece, with the turn's words before each."""
    from graphmem.extract.base import extract_in_turn
    from graphmem.segment import pieces_of_turn

    return {(f.predicate, f.value, f.modality)
            for p in pieces_of_turn("u", "t", turn)
            for f in extract_in_turn(X, p.text, "user", turn[max(0, p.start - 300):p.start])}


@pytest.mark.parametrize(("turn", "expected"), [
    # the next employer in the sentence after the notice
    ("Gave my notice in at Boots on Friday! starting with Lush in March, can't wait.",
     ("works_at", "Lush", "asserted")),
    # a sentence that opens with an -ing verb and no subject is the user's
    ("Huge week. Relocating to Bristol in the spring for my partner's job.",
     ("plans", "relocate to Bristol in the spring", "planned")),
])
def test_a_subjectless_sentence_reads_the_turn_before_it(turn, expected):
    assert expected in _in_turn(turn), _in_turn(turn)


@pytest.mark.parametrize("turn", [
    "My brother's a chef. Working at Nobu now, lucky him.",  # about the brother
    "Living in Paris is a dream for most people.",  # the -ing phrase is the subject
])
def test_a_subjectless_sentence_about_someone_else_is_not_the_users(turn):
    got = _in_turn(turn)
    assert not {f for f in got if f[0] in ("works_at", "lives_in", "plans")}, got


@pytest.mark.parametrize("text", [
    "I've been a huge fan of hers for years.",  # a pronoun is no liking
    "I've gotten into the habit of stretching before bed.",  # a routine, not a liking
])
def test_look_alikes_make_no_liking(text):
    assert not [f for f in X.extract(text, "user") if f.predicate == "likes"]


@pytest.mark.parametrize("text", [
    "The wedding got engaged last weekend.",  # no person named ("The" is no name)
    "Monday had her baby yesterday.",  # a day is no person
    "Tom got engaged.",  # no time said: not a dated event
])
def test_look_alikes_make_no_named_event(text):
    assert not [f for f in X.extract(text, "user") if f.predicate == "person_event"]


@pytest.mark.parametrize(("text", "predicate", "value"), [
    ("Honestly I could eat dumplings every day, it's my favourite food.", "favorite_food",
     "dumplings"),
    ("Been rereading a lot of Le Guin lately - she's my all-time favourite author.",
     "favorite_author", "Le Guin"),
    ("We've been playing Carcassonne most weekends and it's our favourite game now.",
     "favorite_game", "Carcassonne"),
    ("The Grand Budapest Hotel is brilliant, it's my favourite film.", "favorite_film",
     "Grand Budapest Hotel"),
    ("I'm hooked on Wet Leg, they're my favourite band at the moment.", "favorite_band",
     "Wet Leg"),
])
def test_a_favourite_named_by_a_pronoun(text, predicate, value):
    """"X …, it's my favourite Y": the pronoun stands for the thing just said."""
    got = [(f.predicate, f.value) for f in X.extract(text, "user")]
    assert (predicate, value) in got, got


@pytest.mark.parametrize("text", [
    "My sister loves Coldplay, they're her favourite band.",  # someone else's favourite
    "I watched Dune with my brother, it's his favourite film.",
    "Yeah I ate there last week, it's my favourite restaurant.",  # no thing named
    "I love that you asked, it's my favourite topic.",
    "If I tried sushi, maybe it's my favourite food?",  # a question, hedged
    "I hate it when it rains, that's my favourite excuse.",
])
def test_no_favourite_from_a_pronoun_without_its_thing(text):
    got = [(f.predicate, f.value) for f in X.extract(text, "user")
           if f.predicate.startswith("favorite")]
    assert not got, got


@pytest.mark.parametrize(("turn", "predicate", "value"), [
    ("Sadly two of our hens died last week. So we're down to three now.", "owns_count:chicken",
     "3"),
    ("Picked up another bass at the weekend. That's five now!", "owns_count:bass", "5"),
    ("We sold two of the bikes in May. We're down to 2.", "owns_count:bike", "2"),
])
def test_a_bare_count_takes_its_noun_from_the_sentence_before(turn, predicate, value):
    """Ingest reads a turn piece by piece, with the words before each piece: "we're down to three
    now" counts what the sentence before counted."""
    from graphmem.segment import segment

    got = []
    for start, end in segment(turn):
        got += [(f.predicate, f.value) for f in X.extract(turn[start:end], "user", turn[:start])]
    assert (predicate, value) in got, got


def test_a_bare_count_without_a_count_before_gives_nothing():
    turn = "I've been training hard. I'm up to ten now."
    got = [f.predicate for f in X.extract("I'm up to ten now.", "user", turn[:25])
           if "count" in f.predicate]
    assert not got, got


@pytest.mark.parametrize(("text", "predicate", "value", "modality"), [
    # an employer said after the role
    ("I work as a paramedic for the London Ambulance Service.", "works_at",
     "London Ambulance Service", "asserted"),
    ("I worked as a welder at Harland for a decade.", "worked_at", "Harland", "asserted"),
    # retiring, and the job it ends
    ("I officially retired last month after 30 years at Unilever.", "employment_status",
     "retired", "asserted"),
    ("I officially retired last month after 30 years at Unilever.", "works_at", "Unilever",
     "negated"),
    # an app used, and given up
    ("We use WhatsApp constantly.", "uses", "WhatsApp", "asserted"),
    ("I finally uninstalled Snapchat from my phone.", "uses", "Snapchat", "negated"),
    # a pet given up because one had to
    ("Sadly we had to rehome two of the guinea pigs.", "owns_count:guinea_pig", "-2", "asserted"),
    # a disliking said with a degree word
    ("I've totally gone off olives.", "dislikes", "olives", "asserted"),
    ("I'm so over reality TV.", "dislikes", "reality TV", "asserted"),
    # a trip one hopes to do
    ("We're hoping to do a walking tour of Sicily next spring.", "plans",
     "do a walking tour of Sicily", "hypothetical"),
])
def test_more_ways_of_saying_a_change(text, predicate, value, modality):
    got = {(f.predicate, f.value, f.modality) for f in X.extract(text, "user")}
    assert (predicate, value, modality) in got, got


@pytest.mark.parametrize("text", [
    "I retired the old bike.",  # a thing retired, not the user
    "We have to sell one of the cars next month.",  # not yet done
    "I deleted Tom's number.",  # no app
    "I'm going to do some research.",  # no trip
])
def test_look_alikes_of_those_changes(text):
    got = {(f.predicate, f.value) for f in X.extract(text, "user")}
    assert not {p for p, _ in got} & {"employment_status", "uses", "owns_count:car", "plans"}, got


@pytest.mark.parametrize(("text", "facts"), [
    ("Hang on, it's cashews I'm allergic to, almonds are fine.",
     {("allergic_to", "cashews", "asserted"), ("allergic_to", "almonds", "negated")}),
    ("I'm allergic to cats but dogs are totally fine.",
     {("allergic_to", "cats", "asserted"), ("allergic_to", "dogs", "negated")}),
])
def test_an_allergy_put_right(text, facts):
    got = {(f.predicate, f.value, f.modality) for f in X.extract(text, "user")}
    assert facts <= got, got


@pytest.mark.parametrize("text", [
    "My allergy is fine now.",  # no allergen
    "The kids are fine, thanks for asking.",  # no allergy said
    "My allergist said my skin is fine.",
])
def test_no_allergy_from_something_being_fine(text):
    assert not [f for f in X.extract(text, "user") if f.predicate == "allergic_to"]
