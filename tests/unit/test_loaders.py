"""Transcript loaders: each format, format detection, malformed input, the real benchmark files."""

from __future__ import annotations

import gzip
import json
import os
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InputError
from graphmem.loaders import FORMATS, Loader, LoadReport, detect_format, load
from graphmem.models import Transcript

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
LOCOMO = DATA / "locomo" / "locomo10.json"
LONGMEMEVAL = DATA / "longmemeval" / "longmemeval_s_dev.json.gz"


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def write_jsonl(path: Path, rows: list[dict[str, Any] | str]) -> Path:
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def msg(user: str, session: str, content: Any, **extra: Any) -> dict[str, Any]:
    row = {"user_id": user, "session_id": session, "session_time": "2023-05-20T02:21:00Z",
           "role": "user", "content": content}
    row.update(extra)
    return row


# --- LongMemEval ---------------------------------------------------------------------------------


def lme_instance(qid: str, sessions: list[tuple[str, str, list[dict[str, Any]]]]) -> dict[str, Any]:
    return {
        "question_id": qid, "question_type": "single-session-user",
        "question": "What did I buy?", "answer": "a bike",
        "question_date": "2023/05/30 (Tue) 10:18",
        "answer_session_ids": [],
        "haystack_session_ids": [s[0] for s in sessions],
        "haystack_dates": [s[1] for s in sessions],
        "haystack_sessions": [s[2] for s in sessions],
    }


def turn(role: str, content: Any, **extra: Any) -> dict[str, Any]:
    return {"role": role, "content": content, **extra}


LME = [
    lme_instance("q1", [
        ("s_late", "2023/05/21 (Sun) 03:29", [turn("user", "I bought a bike.", has_answer=True),
                                              turn("assistant", "Nice!")]),
        ("s_early", "2023/05/20 (Sat) 02:21", [turn("user", "hi"), turn("assistant", "  "),
                                               turn("user", "I live in Lyon.")]),
        ("s_empty", "2023/05/22 (Mon) 09:00", []),
        ("s_late", "2023/05/25 (Thu) 12:40", [turn("user", "I bought a bike.", has_answer=True),
                                              turn("assistant", "Nice!")]),
    ]),
    lme_instance("q2", [("t1", "2023/01/02 (Mon) 23:59", [turn("user", "Hello there")])]),
]


def test_longmemeval_sessions_turn_ids_and_dates(tmp_path: Path) -> None:
    loader = load(write_json(tmp_path / "lme.json", LME))
    users = list(loader)
    assert [u.user_id for u in users] == ["q1", "q2"]
    q1 = users[0]
    assert [s.source_id for s in q1.sessions] == ["s_late", "s_early"]  # order given, not by date
    late, early = q1.sessions
    assert late.started_at == datetime(2023, 5, 21, 3, 29, tzinfo=UTC)
    assert early.started_at == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    assert [(t.role, t.text, t.source_id) for t in late.turns] == [
        ("user", "I bought a bike.", "s_late_1"), ("assistant", "Nice!", "s_late_2")]
    # the blank assistant turn is skipped but still counted in k
    assert [t.source_id for t in early.turns] == ["s_early_1", "s_early_3"]
    assert all("What did I buy" not in t.text for s in q1.sessions for t in s.turns)
    report = loader.report
    assert (report.users, report.sessions, report.turns) == (2, 3, 5)
    assert report.skipped_empty_turns == 1
    assert report.skipped_empty_sessions == 1
    assert report.skipped_duplicate_sessions == 1
    assert any("s_late" in note for note in report.notes)


def test_longmemeval_gzip_is_detected_and_streams(tmp_path: Path) -> None:
    path = tmp_path / "lme.json.gz"
    path.write_bytes(gzip.compress(json.dumps(LME).encode()))
    assert detect_format(path) == "longmemeval"
    assert [u.user_id for u in load(path, limit=1)] == ["q1"]
    assert [u.user_id for u in load(path, user="q2")] == ["q2"]


