"""Which currency rules decided a user's slots.

A slot is decided by the rules of the graphmem that wrote, removed or marked wrong one of its
facts; an upgrade that changes the rules leaves every other slot decided the old way. So the user
node records the rules every one of its slots was decided by (`User.currency_rules`):

- set when the user is created (no slot yet) and by `graphmem redecide` (every slot);
- kept by a write that decides some slots with the same rules; **cleared** (unknown: mixed) by
  one with other rules or with currency off (`user_write_lock`, `ingest_session`,
  `append_session`);
- kept by export and import.

`graphmem doctor` counts the users whose record is not this version's (other, mixed, or from
before the rules were recorded) and `graphmem redecide --stale` decides them again. A graphmem
from before the record cannot clear it: stop older writers before an upgrade's redecide.

The version is a hash of the code that decides — the modules in `SOURCES` (currency, slots, the
predicate registry, plan keys, name normalising and the calendar words they read, the slot
records and times of the store, the user's time zone that plan slots count days in) and the
queries in `QUERIES` — computed when graphmem is loaded.
Any edit there (even a comment) is a new version; deciding again when nothing changed costs a
transaction per user and changes nothing. A migration that moves facts between slots must clear
the record of the users it touches.
"""

from __future__ import annotations

import hashlib
from fnmatch import fnmatchcase
from importlib.resources import files

SOURCES = ("currency.py", "slots.py", "predicates.py", "plan_keys.py", "entities.py",
           "calendar_words.py", "models.py", "store/currency.py", "store/time.py",
           "timestamps.py")
QUERIES = ("currency_*.cypher", "user_slots.cypher", "user_time_zone.cypher")


def _digest() -> str:
    package = files("graphmem")
    queries = files("graphmem.cypher")
    names = sorted({q.name for pattern in QUERIES for q in queries.iterdir()
                    if fnmatchcase(q.name, pattern)})
    if not names:
        raise RuntimeError("graphmem's currency queries are missing from the installation")
    h = hashlib.sha256()
    for label, path in [(s, package.joinpath(s)) for s in SOURCES] + \
            [(n, queries.joinpath(n)) for n in names]:
        h.update(label.encode() + b"\0")
        h.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()[:12]


RULES_VERSION = _digest()


def rules_version() -> str:
    """Twelve hex digits naming the currency rules of the code loaded."""
    return RULES_VERSION
