"""Which currency rules decided a user's slots.

A slot is decided by the rules of the graphmem that wrote, removed or marked wrong one of its
facts; an upgrade that changes the rules leaves every other slot decided the old way. So the user
node records the rules every one of its slots was decided by (`User.currency_rules`): set when
the user is created (no slot yet) and by `graphmem redecide`, never by a write that decides only
some slots. `graphmem doctor` counts the users whose record is not this version's, and
`graphmem redecide --stale` decides them again.

The version is a hash of the code that decides: the currency and slot modules, the predicate
registry they read, plan keys and name normalising, and the currency queries. Any edit there
(even a comment) is a new version; deciding again when nothing changed costs one transaction per
user and changes nothing.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent
SOURCES = ("currency.py", "slots.py", "predicates.py", "plan_keys.py", "entities.py", "models.py")
QUERIES = "currency_*.cypher"


@cache
def rules_version() -> str:
    """Twelve hex digits naming this version's currency rules."""
    h = hashlib.sha256()
    files = [_HERE / name for name in SOURCES] + sorted((_HERE / "cypher").glob(QUERIES))
    for path in files:
        h.update(path.name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:12]