def test_longmemeval_duplicate_id_with_different_turns_is_kept_apart(tmp_path: Path) -> None:
    data = [lme_instance("q", [("s", "2023/05/20 (Sat) 02:21", [turn("user", "one")]),
                               ("s", "2023/05/21 (Sun) 02:21", [turn("user", "two")])])]
    (user,) = load(write_json(tmp_path / "lme.json", data))
    assert [s.source_id for s in user.sessions] == ["s", "s#2"]
    assert user.sessions[1].turns[0].source_id == "s#2_1"


def test_longmemeval_bad_records_name_the_record(tmp_path: Path) -> None:
    bad = [lme_instance("q9", [("s1", "2023/05/20 (Sat) 02:21", [turn("user", ["x"])])])]
    with pytest.raises(InputError, match=r'question q9 session s1 turn 1: "content" must be a '
                                         r"string, got a list"):
        list(load(write_json(tmp_path / "lme.json", bad), format="longmemeval"))
    uneven = lme_instance("q8", [("s1", "2023/05/20 (Sat) 02:21", [])])
    uneven["haystack_dates"] = []
    with pytest.raises(InputError, match="q8: .*different lengths"):
        list(load(write_json(tmp_path / "lme2.json", [uneven])))
    baddate = [lme_instance("q7", [("s1", "someday", [turn("user", "hi")])])]
    with pytest.raises(InputError, match="q7 session s1: cannot read the time 'someday'"):
        list(load(write_json(tmp_path / "lme3.json", baddate)))


# --- LoCoMo --------------------------------------------------------------------------------------


def locomo_sample(sample_id: str = "conv-1") -> dict[str, Any]:
    return {
        "qa": [{"question": "Who?", "answer": "Ann", "evidence": ["D1:1"], "category": 4}],
        "conversation": {
            "speaker_a": "Ann", "speaker_b": "Bob",
            "session_10_date_time": "12:28 am on 8 November, 2023",
            "session_10": [{"speaker": "Ann", "dia_id": "D10:1", "text": "Late one."}],
            "session_2_date_time": "1:56 pm on 8 May, 2023",
            "session_2": [
                {"speaker": "Bob", "dia_id": "D2:1", "text": "Look at this!",
                 "img_url": ["http://x/y.jpg"], "blip_caption": "a photo of a dog"},
                {"speaker": "Ann", "dia_id": "D2:2", "text": "   "},
            ],
            "session_1_date_time": "9:05 AM on 1 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob"},
                          {"speaker": "Bob", "dia_id": "D1:2", "text": "Hi Ann"}],
            "session_3_date_time": "2:00 pm on 9 May, 2023",
            "session_3": [],
            "session_4_date_time": "3:00 pm on 10 May, 2023",
            "session_4": [{"speaker": "Bob", "dia_id": "D4:1", "text": "A date here"}],
            "session_7_date_time": "2:00 pm on 19 May, 2023",
        },
        "event_summary": {}, "observation": {}, "session_summary": {},
        "sample_id": sample_id,
    }


def test_locomo_sessions_speakers_and_dates(tmp_path: Path) -> None:
    path = write_json(tmp_path / "locomo.json", [locomo_sample("conv-1"), locomo_sample("conv-2")])
    assert detect_format(path) == "locomo"
    loader = load(path)
    users = list(loader)
    assert [u.user_id for u in users] == ["conv-1", "conv-2"]
    sessions = users[0].sessions
    assert [s.source_id for s in sessions] == ["D1", "D2", "D4", "D10"]  # numeric order
    assert sessions[0].started_at == datetime(2023, 5, 1, 9, 5, tzinfo=UTC)
    assert sessions[1].started_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert sessions[2].started_at == datetime(2023, 5, 10, 15, 0, tzinfo=UTC)
    assert sessions[3].started_at == datetime(2023, 11, 8, 0, 28, tzinfo=UTC)
    first = sessions[0].turns
    assert [(t.role, t.speaker, t.source_id, t.text) for t in first] == [
        ("user", "Ann", "D1:1", "Hi Bob"), ("user", "Bob", "D1:2", "Hi Ann")]
    assert [t.text for t in sessions[1].turns] == ["Look at this!"]  # caption not appended
    report = loader.report
    assert (report.skipped_empty_sessions, report.skipped_empty_turns) == (2, 2)
    assert any("session 7" in note for note in report.notes)
    assert (report.users, report.sessions, report.turns) == (2, 8, 10)


