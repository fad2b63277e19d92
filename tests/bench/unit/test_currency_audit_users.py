"""Which users the edge-precision audit reads: a later start audits chats no round has read."""

import json
from pathlib import Path
from typing import Any

from graphmem_bench.currency_audit import dataset_users


def _lme(path: Path, ids: list[str]) -> str:
    def instance(qid: str) -> dict[str, Any]:
        return {"question_id": qid, "question_type": "single-session-user",
                "question": "Where do I live?", "answer": "Leeds",
                "question_date": "2023/05/30 (Tue) 10:18", "answer_session_ids": [],
                "haystack_session_ids": [f"{qid}-s"],
                "haystack_dates": ["2023/05/01 (Mon) 09:00"],
                "haystack_sessions": [[{"role": "user", "content": "I live in Leeds."}]]}
    path.write_text(json.dumps([instance(q) for q in ids]))
    return str(path)


def _locomo(path: Path) -> str:
    path.write_text(json.dumps([{
        "sample_id": "conv-1",
        "conversation": {"speaker_a": "Ann", "speaker_b": "Bo",
                         "session_1_date_time": "1:56 pm on 8 May, 2023",
                         "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bo!"}]},
        "qa": []}]))
    return str(path)


def test_lme_from_starts_later_and_only_narrows_to_one_dataset(tmp_path: Path) -> None:
    lme = _lme(tmp_path / "lme.json", ["q1", "q2", "q3", "q4"])
    locomo = _locomo(tmp_path / "locomo.json")
    first = list(dataset_users(lme, 2, locomo))
    assert first == [("longmemeval", "audit-lme:q1", "q1"), ("longmemeval", "audit-lme:q2", "q2"),
                     ("locomo", "audit-locomo:conv-1", "conv-1")]
    later = list(dataset_users(lme, 2, locomo, "hybrid", lme_from=2, only="longmemeval"))
    assert later == [("longmemeval", "audit-hybrid-lme:q3", "q3"),
                     ("longmemeval", "audit-hybrid-lme:q4", "q4")]
    assert list(dataset_users(lme, 5, locomo, lme_from=3, only="locomo")) == \
        [("locomo", "audit-locomo:conv-1", "conv-1")]
    assert [u for _d, _s, u in dataset_users(lme, 5, locomo, lme_from=3, only="longmemeval")] \
        == ["q4"]
