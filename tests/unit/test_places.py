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


def test_retrieval_folds_the_rows_as_memory_folded_the_evidence():
    """`fusion.folded_evidence` (what `Memory.search` now asks retrieval for: evidence of k places
    only) gives what the evidence of the first `depth` rows, scores capped and folded, gives:
    places, scores and merged ids, for every k, with a turn ranked below the depth left out."""
    from graphmem.retrieval.fusion import evidence_of, folded_evidence, scores_in_rank_order
    from graphmem.retrieval.rows import Detail, Ranked

    def row(id_, type_, text, conf, turn, merged=()):
        return Ranked(Detail(type_, id_, text, turn_id=turn, source_turn_ids=(turn,)), conf, [],
                      [], 0, 0.0, None, conf=conf, merged=list(merged))

    rows = [row("piece:a", "piece", "I live in Leeds.", 0.9, "turn:a"),
            row("fact:1", "fact", "User lives in Leeds.", 0.95, "turn:a"),  # reordered above
            row("turn:b", "turn", "I work at Acme.", 0.5, "turn:b", ["turn:x"]),
            row("turn:a", "turn", "I live in  Leeds.", 0.4, "turn:a"),
            row("piece:b", "piece", "I work at Acme.", 0.3, "turn:b"),
            row("piece:c1", "piece", "I adopted a puppy.", 0.25, "turn:c"),
            row("piece:d", "piece", "Bye.", 0.2, "turn:d"),
            row("turn:d", "turn", "Bye.", 0.1, "turn:d")]  # below the depth of 7
    for depth in (len(rows), 7, 3):
        whole = fold_whole_turn_pieces(scores_in_rank_order(evidence_of(rows[:depth])))
        for k in range(1, len(rows) + 2):
            got = folded_evidence(rows, k, depth)
            assert [e.model_dump() for e in got] == [e.model_dump() for e in whole[:k]], (depth, k)
    got = folded_evidence(rows, 10, 7)
    assert [(e.id, e.score, e.merged) for e in got] == [
        ("turn:a", 0.9, ["piece:a"]), ("fact:1", 0.9, []), ("turn:b", 0.5, ["turn:x", "piece:b"]),
        ("piece:c1", 0.25, []), ("piece:d", 0.2, [])]