def test_locomo_malformed_turn_names_sample_and_turn(tmp_path: Path) -> None:
    sample = locomo_sample("conv-9")
    del sample["conversation"]["session_1"][1]["text"]
    with pytest.raises(InputError,
                       match=r'sample conv-9 session_1 turn 2 \(D1:2\): missing field "text"'):
        list(load(write_json(tmp_path / "locomo.json", [sample])))
    sample = locomo_sample("conv-8")
    sample["conversation"]["session_1"][0]["text"] = 42
    with pytest.raises(InputError, match=r'conv-8 session_1 turn 1 \(D1:1\): "text" must be a '
                                         r"string, got a number"):
        list(load(write_json(tmp_path / "locomo2.json", [sample])))


def test_locomo_session_without_a_date_fails_the_whole_file(tmp_path: Path) -> None:
    """A later sample's dateless session stops the file before the first sample is handed on."""
    bad = locomo_sample("conv-2")
    del bad["conversation"]["session_2_date_time"]
    loader = load(write_json(tmp_path / "locomo.json", [locomo_sample("conv-1"), bad]))
    with pytest.raises(InputError, match=r"locomo\.json sample conv-2 session_2: no "
                                         r"session_2_date_time .*nothing from the file was "
                                         r"loaded or written$"):
        next(loader)
    assert loader.report.users == 0


@pytest.mark.parametrize("fmt", ["locomo", "jsonl"])
def test_a_message_over_the_limit_fails_the_whole_file(tmp_path: Path, fmt: str) -> None:
    from graphmem.loaders.loader import max_message_chars

    limit = max_message_chars()
    assert limit == 100_000  # the HTTP server's, MCP's and Memory.append's
    if fmt == "locomo":
        big = locomo_sample("conv-2")
        big["conversation"]["session_1"][1]["text"] = "I live in Oslo. " * (limit // 16 + 1)
        path = write_json(tmp_path / "locomo.json", [locomo_sample("conv-1"), big])
        where = r"user 'conv-2' session 'D1' turn 2 \(D1:2\)"
    else:
        line = {"user_id": "u", "session_id": "s1", "session_time": "2024-01-10T09:00:00Z",
                "role": "user"}
        path = tmp_path / "chat.jsonl"
        path.write_text(json.dumps({**line, "content": "Hi."}) + "\n"
                        + json.dumps({**line, "content": "x" * (limit + 1), "turn_id": "m2"})
                        + "\n", encoding="utf-8")
        where = r"user 'u' session 's1' turn 2 \(m2\)"
    with pytest.raises(InputError, match=where + r": the message is 100,0\d\d characters; a "
                                         r"message may hold at most 100,000; nothing"):
        next(load(path))


def test_truncated_json_names_file_and_position(tmp_path: Path) -> None:
    text = json.dumps([locomo_sample()])
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(InputError, match=r"cut\.json line 1 column \d+: invalid JSON .*truncated"):
        list(load(path, format="locomo"))
    path.write_text(text[:-1], encoding="utf-8")  # only the closing bracket missing
    with pytest.raises(InputError, match=r"cut\.json line 1 column \d+: .*truncated"):
        list(load(path, format="locomo"))
    gz = tmp_path / "cut.json.gz"
    gz.write_bytes(gzip.compress(json.dumps(LME).encode())[:-30])
    with pytest.raises(InputError, match=r"cut\.json\.gz: broken gzip data"):
        list(load(gz, format="longmemeval"))


def test_non_utf8_json_names_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(LME, indent=1, ensure_ascii=False).replace("Lyon", "Lyon\udcff", 1)
                     .encode("utf-8", "surrogateescape"))
    with pytest.raises(InputError, match=r"latin1\.json line \d+ column \d+: not valid UTF-8 "
                                         r"\(byte 0xff\)"):
        list(load(path))


