"""Speakers in two-person chats: a question about a person finds what that person said, also when
the conversation calls them by a name that is not their label ("Emi" introduces herself as
"Kate"; the other speaker greets "Hey Kate!")."""

import pytest

from graphmem.compose import embedder as configured_embedder
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.store.search import speaker_aliases, speaker_check, speakers, together
from tests.helpers import dt


@pytest.fixture(scope="module")
def minilm():
    return configured_embedder()


def _chat(*lines):
    return [TurnRecord(who.lower(), text, speaker=who, source_id=f"D1:{i}")
            for i, (who, text) in enumerate(lines, start=1)]


def _memory(graph, user_id, minilm, extractor=None):
    mem = Memory(graph, extractor=extractor, embedder=minilm)
    turns = _chat(
        ("Emi", "Hi, I'm Kate, by the way! Just got back from a pottery class."),
        ("Jonas", "Hey Kate! I went to a pottery class last month too and loved the wheel."),
        ("Emi", "My teacher says my bowls are too thick, so I am practising trimming."),
        ("Jonas", "I made a lopsided vase, the glaze came out green."),
        ("Emi", "Next I want to try a tea set for my sister."),
    )
    mem.ingest([Transcript(user_id, [SessionRecord("c1", dt(2024, 3, 2), turns)])])
    return mem


def test_aliases_come_from_the_conversation(graph, user_id, minilm):
    _memory(graph, user_id, minilm)
    assert sorted(speakers(graph, user_id)) == ["Emi", "Jonas"]  # kept on the user at ingest
    found = speaker_aliases(graph, user_id, {"Emi": "emi", "Jonas": "jonas"}, "name")
    assert set(found) == {"Emi", "Jonas"}
    assert found["Emi"] == ["Kate"]  # said by herself, and how Jonas greets her
    assert found["Jonas"] == []


def test_a_question_about_a_person_prefers_their_own_words(graph, user_id, minilm):
    mem = _memory(graph, user_id, minilm)
    plain = mem.search_full(user_id, "What happened at the pottery class?", k=5)
    assert plain.analysis.speaker is None
    for question, who in (("What did Kate make at the pottery class?", "Emi"),
                          ("What did Emi make at the pottery class?", "Emi"),
                          ("What did Jonas make at the pottery class?", "Jonas")):
        res = mem.search_full(user_id, question, k=5)
        assert res.analysis.speaker == who
        top_turns = [e for e in res.evidence if e.type in ("turn", "piece")]
        spoken = mem.turns(user_id, [top_turns[0].turn_id])
        assert spoken and spoken[0]["speaker"] == who, (question, top_turns[0].text)


def test_both_speakers_named_prefers_neither_and_searches_without_both_names(graph, user_id,
                                                                             minilm):
    mem = _memory(graph, user_id, minilm)
    res = mem.search_full(user_id, "Did Kate and Jonas both take a pottery class?", k=5)
    assert res.analysis.speaker is None
    assert sorted(res.analysis.speaker_names) == ["Jonas", "Kate"]
    assert res.embedding == pytest.approx(
        minilm.embed_query("Did and both take a pottery class?"))


def test_live_appends_add_their_speakers_once(graph, user_id, minilm):
    mem = _memory(graph, user_id, minilm)
    mem.append(user_id, "c2", [TurnRecord("lu", "Hello both, I'm Lu.", speaker="Lu",
                                          source_id="D2:1"),
                               TurnRecord("emi", "Welcome, Lu!", speaker="Emi", source_id="D2:2")])
    assert sorted(speakers(graph, user_id)) == ["Emi", "Jonas", "Lu"]


def test_migration_0011_puts_the_speakers_of_stored_turns_on_the_user(graph, user_id, minilm):
    import importlib

    _memory(graph, user_id, minilm)
    with graph.session() as s:
        s.run("MATCH (u:User {id: $u}) REMOVE u.speakers", u=user_id).consume()
    assert speakers(graph, user_id) == []
    importlib.import_module("graphmem.schema.0011_user_speakers").migrate(graph)
    assert sorted(speakers(graph, user_id)) == ["Emi", "Jonas"]


