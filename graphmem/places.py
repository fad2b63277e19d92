"""The places of a search's answer: k places hold k different items. A piece whose words are its
whole turn's (a one-sentence message is one piece) is that turn a second time; when both rank,
the turn takes the better of their two places and lists the piece in `merged`. A piece that is
a part of a longer turn keeps its own place (it says where in the turn the match is), and a fact
keeps its own beside the turn it was said in (a statement with its status and interval, not the
words)."""

from __future__ import annotations

from .models import Evidence


def _words(text: str) -> str:
    return " ".join(text.split())


def fold_whole_turn_pieces(evidence: list[Evidence]) -> list[Evidence]:
    """`evidence` in its order, each piece that repeats its whole ranked turn folded into it."""
    turns = {e.turn_id: e for e in evidence if e.type == "turn" and e.turn_id}
    repeats = {e.id: turns[e.turn_id] for e in evidence
               if e.type == "piece" and e.turn_id in turns
               and _words(e.text) == _words(turns[e.turn_id].text)}
    placed: set[str] = set()
    out: list[Evidence] = []
    for e in evidence:
        turn = repeats.get(e.id, e)
        if turn is not e:
            turn.merged.append(e.id)
            turn.score = max(turn.score, e.score)  # scores never rise down the list
        if turn.id in placed:
            continue
        placed.add(turn.id)
        out.append(turn)
    return out