# --- JSONL ---------------------------------------------------------------------------------------


def test_jsonl_groups_by_user_then_session_in_first_seen_order(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "chat.jsonl", [
        msg("bob", "b1", "bob first"),
        msg("ann", "a2", "ann second session first", session_time="2023-05-21 10:00"),
        "",
        msg("bob", "b1", "bob again", role="assistant", speaker="Bot"),
        msg("ann", "a1", "ann other session", turn_id="custom-7",
            session_time="2023-05-20T02:21:00+02:00"),
        msg("ann", "a2", "later line, no time repeated", session_time=None),
        msg("ann", "a2", "\t \n", session_time=None),
        msg(7, 3, "numeric ids", session_time="20 May 2023 2:21 pm"),
    ])
    loader = load(path)
    users = list(loader)
    assert [u.user_id for u in users] == ["bob", "ann", "7"]
    bob, ann, numeric = users
    assert [(t.role, t.speaker, t.source_id, t.text) for t in bob.sessions[0].turns] == [
        ("user", None, "b1_1", "bob first"), ("assistant", "Bot", "b1_2", "bob again")]
    assert [s.source_id for s in ann.sessions] == ["a2", "a1"]
    assert ann.sessions[0].started_at == datetime(2023, 5, 21, 10, 0, tzinfo=UTC)  # naive -> UTC
    assert ann.sessions[1].started_at == datetime(2023, 5, 20, 2, 21,
                                                  tzinfo=timezone(timedelta(hours=2)))
    assert [t.source_id for t in ann.sessions[0].turns] == ["a2_1", "a2_2"]
    assert ann.sessions[1].turns[0].source_id == "custom-7"
    assert numeric.sessions[0].source_id == "3"
    assert numeric.sessions[0].started_at == datetime(2023, 5, 20, 14, 21, tzinfo=UTC)
    assert loader.report.skipped_empty_turns == 1
    assert (loader.report.users, loader.report.sessions, loader.report.turns) == (3, 4, 6)


def write_bad(tmp_path: Path, third: dict[str, Any] | str) -> Path:
    return write_jsonl(tmp_path / "sample.jsonl", [msg("u", "s", "one"), msg("u", "s", "two"),
                                                   third])


@pytest.mark.parametrize(("third", "error"), [
    ({k: v for k, v in msg("u", "s", "x").items() if k != "content"},
     'sample.jsonl line 3: missing field "content"'),
    ('{"user_id": "u", "session_id": ', "sample.jsonl line 3: invalid JSON"),
    (msg("u", "s", {"text": "hi"}), 'sample.jsonl line 3: "content" must be a string, got an '
                                    "object"),
    (msg("u", "s", "x", session_time="2024-01-01T00:00:00Z"),
     "sample.jsonl line 3: session_time '2024-01-01T00:00:00Z' differs from the time of session "
     "'s' given on line 1"),
    (msg("u", "s", "x", session_time="yesterday"), "sample.jsonl line 3: cannot read the time"),
    (msg("u", "s", "x", turn_id="s_1"), "sample.jsonl line 3: turn id 's_1' of user 'u' was "
                                        "already used on line 1"),
    ('["u", "s", "x"]', "sample.jsonl line 3: expected a JSON object, got a list"),
    (msg("u", "", "x"), 'sample.jsonl line 3: "session_id" is empty'),
    (msg("u", "s", "x", role=None), 'sample.jsonl line 3: "role" must be a string, got null'),
    (msg("u", "new", "x", session_time=None),
     'sample.jsonl line 3: missing field "session_time"'),
])
def test_jsonl_errors_name_file_line_and_problem(tmp_path: Path, third: Any, error: str) -> None:
    path = write_bad(tmp_path, third)
    with pytest.raises(InputError) as caught:
        list(load(path))
    assert error in str(caught.value)


