"""The raw-JSON door the CLI uses with GRAPHMEM_URL: the server's JSON as dicts, through
`graphmem.client.Client` (its errors, retries)."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from .client import Client, _present, _Request, _users


class RemoteMemory:
    """The server's JSON as dicts, for the CLI's output; through `Client` (its errors, retries)."""

    def __init__(self, url: str, api_key: str | None = None, timeout: float = 300):
        self.client = Client(url, api_key or "", timeout=timeout)
        self.url = self.client.base_url

    @classmethod
    def from_env(cls) -> RemoteMemory | None:
        """The server named by GRAPHMEM_URL, or None (then the CLI works in-process)."""
        url = (os.environ.get("GRAPHMEM_URL") or "").strip()
        return cls(url, os.environ.get("GRAPHMEM_API_KEY") or None) if url else None

    def __enter__(self) -> RemoteMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.raw(_Request(method, path, lambda d: d, **kwargs))

    @staticmethod
    def _when(value: datetime | None) -> str | None:
        return value.isoformat() if value else None

    def search(self, user_id: str, query: str, *, question_date: datetime | None, as_of:
               datetime | None, k: int, preset: str, explain: bool,
               metadata: dict[str, Any] | None = None, agent_id: str | None = None,
               run_id: str | None = None) -> dict[str, Any]:
        body = _present(query=query, question_date=self._when(question_date),
                        as_of=self._when(as_of), k=k, preset=preset, explain=explain,
                        metadata=metadata, agent_id=agent_id, run_id=run_id)
        return self._call("POST", f"{_users(user_id)}/search", json=body)

    def answer(self, user_id: str, question: str, *, question_date: datetime | None,
               budget: int, offline: bool, trace: bool) -> dict[str, Any]:
        body = {"question": question, "question_date": self._when(question_date),
                "budget": budget, "offline": offline, "trace": trace}
        return self._call("POST", f"{_users(user_id)}/answer", json=body)

    def upload(self, user_id: str, path: str, fmt: str, *, session: str | None,
               session_time: str | None) -> dict[str, Any]:
        params = {"format": fmt, "filename": Path(path).name, "session": session,
                  "session_time": session_time}
        return self._call("POST", f"{_users(user_id)}/transcripts", params=params,
                          content=Path(path).read_bytes())
