"""What a browser may not do to `graphmem serve`: the one ASGI middleware in front of every route
(`/v1`, `/mcp`, `/docs`, `/healthz`).

- **Host**: a request naming a host the server does not answer to gets 421 (DNS rebinding: a
  page on `evil.example` whose name is made to resolve to 127.0.0.1 sends `Host: evil.example`).
  The server answers to the loopback names, the host it is bound to, and the hosts listed in
  `GRAPHMEM_ALLOWED_HOSTS` (comma-separated names, for a server behind a proxy or a DNS name).
  Bound to every interface (`0.0.0.0`, only possible with API keys) and given no list, any host.
- **Origin**: a request carrying an `Origin` other than the server's own (the scheme and the
  very host and port the request names) gets 403 — every cross-site request a browser sends
  (`fetch`, forms, `no-cors` posts) carries one; `Origin: null` (sandboxed pages, files) too.
- **Content type**: a body the server reads as JSON must say `application/json` (415 otherwise);
  a transcript upload must name its type and not one a page may send without asking the server
  first (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset(("localhost", "127.0.0.1", "::1"))
WILDCARD_BINDS = frozenset(("0.0.0.0", "::", ""))
# The types a page may POST cross-site without a CORS preflight (the "simple" requests).
SIMPLE_TYPES = frozenset(("text/plain", "application/x-www-form-urlencoded",
                          "multipart/form-data"))
BODY_METHODS = frozenset(("POST", "PUT", "PATCH"))
UPLOAD_PATH = re.compile(r"^/v1/users/[^/]+/transcripts/?$")
DEFAULT_PORTS = {"http": 80, "https": 443}


def allowed_hosts_from_env(env: dict[str, str] | None = None) -> list[str]:
    e = os.environ if env is None else env
    return [h.strip() for h in (e.get("GRAPHMEM_ALLOWED_HOSTS") or "").split(",") if h.strip()]


# A Host header as RFC 9110 allows it here: a name or an address, and a port. Anything else
# ("localhost:8420@evil.example", spaces, commas) is read two ways by two parsers: refused.
_HOST_GRAMMAR = re.compile(r"(?:\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::[0-9]{1,5})?", re.IGNORECASE)


def _hostname(value: str) -> str:
    """The name in a Host header or an allowed-host entry, lower case, without port or brackets."""
    v = value.strip().lower()
    if v.startswith("["):  # [::1]:8420
        v = v[1:].split("]", 1)[0]
    elif v.count(":") == 1:  # name:port (a bare IPv6 address has several colons)
        v = v.split(":", 1)[0]
    return v.rstrip(".")


def _host_port(value: str, scheme: str) -> tuple[str, int | None]:
    """(name, port) of a Host header or an Origin's netloc; the scheme's default port if none."""
    try:
        parts = urlsplit(f"{scheme}://{value.strip()}")
        port = parts.port
    except ValueError:
        return "", None
    return (parts.hostname or "").rstrip("."), port or DEFAULT_PORTS.get(scheme)


def _media_type(content_type: str | None) -> str | None:
    if not content_type:
        return None
    return content_type.split(";", 1)[0].strip().lower() or None


class RequestGuard:
    """ASGI middleware refusing foreign Host headers (421), foreign Origins (403) and bodies of
    the wrong content type (415) before any route, MCP included, sees the request."""

    def __init__(self, app: Any, *, host: str = "127.0.0.1",
                 allowed_hosts: Iterable[str] | None = None):
        self.app = app
        extra = list(allowed_hosts_from_env() if allowed_hosts is None else allowed_hosts)
        self.any_host = "*" in extra or (_hostname(host) in WILDCARD_BINDS and not extra)
        names = set(LOOPBACK_NAMES) | {_hostname(h) for h in extra if h != "*"}
        if _hostname(host) not in WILDCARD_BINDS:
            names.add(_hostname(host))
        self.hosts = frozenset(names)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self.refusal(scope)
        if refusal is not None:
            return await _refuse(send, *refusal)
        return await self.app(scope, receive, send)

    def refusal(self, scope: Any) -> tuple[int, str, str] | None:
        headers: dict[bytes, bytes] = {}
        for k, v in scope.get("headers") or ():
            headers.setdefault(k.lower(), v)  # the first of repeated headers, as Starlette reads
        host = headers.get(b"host", b"").decode("latin-1")
        if not host.strip():
            return 421, "missing_host", "the request names no Host; send a Host header"
        if not _HOST_GRAMMAR.fullmatch(host.strip()):
            return (421, "foreign_host", "the Host header is not a host name and port; send "
                    "Host: <name>[:port]")
        if not self.any_host and _hostname(host) not in self.hosts:
            return (421, "foreign_host",
                    f"this server does not answer to the host {_hostname(host)[:100]!r}; use "
                    f"{sorted(self.hosts)[0]} or add the name to GRAPHMEM_ALLOWED_HOSTS")
        origin = headers.get(b"origin")
        if origin is not None and not self._own_origin(origin.decode("latin-1"), host, scope):
            return (403, "foreign_origin",
                    "cross-origin requests are refused: the Origin "
                    f"{origin.decode('latin-1')[:100]!r} is not this server's own")
        if scope["method"] in BODY_METHODS:
            return self._content_type_refusal(scope["path"], headers.get(b"content-type"))
        return None

    @staticmethod
    def _own_origin(origin: str, host: str, scope: Any) -> bool:
        parts = urlsplit(origin.strip())
        if parts.scheme not in DEFAULT_PORTS or parts.path not in ("", "/") or parts.query:
            return False  # "null", file://, chrome-extension://, a malformed value
        if "@" in parts.netloc or parts.scheme != (scope.get("scheme") or "http"):
            return False  # userinfo hides the real host; https:// is not this http server
        try:
            origin_port = parts.port
        except ValueError:
            return False
        scheme = scope.get("scheme") or "http"
        own = _host_port(host, scheme if scheme in DEFAULT_PORTS else "http")
        theirs = ((parts.hostname or "").rstrip("."),
                  origin_port or DEFAULT_PORTS[parts.scheme])
        return bool(own[0]) and own == theirs

    @staticmethod
    def _content_type_refusal(path: str, raw: bytes | None) -> tuple[int, str, str] | None:
        media = _media_type(raw.decode("latin-1") if raw else None)
        if UPLOAD_PATH.match(path):
            if media is None or media in SIMPLE_TYPES:
                return (415, "unsupported_media_type",
                        f"send the transcript file with 'Content-Type: application/octet-stream' "
                        f"(or its own type, e.g. application/json), not {media or 'no type'}")
            return None
        if media != "application/json":
            return (415, "unsupported_media_type",
                    f"this endpoint reads JSON: send 'Content-Type: application/json', "
                    f"not {media or 'no type'}")
        return None


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