def test_jsonl_non_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bytes.jsonl"
    good = json.dumps(msg("u", "s", "fine")).encode()
    bad = json.dumps(msg("u", "s", "caf\udce9"), ensure_ascii=False).encode("utf-8",
                                                                            "surrogateescape")
    path.write_bytes(good + b"\n" + bad + b"\n")
    with pytest.raises(InputError, match=r"bytes\.jsonl line 2 column \d+: not valid UTF-8 "
                                         r"\(byte 0xe9\)"):
        list(load(path))


def test_jsonl_validates_the_whole_file_before_yielding(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "late.jsonl", [msg("a", "s", "ok"), msg("b", "s", 5)])
    loader = load(path, limit=1)
    with pytest.raises(InputError, match="late.jsonl line 2"):
        next(loader)


def test_jsonl_empty_sessions_and_users_are_counted(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "blank.jsonl", [
        msg("a", "s1", " "), msg("a", "s2", "kept"), msg("b", "s1", ""), msg("b", "s1", "\n")])
    loader = load(path)
    assert [u.user_id for u in loader] == ["a"]
    report = loader.report
    assert (report.skipped_empty_turns, report.skipped_empty_sessions,
            report.skipped_empty_users) == (3, 2, 1)
    assert report.skipped == 6


def test_a_message_at_the_limit_loads_whole(tmp_path: Path) -> None:
    from graphmem.loaders.loader import max_message_chars

    big = ("päivää 🌍 " * 120_000)[:max_message_chars()]  # 150 KB: more than the sniffed head
    path = write_jsonl(tmp_path / "big.jsonl", [msg("u", "s", big), msg("u", "s", "small")])
    (user,) = load(path)
    assert user.sessions[0].turns[0].text == big
    lme = write_json(tmp_path / "big.json",
                     [lme_instance("q", [("s", "2023/05/20 (Sat) 02:21", [turn("user", big)])])])
    assert detect_format(lme) == "longmemeval"  # the first element is larger than the sniffed head
    (user,) = load(lme)
    assert user.sessions[0].turns[0].text == big


def test_jsonl_utf8_bom_and_gzip(tmp_path: Path) -> None:
    body = (json.dumps(msg("u", "s", "hello")) + "\n").encode()
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + body)
    assert [u.user_id for u in load(path)] == ["u"]
    gz = tmp_path / "chat.jsonl.gz"
    gz.write_bytes(gzip.compress(body))
    assert detect_format(gz) == "jsonl"
    assert [u.user_id for u in load(gz)] == ["u"]


# --- OpenAI-style message lists ------------------------------------------------------------------


MESSAGES = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "I moved to Paris.", "name": "ann"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "1"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Nice."},
                                      {"type": "image_url", "image_url": {"url": "x"}},
                                      {"type": "text", "text": "Enjoy!"}]},
]


def test_openai_list_needs_a_user_and_defaults_session(tmp_path: Path) -> None:
    path = write_json(tmp_path / "chat-42.json", MESSAGES)
    assert detect_format(path) == "openai"
    with pytest.raises(InputError, match=r"chat-42\.json: .*give --user"):
        load(path)
    mtime = datetime(2024, 2, 3, 4, 5, 6, tzinfo=UTC)
    os.utime(path, (mtime.timestamp(), mtime.timestamp()))
    loader = load(path, user="ann")
    (user,) = loader
    assert user.user_id == "ann"
    (session,) = user.sessions
    assert (session.source_id, session.started_at) == ("chat-42", mtime)
    assert [(t.role, t.speaker, t.text, t.source_id) for t in session.turns] == [
        ("user", "ann", "I moved to Paris.", "chat-42_2"),
        ("assistant", None, "Nice.\nEnjoy!", "chat-42_4")]
    assert (loader.report.skipped_other_roles, loader.report.skipped_empty_turns) == (1, 1)


