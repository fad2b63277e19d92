"""`graphmem ingest` of ChatGPT, Claude, REALTALK and CSV files into a real Neo4j: the right users,
speakers, times and turn ids; a malformed file of each format fails with one line, writes nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from tests.unit.test_loaders_exports import (
    CHAT_CSV,
    claude_conversation,
    gpt_conversation,
    realtalk_file,
    write_json,
)


def _turns(graph, user_id: str) -> list[tuple[str, str, str | None, str, str]]:
    with graph.session(read_only=True) as s:
        rows = s.run("""
            MATCH (:User {id: $u})-[:HAS_SESSION]->(s:Session)-[:HAS_TURN]->(t:Turn)
            RETURN s.source_id AS session, toString(s.started_at) AS t_s, t.speaker AS speaker,
                   t.role AS role, t.source_id AS turn
            ORDER BY s.started_at, t.idx""", u=user_id).data()
    return [(r["session"], r["t_s"][:19], r["speaker"], r["role"], r["turn"]) for r in rows]


def _ingest(graph, *args: str) -> Any:
    return CliRunner().invoke(main, ["ingest", *args, "--json"], env={"NEO4J_URI": graph.uri})


def test_chatgpt_and_claude_exports_ingest_for_the_named_user(graph, new_user, tmp_path) -> None:
    ann = new_user()
    path = write_json(tmp_path / "conversations.json", [gpt_conversation("c-1")])
    result = _ingest(graph, str(path), "--user", ann)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[-1])["turns"] == 3
    assert _turns(graph, ann) == [("c-1", "2024-03-01T12:00:00", None, "user", "u1b"),
                                  ("c-1", "2024-03-01T12:00:00", None, "assistant", "a1b"),
                                  ("c-1", "2024-03-01T12:00:00", None, "user", "u2")]
    bob = new_user()
    (tmp_path / "claude").mkdir()
    path = write_json(tmp_path / "claude" / "conversations.json", [claude_conversation()])
    assert _ingest(graph, str(path), "--user", bob).exit_code == 0
    assert _turns(graph, bob) == [("cv-1", "2024-05-02T18:30:00", None, "user", "cv-1-m1"),
                                  ("cv-1", "2024-05-02T18:30:00", None, "assistant", "cv-1-m2")]


def test_realtalk_and_csv_keep_speakers(graph, new_user, tmp_path) -> None:
    pair = new_user()
    path = write_json(tmp_path / "Chat_1_Emi_Elise.json", realtalk_file())
    assert _ingest(graph, str(path), "--user", pair).exit_code == 0
    turns = _turns(graph, pair)
    assert turns[:2] == [("D1", "2023-12-29T22:42:04", "Emi", "user", "D1:1"),
                         ("D1", "2023-12-29T22:42:04", "Elise", "user", "D1:3")]
    assert [t[0] for t in turns] == ["D1", "D1", "D2", "D10"]

    ann = new_user()
    log = tmp_path / "chat.csv"
    log.write_text(CHAT_CSV, encoding="utf-8")
    assert _ingest(graph, str(log), "--user", ann, "--me", "Ann").exit_code == 0
    assert [(t[0], t[2], t[4]) for t in _turns(graph, ann)] == [
        ("2024-06-01T09:00", None, "2024-06-01T09:00_1"),
        ("2024-06-01T09:00", "Bea", "2024-06-01T09:00_2"),
        ("2024-06-01T09:00", None, "2024-06-01T09:00_4"),
        ("2024-06-02T20:00", "Bea", "2024-06-02T20:00_1")]


def _bad_chatgpt(path: Path, _: str) -> None:
    bad = gpt_conversation("c-9")
    bad["current_node"] = "gone"
    write_json(path, [gpt_conversation("c-1"), bad])


def _bad_claude(path: Path, _: str) -> None:
    bad = claude_conversation("cv-9")
    bad["chat_messages"][0]["sender"] = 3
    write_json(path, [claude_conversation("cv-1"), bad])


def _bad_realtalk(path: Path, _: str) -> None:
    data = realtalk_file()
    data["session_10"][0]["date_time"] = "tomorrow"
    write_json(path, data)


def _bad_csv(path: Path, _: str) -> None:
    path.write_text(CHAT_CSV + "someday,Ann,hello\n", encoding="utf-8")


def _bad_locomo(path: Path, user_id: str) -> None:
    from tests.unit.test_loaders import locomo_sample

    bad = locomo_sample(f"{user_id}-2")
    del bad["conversation"]["session_1"][0]["speaker"]
    write_json(path, [locomo_sample(user_id), bad])  # the first sample alone is fine


@pytest.mark.parametrize(("name", "make", "error"), [
    ("conversations.json", _bad_chatgpt, r"conversation 1 \(c-9\): current_node 'gone'"),
    ("conversations.json", _bad_claude, r"conversation 1 \(cv-9\) message 1: \"sender\""),
    ("Chat_3.json", _bad_realtalk, r"session_10 message 1 \(D10:1\) date_time: cannot read"),
    ("chat.csv", _bad_csv, r"chat\.csv line 7: cannot read the time 'someday'"),
    ("locomo.json", _bad_locomo, r"sample test-\w+-2 session_1 turn 1 \(D1:1\): missing field"),
])
def test_malformed_file_fails_in_one_line_and_writes_nothing(
        graph, new_user, tmp_path, name: str, make: Callable[[Path, str], None], error: str) -> None:
    user_id = new_user()
    path = tmp_path / name
    make(path, user_id)
    args = [str(path)] if name == "locomo.json" else [str(path), "--user", user_id]
    result = _ingest(graph, *args)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graphmem: error: "), result.output
    assert re.search(error, lines[0]), lines[0]
    assert lines[0].endswith("nothing from the file was loaded or written")
    with graph.session(read_only=True) as s:
        written = s.run("MATCH (n) WHERE n.user_id IN $u OR n.id IN $u RETURN count(n) AS n",
                        u=[user_id, f"{user_id}-2"]).single()["n"]
    assert written == 0
