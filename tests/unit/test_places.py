"""graphmem.places: a piece that repeats its whole turn shares the turn's place; a part of a
longer turn and a fact keep their own."""

from __future__ import annotations

from graphmem.models import Evidence
from graphmem.places import fold_whole_turn_pieces


def _e(id_: str, type_: str, text: str, score: float, turn: str) -> Evidence:
    return Evidence(id=id_, type=type_, text=text, score=score, turn_id=turn)


def test_a_piece_below_its_whole_turn_is_folded_into_it():
    ranked = [_e("fact:1", "fact", "User lives in Leeds.", 1.0, "turn:a"),
              _e("turn:a", "turn", "I live in Leeds.", 0.9, "turn:a"),
              _e("turn:b", "turn", "I work at Acme.", 0.5, "turn:b"),
              _e("piece:a", "piece", "I live in  Leeds.\n", 0.3, "turn:a"),
              _e("piece:b", "piece", "I work at Acme.", 0.2, "turn:b")]
    out = fold_whole_turn_pieces(ranked)
    assert [e.id for e in out] == ["fact:1", "turn:a", "turn:b"]
    assert out[1].merged == ["piece:a"] and out[2].merged == ["piece:b"]
    assert [e.score for e in out] == [1.0, 0.9, 0.5]


def test_a_piece_above_its_whole_turn_gives_the_turn_its_place():
    ranked = [_e("piece:a", "piece", "I live in Leeds.", 0.8, "turn:a"),
              _e("turn:b", "turn", "I work at Acme.", 0.5, "turn:b"),
              _e("turn:a", "turn", "I live in Leeds.", 0.4, "turn:a")]
    out = fold_whole_turn_pieces(ranked)
    assert [(e.id, e.score, e.merged) for e in out] == [
        ("turn:a", 0.8, ["piece:a"]), ("turn:b", 0.5, [])]


def test_a_part_of_a_longer_turn_and_a_lone_piece_keep_their_places():
    ranked = [_e("piece:a1", "piece", "I adopted a puppy.", 0.8, "turn:a"),
              _e("turn:a", "turn", "I adopted a puppy. My sister lives in Boston.", 0.6,
                 "turn:a"),
              _e("piece:c", "piece", "I live in York.", 0.4, "turn:c")]  # its turn not ranked
    assert [e.id for e in fold_whole_turn_pieces(ranked)] == ["piece:a1", "turn:a", "piece:c"]