def test_openai_messages_object_with_explicit_session(tmp_path: Path) -> None:
    path = write_json(tmp_path / "x.json", {"model": "gpt", "messages": MESSAGES[1:2]})
    assert detect_format(path) == "openai"
    (user,) = load(path, user="u", session="talk", session_time="2023-05-20 02:21")
    assert user.sessions[0].source_id == "talk"
    assert user.sessions[0].started_at == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    naive = datetime(2023, 1, 1, 12)
    (user,) = load(path, user="u", session_time=naive)
    assert user.sessions[0].started_at == naive.replace(tzinfo=UTC)


def test_openai_bad_content_names_the_message(tmp_path: Path) -> None:
    path = write_json(tmp_path / "bad.json", [{"role": "user", "content": "ok"},
                                              {"role": "user", "content": 3}])
    with pytest.raises(InputError, match=r'bad\.json message 2: "content" must be a string'):
        list(load(path, format="openai", user="u"))
    path = write_json(tmp_path / "nocontent.json", [{"role": "user"}])
    with pytest.raises(InputError, match=r'message 1: missing field "content"'):
        list(load(path, format="openai", user="u"))


# --- detection and arguments ---------------------------------------------------------------------


def test_detect_by_content_when_the_name_says_nothing(tmp_path: Path) -> None:
    jsonl = write_jsonl(tmp_path / "chat.txt", [msg("u", "s", "hi"), msg("u", "s", "again")])
    assert detect_format(jsonl) == "jsonl"
    single = write_jsonl(tmp_path / "one.json", [msg("u", "s", "hi")])
    assert detect_format(single) == "jsonl"
    lme = write_json(tmp_path / "data", LME)
    assert detect_format(lme) == "longmemeval"
    assert FORMATS == ("longmemeval", "locomo", "jsonl", "openai", "chatgpt", "claude", "realtalk",
                       "csv")


def test_detect_failures_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.json: no such file"):
        detect_format(tmp_path / "nope.json")
    (tmp_path / "empty.json").write_text("  \n")
    with pytest.raises(InputError, match=r"empty\.json: the file is empty"):
        detect_format(tmp_path / "empty.json")
    odd = write_json(tmp_path / "odd.json", [{"foo": 1}])
    with pytest.raises(InputError, match=r"odd\.json: cannot tell the transcript format"):
        load(odd)
    (tmp_path / "notes.txt").write_text("hello world")
    with pytest.raises(InputError, match=r"notes\.txt: cannot tell"):
        detect_format(tmp_path / "notes.txt")


def test_arguments_are_checked_up_front(tmp_path: Path) -> None:
    path = write_json(tmp_path / "locomo.json", [locomo_sample()])
    with pytest.raises(InputError, match="unknown transcript format 'xml'"):
        load(path, format="xml")
    with pytest.raises(InputError, match="--me applies only to csv"):
        load(path, me="Ann")
    with pytest.raises(InputError, match="limit"):
        load(path, limit=-1)
    with pytest.raises(InputError, match="--session and --session-time apply only"):
        load(path, session="x")
    with pytest.raises(InputError, match="no user 'conv-404'"):
        list(load(path, user="conv-404"))
    with pytest.raises(InputError, match="expected a JSON list of LoCoMo samples"):
        list(load(write_jsonl(tmp_path / "c.jsonl", [msg("u", "s", "x")]), format="locomo"))
    assert list(load(path, limit=0)) == []


def test_loader_is_a_single_pass_iterator_with_a_report(tmp_path: Path) -> None:
    loader = load(write_json(tmp_path / "lme.json", LME))
    assert isinstance(loader, Loader) and isinstance(loader.report, LoadReport)
    assert loader.format == "longmemeval" and loader.report.users == 0  # nothing read yet
    assert len(list(loader)) == 2
    assert list(loader) == []


