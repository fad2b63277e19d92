"""A client of a running `graphmem serve` (GRAPHMEM_URL, with GRAPHMEM_API_KEY), so the CLI pays
no cold start: the server keeps the embedder and the driver warm."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from .errors import GraphmemError


class RemoteError(GraphmemError):
    """The server refused the request or could not be reached; the message says why."""


class RemoteMemory:
    def __init__(self, url: str, api_key: str | None = None, timeout: float = 300):
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.url = url.rstrip("/")
        self.http = httpx.Client(base_url=self.url, headers=headers, timeout=timeout)

    @classmethod
    def from_env(cls) -> RemoteMemory | None:
        """The server named by GRAPHMEM_URL, or None (then the CLI works in-process)."""
        url = (os.environ.get("GRAPHMEM_URL") or "").strip()
        return cls(url, os.environ.get("GRAPHMEM_API_KEY") or None) if url else None

    def __enter__(self) -> RemoteMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            r = self.http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise RemoteError(f"cannot reach graphmem at {self.url} ({type(exc).__name__}); start "
                              "`graphmem serve` or unset GRAPHMEM_URL") from None
        if r.status_code >= 400:
            try:
                message = r.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = r.text[:200]
            raise RemoteError(f"{message} (HTTP {r.status_code} from {self.url})")
        return r.json()

    @staticmethod
    def _when(value: datetime | None) -> str | None:
        return value.isoformat() if value else None

    def search(self, user_id: str, query: str, *, question_date: datetime | None, as_of:
               datetime | None, k: int, preset: str, explain: bool) -> dict[str, Any]:
        body = {"query": query, "question_date": self._when(question_date),
                "as_of": self._when(as_of), "k": k, "preset": preset, "explain": explain}
        return self._call("POST", f"/v1/users/{user_id}/search", json=body)

    def answer(self, user_id: str, question: str, *, question_date: datetime | None,
               budget: int, offline: bool, trace: bool) -> dict[str, Any]:
        body = {"question": question, "question_date": self._when(question_date),
                "budget": budget, "offline": offline, "trace": trace}
        return self._call("POST", f"/v1/users/{user_id}/answer", json=body)

    def upload(self, user_id: str, path: str, fmt: str, *, session: str | None,
               session_time: str | None) -> dict[str, Any]:
        params = {"format": fmt, "filename": Path(path).name}
        params.update({k: v for k, v in (("session", session), ("session_time", session_time))
                       if v})
        return self._call("POST", f"/v1/users/{user_id}/transcripts", params=params,
                          content=Path(path).read_bytes(),
                          headers={"Content-Type": "application/octet-stream"})