def test_a_question_about_a_person_searches_without_their_name(graph, user_id, minilm):
    """Where a speaker's name is said, it is mostly the other speaker talking to them: the bm25
    and dense searches of a question that names one speaker leave the name out."""
    mem = Memory(graph, embedder=minilm)
    mem.ingest([Transcript(user_id, [SessionRecord("c1", dt(2024, 3, 2), _chat(
        ("Jonas", "Kate? Kate, are you there?"),
        ("Emi", "Hi, I'm Kate! Sorry, I was out."),
        ("Emi", "My pottery class starts on Monday."),
        ("Jonas", "Great, have fun."),
    ))])])
    with graph.session(read_only=True) as s:
        by_name = {r["id"] for r in s.run(
            "MATCH (n {user_id: $u}) WHERE (n:Turn OR n:MessagePiece) AND n.text CONTAINS 'there?'"
            " RETURN n.id AS id", u=user_id)}
    question = "When does Kate's pottery class start?"
    for preset in ("bm25", "fused"):
        res = mem.search_full(user_id, question, k=5, config=preset)
        assert res.analysis.speaker == "Emi" and res.analysis.speaker_names == ("Kate",)
        heads = {h.id for h in res.hits if h.tunnel == "bm25" and h.direct}
        assert heads and by_name and not heads & by_name, preset
        spoken = mem.turns(user_id, [res.evidence[0].turn_id])
        assert "pottery" in res.evidence[0].text and spoken[0]["speaker"] == "Emi"
    res = mem.search_full(user_id, question, k=5, config="dense")
    assert res.embedding == pytest.approx(
        minilm.embed_query("When does pottery class start?"))
    # a question that is nothing but the name keeps it
    res = mem.search_full(user_id, "Kate?", k=5, config="bm25")
    assert res.analysis.speaker == "Emi" and res.analysis.speaker_names == ()
    assert res.hits


def test_remembered_speakers_are_checked_by_every_search(graph, user_id, minilm, monkeypatch):
    """A search remembers the user's speakers and checks them inside its tunnels' query: one
    query fewer per search; a speaker added since (here by a second session, as another process
    would) is seen by the next search, which starts again with them read anew."""
    mem = Memory(graph, embedder=minilm)
    mem.ingest([Transcript(user_id, [SessionRecord("c1", dt(2024, 3, 2), _chat(
        ("Emi", "Hi, I'm Kate, by the way! Just got back from a pottery class."),
        ("Emi", "My teacher says my bowls are too thick, so I am practising trimming.")))])])
    assert mem.search_full(user_id, "What did Jonas make?", k=5).analysis.speaker is None
    mem.ingest([Transcript(user_id, [SessionRecord("c2", dt(2024, 3, 9), _chat(
        ("Jonas", "Hey Kate! I made a lopsided vase, the glaze came out green."),
        ("Emi", "Next I want to try a tea set for my sister.")))])])
    sent: list[str] = []
    real = graph.read

    def read(name, /, **params):
        sent.append(name)
        return real(name, **params)

    monkeypatch.setattr(graph, "read", read)
    assert mem.search_full(user_id, "What did Jonas make?", k=5).analysis.speaker == "Jonas"
    assert sent.count("speaker_labels") == 1  # the check saw Jonas: read anew, searched again
    sent.clear()
    again = mem.search_full(user_id, "What did Kate make?", k=5)
    assert again.analysis.speaker == "Emi"  # her alias, remembered with her
    assert "speaker_labels" not in sent and "speaker_aliases" not in sent


class _ReadsGreetingsAsOwnName:
    """The rules, plus what the learned extractor does with a greeting in a named chat: "Hey
    Kate!" said by Jonas tagged as the speaker's own name, kept as a mention."""

    name = "greetings-as-names"

    def __init__(self):
        from graphmem.extract import OfflineExtractor

        self.rules = OfflineExtractor()

    def extract(self, text, role, before=""):
        from graphmem.models import FactCandidate, RoleRef

        found = self.rules.extract(text, role, before=before)
        if text.startswith("Hey Kate"):
            found.append(FactCandidate(kind="attribute", predicate="name", text="User: name Kate.",
                                       support="Kate", value="Kate", competes=False,
                                       roles=[RoleRef("object", "Kate", "person")],
                                       extracted_by="model:test"))
        return found

    reads_context = True


def test_a_mention_names_no_speaker(graph, user_id, minilm):
    """A misread greeting kept as a mention ("Jonas is called Kate") gives Jonas no alias, so a
    question about Kate is still about Emi."""
    mem = _memory(graph, user_id, minilm, extractor=_ReadsGreetingsAsOwnName())
    with graph.session(read_only=True) as s:
        misread = s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'name', value: 'Kate'}) "
                        "WHERE f.mention RETURN f.subject AS subject", u=user_id).single()
    assert misread is not None and misread["subject"] == "jonas"  # stored, as a mention
    found = speaker_aliases(graph, user_id, {"Emi": "emi", "Jonas": "jonas"}, "name")
    assert found == {"Emi": ["Kate"], "Jonas": []}
    # the check a later search runs inside its tunnels' query reads the same aliases
    checked = together(graph, {"check": speaker_check(
        user_id, {"Emi": "emi", "Jonas": "jonas"}, "name")})["check"][0]["aliases"]
    assert {a["speaker"]: a["aliases"] for a in checked} == found
    assert mem.search_full(user_id, "What did Kate make at the pottery class?",
                           k=5).analysis.speaker == "Emi"