# --- the real benchmark files --------------------------------------------------------------------


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
def test_real_locomo() -> None:
    raw = json.loads(LOCOMO.read_text(encoding="utf-8"))
    loader = load(LOCOMO)
    users: list[Transcript] = list(loader)
    assert loader.format == "locomo"
    assert len(users) == 10
    assert sum(len(u.sessions) for u in users) == 272
    assert sum(len(s.turns) for u in users for s in u.sessions) == 5882
    assert (loader.report.users, loader.report.sessions, loader.report.turns) == (10, 272, 5882)
    for user, sample in zip(users, raw, strict=True):
        assert user.user_id == sample["sample_id"]
        conv = sample["conversation"]
        expected = [t["dia_id"] for n in sorted(int(k[8:]) for k in conv
                                                if re.fullmatch(r"session_\d+", k))
                    for t in conv[f"session_{n}"]]
        assert [t.source_id for s in user.sessions for t in s.turns] == expected
        assert {t.speaker for s in user.sessions for t in s.turns} == {conv["speaker_a"],
                                                                       conv["speaker_b"]}
    first = users[0].sessions[0]
    assert raw[0]["conversation"]["session_1_date_time"] == "1:56 pm on 8 May, 2023"
    assert (first.source_id, first.started_at) == ("D1", datetime(2023, 5, 8, 13, 56, tzinfo=UTC))
    assert all(s.started_at is not None for u in users for s in u.sessions)


def _first_instances(n: int) -> list[dict[str, Any]]:
    """The first n question instances, decoded directly from the raw file."""
    with gzip.open(LONGMEMEVAL, "rt", encoding="utf-8") as handle:
        text = handle.read()
    decoder, out, idx = json.JSONDecoder(), [], 1
    for _ in range(n):
        instance, idx = decoder.raw_decode(text, idx)
        out.append(instance)
        idx = text.index("{", idx)
    return out


@pytest.mark.skipif(not LONGMEMEVAL.exists(), reason="LongMemEval data not present")
def test_real_longmemeval_first_two_users() -> None:
    raw = _first_instances(2)
    loader = load(LONGMEMEVAL, limit=2)
    users = list(loader)
    assert loader.format == "longmemeval"
    assert [u.user_id for u in users] == [r["question_id"] for r in raw]
    for user, instance in zip(users, raw, strict=True):
        first_seen: dict[str, tuple[str, list[dict[str, Any]]]] = {}
        for sid, date, turns in zip(instance["haystack_session_ids"], instance["haystack_dates"],
                                    instance["haystack_sessions"], strict=True):
            first_seen.setdefault(sid, (date, turns))
        assert [s.source_id for s in user.sessions] == list(first_seen)
        for session in user.sessions:
            date, turns = first_seen[session.source_id]
            assert session.started_at == datetime.strptime(
                date, "%Y/%m/%d (%a) %H:%M").replace(tzinfo=UTC)
            expected = [(f"{session.source_id}_{k}", t["role"], t["content"])
                        for k, t in enumerate(turns, 1) if t["content"].strip()]
            assert [(t.source_id, t.role, t.text) for t in session.turns] == expected
    assert users[0].sessions[0].turns[0].source_id.endswith("_1")


@pytest.mark.slow
@pytest.mark.skipif(not LONGMEMEVAL.exists(), reason="LongMemEval data not present")
def test_real_longmemeval_whole_file_totals() -> None:
    with gzip.open(LONGMEMEVAL, "rt", encoding="utf-8") as handle:
        raw = json.load(handle)
    sessions = turns = 0
    for instance in raw:
        seen: set[str] = set()
        for sid, session in zip(instance["haystack_session_ids"], instance["haystack_sessions"],
                                strict=True):
            if sid in seen:
                continue
            seen.add(sid)
            kept = sum(1 for t in session if t["content"].strip())
            sessions += kept > 0
            turns += kept
    loader = load(LONGMEMEVAL)
    users = sum(1 for _ in loader)
    assert users == len(raw)
    assert (loader.report.sessions, loader.report.turns) == (sessions, turns)
