"""The places of a search's answer: k places hold k different items. A piece whose words are its
whole turn's (a one-sentence message is one piece) is that turn a second time; when both rank,
the turn takes the better of their two places and lists the piece in `merged`. A piece that is
a part of a longer turn keeps its own place (it says where in the turn the match is), and a fact
keeps its own beside the turn it was said in (a statement with its status and interval, not the
words)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .models import Evidence

T = TypeVar("T")


def _words(text: str) -> str:
    return " ".join(text.split())


def whole_turn_places(items: Sequence[T], type_of: Callable[[T], str],
                      turn_of: Callable[[T], str | None], text_of: Callable[[T], str]
                      ) -> list[tuple[int, list[int]]]:
    """The places of `items` (ranked, each id once) once each piece that repeats its whole
    ranked turn is folded into it: per place, the index of the item there and the indexes of the
    pieces folded into it, in rank order. The turn takes the better of its place and its pieces'
    places."""
    turns = {turn_of(e): i for i, e in enumerate(items) if type_of(e) == "turn" and turn_of(e)}
    repeats = {}
    for i, e in enumerate(items):
        turn = turns.get(turn_of(e)) if type_of(e) == "piece" else None
        if turn is not None and _words(text_of(e)) == _words(text_of(items[turn])):
            repeats[i] = turn
    places: dict[int, list[int]] = {}  # the item placed → the pieces folded into it
    for i in range(len(items)):
        at = repeats.get(i, i)
        folded = places.setdefault(at, [])
        if at != i:
            folded.append(i)
    return list(places.items())


def fold_whole_turn_pieces(evidence: list[Evidence]) -> list[Evidence]:
    """`evidence` in its order, each piece that repeats its whole ranked turn folded into it."""
    out: list[Evidence] = []
    for at, folded in whole_turn_places(evidence, lambda e: e.type, lambda e: e.turn_id,
                                        lambda e: e.text):
        turn = evidence[at]
        for i in folded:
            turn.merged.append(evidence[i].id)
            turn.score = max(turn.score, evidence[i].score)  # scores never rise down the list
        out.append(turn)
    return out
