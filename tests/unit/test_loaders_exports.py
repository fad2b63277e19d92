"""Loaders for what people already have: ChatGPT and Claude exports, REALTALK, CSV/TSV chat logs;
and the whole-file check of the streamed formats."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InputError
from graphmem.loaders import detect_format, load

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC).timestamp()


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


# --- ChatGPT -------------------------------------------------------------------------------------


def gpt_node(node_id: str, parent: str | None, children: list[str], role: str | None = None,
             text: str | None = None, at: float | None = None, **extra: Any) -> dict[str, Any]:
    message = None
    if role is not None:
        message = {"id": node_id, "author": {"role": role, "name": None, "metadata": {}},
                   "create_time": at, "content": {"content_type": "text", "parts": [text]},
                   "status": "finished_successfully", "metadata": {}, **extra}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def gpt_conversation(cid: str = "c-1") -> dict[str, Any]:
    """A root, a system message, a prompt that was edited (two branches), answers on each."""
    mapping = {
        "root": gpt_node("root", None, ["sys"]),
        "sys": gpt_node("sys", "root", ["u1", "u1b"], "system", "You are ChatGPT."),
        "u1": gpt_node("u1", "sys", ["a1"], "user", "I live in Lyon.", T0 + 1),
        "a1": gpt_node("a1", "u1", [], "assistant", "Lyon is lovely.", T0 + 2),
        "u1b": gpt_node("u1b", "sys", ["a1b"], "user", "I live in Paris now.", T0 + 60),
        "a1b": gpt_node("a1b", "u1b", ["u2"], "assistant", "Paris, nice!", T0 + 61),
        "u2": gpt_node("u2", "a1b", ["a2"], "user", "My cat is called Miso.", T0 + 120),
        "a2": gpt_node("a2", "u2", [], "assistant", "   ", T0 + 121),
    }
    return {"title": "Moving", "create_time": T0, "update_time": T0 + 200, "mapping": mapping,
            "current_node": "a2", "conversation_id": cid, "id": cid}


def test_chatgpt_follows_the_current_branch(tmp_path: Path) -> None:
    second = gpt_conversation("c-2")
    second["mapping"]["u1b"]["message"]["content"] = {
        "content_type": "multimodal_text",
        "parts": [{"content_type": "image_asset_pointer", "asset_pointer": "file://x"}, "See this"]}
    path = write_json(tmp_path / "conversations.json", [gpt_conversation("c-1"), second])
    assert detect_format(path) == "chatgpt"
    with pytest.raises(InputError, match=r"conversations\.json: a ChatGPT export does not say "
                                         r"whose it is; give --user"):
        load(path)
    loader = load(path, user="ann")
    (transcript,) = list(loader)
    assert transcript.user_id == "ann"
    first = transcript.sessions[0]
    assert first.source_id == "c-1" and first.started_at == datetime(2024, 3, 1, 12, tzinfo=UTC)
    assert [(t.role, t.source_id, t.text) for t in first.turns] == [
        ("user", "u1b", "I live in Paris now."), ("assistant", "a1b", "Paris, nice!"),
        ("user", "u2", "My cat is called Miso.")]
    assert [t.text for t in transcript.sessions[1].turns][0] == "See this"  # image part left out
    report = loader.report
    assert (report.skipped_other_branches, report.skipped_other_roles,
            report.skipped_empty_turns) == (4, 2, 2)


def test_chatgpt_without_current_node_takes_the_last_child(tmp_path: Path) -> None:
    conversation = gpt_conversation()
    del conversation["current_node"]
    conversation["create_time"] = None
    loader = load(write_json(tmp_path / "conversations.json", [conversation]), user="ann")
    session = next(loader).sessions[0]
    assert [t.source_id for t in session.turns] == ["u1b", "a1b", "u2"]
    assert session.started_at == datetime.fromtimestamp(T0 + 60, tz=UTC)  # first message's time
    assert any("no current_node" in note for note in loader.report.notes)


@pytest.mark.parametrize(("change", "error"), [
    (lambda c: c.update(current_node="nope"), r"conversation 1 \(c-2\): current_node 'nope' is "
                                              r"not a node"),
    (lambda c: c["mapping"]["sys"].update(parent="u2"), r"conversation 1 \(c-2\) node \w+: the "
                                                        r"parent links form a loop"),
    (lambda c: c["mapping"]["u2"]["message"].update(author={}), r"message u2: \"author\.role\""),
    (lambda c: c["mapping"]["u2"]["message"]["content"].update(parts="hi"),
     r"message u2: \"content\.parts\" must be a list"),
    (lambda c: c.update(create_time="yesterday"), r"create_time: expected Unix seconds"),
    (lambda c: c.update(mapping=[]), r'"mapping" must be an object'),
])
def test_chatgpt_malformed_names_conversation_and_message(tmp_path: Path, change: Any,
                                                          error: str) -> None:
    bad = gpt_conversation("c-2")
    change(bad)
    path = write_json(tmp_path / "conversations.json", [gpt_conversation("c-1"), bad])
    with pytest.raises(InputError, match=error) as caught:
        list(load(path, user="ann"))
    assert "nothing from the file was loaded or written" in str(caught.value)


# --- Claude --------------------------------------------------------------------------------------


def claude_conversation(uuid: str = "cv-1") -> dict[str, Any]:
    return {"uuid": uuid, "name": "Dinner", "created_at": "2024-05-02T18:30:00.000000Z",
            "updated_at": "2024-05-02T19:00:00Z", "account": {"uuid": "acc-1"},
            "chat_messages": [
                {"uuid": f"{uuid}-m1", "sender": "human", "text": "I am vegetarian.",
                 "created_at": "2024-05-02T18:30:05Z", "attachments": [], "files": []},
                {"uuid": f"{uuid}-m2", "sender": "assistant", "text": "",
                 "content": [{"type": "text", "text": "Noted."},
                             {"type": "tool_use", "name": "search", "input": {}}],
                 "created_at": "2024-05-02T18:30:09Z"},
                {"uuid": f"{uuid}-m3", "sender": "human", "text": " ",
                 "created_at": "2024-05-02T18:31:00Z"},
            ]}


def test_claude_export_sessions_roles_and_ids(tmp_path: Path) -> None:
    path = write_json(tmp_path / "conversations.json",
                      [claude_conversation("cv-1"), claude_conversation("cv-2")])
    assert detect_format(path) == "claude"
    loader = load(path, user="bob")
    (transcript,) = list(loader)
    assert transcript.user_id == "bob" and [s.source_id for s in transcript.sessions] == [
        "cv-1", "cv-2"]
    session = transcript.sessions[0]
    assert session.started_at == datetime(2024, 5, 2, 18, 30, tzinfo=UTC)
    assert [(t.role, t.source_id, t.text) for t in session.turns] == [
        ("user", "cv-1-m1", "I am vegetarian."), ("assistant", "cv-1-m2", "Noted.")]
    assert loader.report.skipped_empty_turns == 2 and loader.report.turns == 4


@pytest.mark.parametrize(("change", "error"), [
    (lambda c: c["chat_messages"][1].pop("sender"), r"conversation 1 \(cv-2\) message 2: "
                                                    r"\"sender\" must be a non-empty string"),
    (lambda c: c.update(chat_messages={}), r"\(cv-2\): \"chat_messages\" must be a list"),
    (lambda c: c.update(created_at="someday"), r"\(cv-2\) created_at: cannot read the time"),
    (lambda c: c["chat_messages"][0].update(uuid="cv-1-m1"), r"message uuid 'cv-1-m1' already"),
])
def test_claude_malformed_names_conversation_and_message(tmp_path: Path, change: Any,
                                                         error: str) -> None:
    bad = claude_conversation("cv-2")
    change(bad)
    path = write_json(tmp_path / "conversations.json", [claude_conversation("cv-1"), bad])
    with pytest.raises(InputError, match=error):
        list(load(path, user="bob"))


# --- REALTALK ------------------------------------------------------------------------------------


def realtalk_message(n: int, k: int, speaker: str, text: str, at: str) -> dict[str, Any]:
    return {"clean_text": text, "speaker": speaker, "date_time": at, "dia_id": f"D{n}:{k}"}


def realtalk_file() -> dict[str, Any]:
    return {
        "name": {"speaker_1": "Emi", "speaker_2": "Elise"},
        "session_2": [realtalk_message(2, 1, "Elise", "I started a pottery class.",
                                       "02.01.2024, 09:15:00")],
        "session_1": [realtalk_message(1, 1, "Emi", "Hey! I just got back from Osaka.",
                                       "29.12.2023, 22:42:04"),
                      realtalk_message(1, 2, "Elise", "", "29.12.2023, 22:43:10"),
                      realtalk_message(1, 3, "Elise", "How was it?", "29.12.2023, 22:44:00")],
        "session_10": [realtalk_message(10, 1, "Emi", "Back at work.", "08.01.2024, 08:00:00")],
        "session_1_date_time": "29.12.2023, 22:42:04",
        "session_10_date_time": "08.01.2024, 08:00:00",
        "events_session_1": {"Emi": ["trip"]},
        "qa": [{"question": "Where did Emi travel?", "answer": "Osaka", "evidence": ["D1:1"],
                "category": 1}],
    }


def test_realtalk_sessions_speakers_and_times(tmp_path: Path) -> None:
    path = write_json(tmp_path / "Chat_1_Emi_Elise.json", realtalk_file())
    assert detect_format(path) == "realtalk"
    loader = load(path)
    (transcript,) = list(loader)
    assert transcript.user_id == "Chat_1_Emi_Elise"  # the file name, unless --user says
    assert [s.source_id for s in transcript.sessions] == ["D1", "D2", "D10"]
    d1, d2, _ = transcript.sessions
    assert d1.started_at == datetime(2023, 12, 29, 22, 42, 4, tzinfo=UTC)
    assert d2.started_at == datetime(2024, 1, 2, 9, 15, tzinfo=UTC)  # from its first message
    assert [(t.role, t.speaker, t.source_id, t.text) for t in d1.turns] == [
        ("user", "Emi", "D1:1", "Hey! I just got back from Osaka."),
        ("user", "Elise", "D1:3", "How was it?")]
    assert loader.report.skipped_empty_turns == 1
    assert next(load(path, user="emi-elise")).user_id == "emi-elise"


@pytest.mark.parametrize(("change", "error"), [
    (lambda d: d["session_1"][2].pop("speaker"),
     r"session_1 message 3 \(D1:3\): missing field \"speaker\""),
    (lambda d: d["session_1"][0].update(clean_text=7),
     r"session_1 message 1 \(D1:1\): \"clean_text\" must be a string"),
    (lambda d: d.update(session_10_date_time="2024-01-08"),
     r"session_10_date_time: cannot read the time '2024-01-08'"),
    (lambda d: d["session_2"][0].update(date_time="32.01.2024, 09:15:00"),
     r"session_2 message 1 \(D2:1\) date_time: impossible date"),
    (lambda d: d.update(session_2="hello"), r"session_2: expected a list of messages"),
])
def test_realtalk_malformed_names_session_and_message(tmp_path: Path, change: Any,
                                                      error: str) -> None:
    data = copy.deepcopy(realtalk_file())
    change(data)
    with pytest.raises(InputError, match=error):
        list(load(write_json(tmp_path / "Chat_2.json", data), format="realtalk"))


# --- CSV / TSV chat logs -------------------------------------------------------------------------


CHAT_CSV = """timestamp,speaker,text
2024-06-01 09:00:00,Ann,"Morning! I moved to Porto, finally."
2024-06-01 09:01:30,Bea,Congrats!
2024-06-01 09:02:00,Ann,
2024-06-02 20:00:00,Bea,"My sister lives in Braga, ""near"" you."
2024-06-01 09:05:00,Ann,I start at the new job on Monday.
"""


def test_csv_chat_log_sessions_by_gap_and_speakers(tmp_path: Path) -> None:
    path = tmp_path / "whatsapp-ann.csv"
    path.write_text(CHAT_CSV, encoding="utf-8")
    assert detect_format(path) == "csv"
    loader = load(path)
    (transcript,) = list(loader)
    assert transcript.user_id == "whatsapp-ann"
    assert [(s.source_id, len(s.turns)) for s in transcript.sessions] == [
        ("2024-06-01T09:00", 3), ("2024-06-02T20:00", 1)]  # a new session after a 4-hour gap
    first = transcript.sessions[0]
    assert first.started_at == datetime(2024, 6, 1, 9, tzinfo=UTC)
    assert [(t.role, t.speaker, t.source_id) for t in first.turns] == [
        ("user", "Ann", "2024-06-01T09:00_1"), ("user", "Bea", "2024-06-01T09:00_2"),
        ("user", "Ann", "2024-06-01T09:00_4")]  # sorted by time; the blank turn is skipped
    assert transcript.sessions[1].turns[0].text == 'My sister lives in Braga, "near" you.'
    assert loader.report.skipped_empty_turns == 1

    (mine,) = list(load(path, user="ann", me="Ann"))
    assert mine.user_id == "ann"
    assert [t.speaker for t in mine.sessions[0].turns] == [None, "Bea", None]  # Ann is the owner


def test_tsv_with_session_and_id_columns(tmp_path: Path) -> None:
    path = tmp_path / "log.tsv"
    path.write_text("Session\tID\tTime\tFrom\tMessage\n"
                    "s1\tm1\t2024-06-01T09:00:00+02:00\tAnn\tI love hiking.\n"
                    "s2\tm2\t2024-06-01T09:10:00+02:00\tAnn\tI sold my bike.\n", encoding="utf-8")
    (transcript,) = list(load(path, me="Ann"))
    assert [(s.source_id, s.started_at, [t.source_id for t in s.turns])
            for s in transcript.sessions] == [
        ("s1", datetime(2024, 6, 1, 7, tzinfo=UTC), ["m1"]),
        ("s2", datetime(2024, 6, 1, 7, 10, tzinfo=UTC), ["m2"])]


@pytest.mark.parametrize(("text", "error"), [
    ("when,who,what\n2024-06-01,Ann,hi\n", r"line 1: the header .* has no timestamp and no "
                                           r"speaker and no text column"),
    ("timestamp,speaker,text\n2024-06-01 09:00,Ann,hi\nnot a date,Bea,yo\n",
     r"chat\.csv line 3: cannot read the time 'not a date'"),
    ("timestamp,speaker,text\n2024-06-01 09:00,Ann,hi,there\n",
     r"chat\.csv line 2: 4 fields, the header has 3"),
    ("timestamp,speaker,text\n2024-06-01 09:00,,hi\n", r"line 2: the speaker is empty"),
    ("timestamp,speaker,text\n", r"chat\.csv: no messages after the header"),
    ("timestamp,speaker,text\n2024-06-01 09:00,Ann,hi\n", r"no speaker 'Zoe' \(--me\); the "
                                                          r"speakers are 'Ann'"),
])
def test_csv_malformed_names_file_and_line(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "chat.csv"
    path.write_text(text, encoding="utf-8")
    me = "Zoe" if "Zoe" in error else None
    with pytest.raises(InputError, match=error):
        list(load(path, me=me))


# --- whole-file checks and empty files (issue 15) ------------------------------------------------


def lme_instance(qid: str, date: str = "2023/05/20 (Sat) 02:21") -> dict[str, Any]:
    return {"question_id": qid, "question": "?", "answer": "!",
            "haystack_session_ids": [f"{qid}-s"], "haystack_dates": [date],
            "haystack_sessions": [[{"role": "user", "content": "I live in Lyon."}]]}


def test_streamed_formats_are_checked_whole_before_the_first_user(tmp_path: Path) -> None:
    good = [lme_instance(f"q{i}") for i in range(3)]
    path = write_json(tmp_path / "lme.json", [*good, lme_instance("q3", "not a date")])
    loader = load(path, limit=1)  # even when only the first user is wanted
    with pytest.raises(InputError, match=r"question q3 session q3-s: cannot read the time "
                                         r"'not a date'.*; nothing from the file was loaded or "
                                         r"written"):
        next(loader)
    assert loader.report.users == 0

    text = json.dumps(good)
    path.write_text(text[: -len(json.dumps(good[-1])) // 2], encoding="utf-8")  # truncated
    with pytest.raises(InputError, match=r"truncated.*nothing from the file was loaded"):
        next(load(path, format="longmemeval"))
    assert [t.user_id for t in load(write_json(tmp_path / "ok.json", good))] == ["q0", "q1", "q2"]


def test_empty_jsonl_is_an_error_like_empty_json(tmp_path: Path) -> None:
    for name, text in (("empty.jsonl", ""), ("blank.jsonl", "\n \n"), ("empty.json", "")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=rf"{name.replace('.', r'[.]')}: the file is empty"):
            list(load(path))