def _people(*lines):
    """Turns of a chat between two people, each the user's own (embedded), as LoCoMo's loader
    gives them."""
    return [TurnRecord("user", text, speaker=who, source_id=f"D1:{i}")
            for i, (who, text) in enumerate(lines, start=1)]


def _late_reply_chat(graph, user_id, minilm):
    """Jonas talks pottery at length in one session; Emi's own word on it comes sessions later,
    worded unlike the question (no "pottery"), far from any of Jonas's turns."""
    mem = Memory(graph, embedder=minilm)
    jonas = [("Jonas", "My pottery class made bowls today, I love pottery."),
             ("Emi", "Nice."),
             ("Jonas", "Pottery is my favourite thing, the pottery wheel is great."),
             ("Emi", "Sounds fun."),
             ("Jonas", "Next pottery class we glaze the pottery.")]
    filler = [("Emi", f"Walked the dog around the lake, day {i}.") for i in range(8)]
    emi = [("Jonas", "How was your week?"), *filler,
           ("Emi", "At class I threw my first mug on the wheel, it is a bit wonky.")]
    mem.ingest([Transcript(user_id, [SessionRecord("c1", dt(2024, 3, 2), _people(*jonas)),
                                     SessionRecord("c2", dt(2024, 3, 9), _people(*emi))])])
    return mem


@pytest.mark.parametrize("exact", [False, True])
def test_a_question_about_a_person_also_searches_their_own_turns(graph, user_id, minilm,
                                                                 monkeypatch, exact):
    """With one head per tunnel, the heads are Jonas's pottery turns; Emi's own mug, said in
    another session, becomes a candidate only through the search of her own turns (the
    speaker_heads switch), as a derived hit of both tunnels; the index path and the exact scan
    (a server without filtered vector indexes) alike."""
    from graphmem.retrieval.config import FUSED
    from graphmem.store import search as store_search
    if exact:
        monkeypatch.setattr(store_search, "vector_index_filters", lambda graph: False)
    mem = _late_reply_chat(graph, user_id, minilm)
    with graph.session(read_only=True) as s:
        [mug] = [r["id"] for r in s.run("MATCH (t:Turn {user_id: $u}) WHERE t.text CONTAINS "
                                         "'mug' RETURN t.id AS id", u=user_id)]
    question = "What did Emi make in her pottery class?"
    off = mem.search_full(user_id, question, config=FUSED.with_(heads=1, speaker_heads=False))
    on = mem.search_full(user_id, question, config=FUSED.with_(heads=1))
    assert on.analysis.speaker == "Emi"
    assert mug not in {h.id for h in off.hits} | {e.turn_id for e in off.evidence}
    assert mug in {e.turn_id for e in on.evidence}
    found = {(h.tunnel, h.direct) for h in on.hits if h.id == mug and ":speaker:" in h.head}
    assert found == {("bm25", False), ("dense", False)}


def test_the_search_of_a_speaker_s_turns_stays_in_the_user(graph, user_id, minilm):
    """Another user whose chat has a speaker of the same name, saying the very words asked: none
    of that user's turns is a hit of the speaker search, nor anywhere in the ranking."""
    other = f"{user_id}-other"
    try:
        _late_reply_chat(graph, other, minilm).ingest([Transcript(other, [SessionRecord(
            "c9", dt(2024, 3, 20), _people(("Emi", "In my pottery class I made a pottery vase."),
                                         ("Jonas", "Lovely.")))])])
        mem = _late_reply_chat(graph, user_id, minilm)
        with graph.session(read_only=True) as s:
            theirs = {r["id"] for r in s.run("MATCH (t:Turn {user_id: $u}) RETURN t.id AS id",
                                             u=other)}
        res = mem.search_full(user_id, "What did Emi make in her pottery class?")
        assert theirs and not {h.id for h in res.hits} & theirs
        assert not {e.turn_id for e in res.evidence} & theirs
    finally:
        from graphmem.store.admin import forget_user
        forget_user(graph, other)
