"""What people are called, from the conversation itself: self-introductions ("my name is Kate",
"call me Kate", "Hi, I'm Kate") give a `name` fact about the speaker; a message that opens by
addressing someone ("Hey Kate!", "Thanks, Kate.") names the other person of a two-person chat.

A `name` fact competes in no slot: a person can be called several things, and every one of them
is an alias of the speaker that a question may use."""

from __future__ import annotations

import re

from ..models import NAME_PREDICATE, FactCandidate
from .text import Sentence, fact

PREDICATE = NAME_PREDICATE
_WORD = r"[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?"
_NAME = r"(?P<name>" + _WORD + ")"
# Capitalised words that open these phrases without being names.
NOT_NAMES = frozenset("""I I'm Im The A An And But So Oh Ok Okay Yes No Not Just Really Very Sure
Glad Happy Sorry Excited Thrilled Thankful Grateful Good Great Fine Well Here There This That
It Its We You Your My Me Our Thanks Thank Hey Hi Hello Dear Mom Mum Dad Guys Everyone All Man
Dude Bro Buddy Friend Friends Sir Madam Maam Boss Team Folks Babe Honey Love Sweetie Morning
Evening Afternoon Night Today Tomorrow Congrats Congratulations Wow Ah Haha Lol Also Still
Back Done Going Trying Working Looking Thinking Feeling Always Never Totally Absolutely Definitely
Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
July August September October November December""".split())

SELF = re.compile(
    r"\b(?:[Mm]y\s+name(?:\s+is|['’]s)|[Cc]all\s+me|I\s+go\s+by|[Pp]eople\s+call\s+me|"
    r"[Ee]veryone\s+calls\s+me|[Ff]riends\s+call\s+me)\s+" + _NAME + r"\b"
    r"|^(?:[Hh]i|[Hh]ello|[Hh]ey)(?:\s+there)?[,!.]?\s+(?:I['’]m|I\s+am|[Ii]t['’]s)\s+"
    r"(?P<greeted>" + _WORD + r")(?=\s*(?:[,.!;:]|\s+(?:here|from|and)\b|$))")
ADDRESS = re.compile(
    r"^\s*(?:(?:[Hh]i|[Hh]ey|[Hh]ello|[Hh]iya|[Yy]o|[Dd]ear|[Gg]ood\s+(?:morning|evening|"
    r"afternoon|to\s+see\s+you)|[Tt]hanks|[Tt]hank\s+you|[Cc]ongrats|[Cc]ongratulations|"
    r"[Ww]ow|[Oo]h|[Aa]w+)(?:\s+so\s+much)?[,!]?\s+)" + _NAME + r"\s*[!,.?]")


def _named(value: str) -> bool:
    return value not in NOT_NAMES and len(value) > 1


def self_introductions(s: Sentence) -> list[FactCandidate]:
    out: list[FactCandidate | None] = []
    for m in SELF.finditer(s.text):
        group = "name" if m.group("name") else "greeted"
        name = m.group(group)
        if not _named(name) or s.hedged(m.start()):
            continue
        out.append(fact(s, "attribute", PREDICATE, f"User is called {name}.", m.start(),
                        m.end(group), value=name))
    return [f for f in out if f]


def addressed_name(text: str, speakers: tuple[str, ...] = ()) -> tuple[str, int, int] | None:
    """(name, start, end) when a message opens by addressing someone by a name that is not one
    of `speakers` as labelled (a label already is the speaker's name)."""
    m = ADDRESS.match(text)
    if not m:
        return None
    name = m.group("name")
    if not _named(name) or name in speakers:
        return None
    return name, m.start(), m.end("name")
