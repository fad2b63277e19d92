"""API keys, each bound to the user ids it may touch (or to every user, for an admin key).

Keys come from `GRAPHMEM_API_KEYS` (`KEY=alice,bob;ADMINKEY=*`) and/or the JSON file named by
`GRAPHMEM_API_KEYS_FILE` (`{"KEY": ["alice", "bob"], "ADMINKEY": "*"}`)."""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConfigError

ALL_USERS = "*"


@dataclass(frozen=True)
class Grant:
    users: frozenset[str]

    @property
    def admin(self) -> bool:
        return ALL_USERS in self.users

    def allows(self, user_id: str | None) -> bool:
        """May this key touch `user_id` (None: every user's totals, admin only)?"""
        return self.admin or (user_id is not None and user_id in self.users)


@dataclass
class KeyRing:
    grants: dict[str, Grant] = field(default_factory=dict)

    @property
    def enabled(self) -> bool:
        return bool(self.grants)

    def lookup(self, key: str | None) -> Grant | None:
        """The grant of a presented key (compared in constant time), or None."""
        if not key:
            return None
        found = None
        for known, grant in self.grants.items():
            if hmac.compare_digest(known.encode(), key.encode()):
                found = grant
        return found

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> KeyRing:
        e = os.environ if env is None else env
        ring = cls()
        for part in (e.get("GRAPHMEM_API_KEYS") or "").split(";"):
            if not part.strip():
                continue
            key, sep, users = part.partition("=")
            if not sep or not key.strip() or not users.strip():
                raise ConfigError("GRAPHMEM_API_KEYS: write KEY=user1,user2 (or KEY=*), "
                                  f"separated by ';' (got {part.strip()[:8]!r}…)")
            ring._add(key.strip(), [u.strip() for u in users.split(",") if u.strip()])
        path = e.get("GRAPHMEM_API_KEYS_FILE")
        if path:
            ring._load_file(Path(path))
        return ring

    def _load_file(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"GRAPHMEM_API_KEYS_FILE: cannot read {path}: {exc.strerror}") from None
        except ValueError as exc:
            raise ConfigError(f"GRAPHMEM_API_KEYS_FILE: {path} is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ConfigError(f'{path}: expected {{"KEY": ["user", …] or "*"}}')
        for key, users in data.items():
            if users == ALL_USERS:
                users = [ALL_USERS]
            if not isinstance(users, list) or not all(isinstance(u, str) for u in users):
                raise ConfigError(f'{path}: the users of a key are a list of ids or "*"')
            self._add(key, users)

    def _add(self, key: str, users: list[str]) -> None:
        if len(key) < 8:
            raise ConfigError("API keys must be at least 8 characters long")
        self.grants[key] = Grant(frozenset(users))
