"""Retrieval for coverage: questions that aggregate or compare across sessions ("how many … in
total", "which … first", "all the …", "how many days between …") need one piece of evidence from
each of several sessions, not several turns of one session. For them, each further item of a
session counts for less than the one before it (diminishing returns per session), so the heads of
a tunnel and the top of the fused ranking spread across the sessions that carry evidence; a
session's single best item keeps its score, so a session that matches weakly is not promoted."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

# Wording that asks about several occasions at once: counting or summing, every/all of a kind,
# ordering or comparing events, the time or difference between two of them ("how long …
# between", "the difference in price between"; a bare "between" is as often two people as two
# occasions: "the talk between John and Tim").
_COVERAGE = re.compile(
    r"\b(?:how many|how much|in total|total|altogether|combined|overall|so far|"
    r"all (?:the|of|my)|every|each (?:time|of)|both|"
    r"which\b.{0,80}\b(?:first|last|earlier|later|before|after)|"
    r"(?:first|earlier|before|after)\b.{0,60}\bor\b|"
    r"in what order|order (?:of|in which)|"
    r"did i\b.{0,80}\bbefore|before or after|"
    r"how (?:many|much|long)\b.{0,40}\b(?:between|since|after|before|ago)|"
    r"(?:difference|gap|time|days|weeks|months|years)\b.{0,40}\bbetween)\b",
    re.I)


def wants_coverage(question: str) -> bool:
    """Does the question aggregate or compare across occasions (its wording only)?"""
    return bool(_COVERAGE.search(question))


def spread(items: Sequence[T], *, score: Callable[[T], float],
           session: Callable[[T], str | None], decay: float) -> list[T]:
    """`items` (best first) re-ordered by score × decay^n, n being how many better items of the
    same session come before it; items without a session keep their score. Ties keep order."""
    seen: dict[str, int] = {}
    keyed = []
    for pos, it in enumerate(items):
        s = session(it)
        n = seen.get(s, 0) if s is not None else 0
        if s is not None:
            seen[s] = n + 1
        keyed.append((-(score(it) * decay ** n), pos, it))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [it for _, _, it in keyed]
