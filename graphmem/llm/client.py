"""A small JSON-first client for any OpenAI-compatible chat endpoint, with retries and costs."""

from __future__ import annotations

import email.utils
import hashlib
import json
import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import diskcache
import openai
from openai.types.chat import ChatCompletion

from ..errors import ConfigError, GraphmemError

log = logging.getLogger(__name__)

T = TypeVar("T")
Message = dict[str, Any]

# What a validator may raise to say "this reply is wrong, ask again" (json errors are ValueErrors).
VALIDATION_ERRORS: tuple[type[Exception], ...] = (ValueError, TypeError, KeyError, IndexError,
                                                   AttributeError)
# response_format variants, best first; a 400 on one moves the client to the next for good.
FORMAT_MODES = ("json_schema", "json_object", "none")
_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(?P<body>.*?)\n?\s*```\s*$", re.DOTALL)


class LLMError(GraphmemError):
    """The LLM endpoint failed, refused the request, or kept returning unusable output."""


class LLMRequestRejected(LLMError):
    """The endpoint answered 4xx: retrying the same request will not help."""

    def __init__(self, message: str, status_code: int):
        super().__init__(message)
        self.status_code = status_code


# --- configuration ------------------------------------------------------------------------------


def _float_env(env: Mapping[str, str], name: str, default: float | None) -> float | None:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number") from None
    if value < 0:
        raise ConfigError(f"{name}={value} must not be negative")
    return value


@dataclass(frozen=True)
class LLMConfig:
    """Where the endpoint is, which model, how hard to retry, and what tokens cost (USD per 1M)."""

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 3
    price_in_per_1m: float = 0.0
    price_cached_in_per_1m: float | None = None  # None: cached prompt tokens cost the full price
    price_out_per_1m: float = 0.0
    backoff_base_s: float = 0.5  # first wait; doubles per retry, plus jitter
    backoff_max_s: float = 30.0  # cap on any single wait, Retry-After included
    temperature: float | None = None  # None: the server's default (some models accept no other)
    max_output_tokens: int | None = None  # cap on each reply's tokens; None: the server's default
    cache_dir: str | None = None  # replies kept on disk by request: a rerun sends nothing again

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None,
                 prefix: str = "GRAPHMEM_LLM_") -> LLMConfig | None:
        """The configured endpoint, or None when no base URL or model is set (offline mode).

        `prefix` names another endpoint's variables (GRAPHMEM_JUDGE_BASE_URL, …); the OPENAI_*
        fallbacks apply to the default one only."""
        e = os.environ if env is None else env
        default = prefix == "GRAPHMEM_LLM_"
        base_url = (e.get(f"{prefix}BASE_URL") or (e.get("OPENAI_BASE_URL") if default else "")
                    or "").strip()
        model = (e.get(f"{prefix}MODEL") or "").strip()
        if not base_url or not model:
            return None
        api_key = (e.get(f"{prefix}API_KEY") or (e.get("OPENAI_API_KEY") if default else "")
                   or "").strip()
        retries = _float_env(e, f"{prefix}MAX_RETRIES", 3.0) or 0.0
        if retries != int(retries):
            raise ConfigError(f"{prefix}MAX_RETRIES={retries} must be a whole number")
        return cls(
            base_url=base_url,
            model=model,
            api_key=api_key or None,
            timeout_s=_float_env(e, f"{prefix}TIMEOUT", 60.0) or 60.0,
            max_retries=int(retries),
            price_in_per_1m=_float_env(e, f"{prefix}PRICE_IN", 0.0) or 0.0,
            price_cached_in_per_1m=_float_env(e, f"{prefix}PRICE_CACHED_IN", None),
            price_out_per_1m=_float_env(e, f"{prefix}PRICE_OUT", 0.0) or 0.0,
            temperature=_float_env(e, f"{prefix}TEMPERATURE", None),
            max_output_tokens=int(_float_env(e, f"{prefix}MAX_TOKENS", 0) or 0) or None,
            cache_dir=(e.get(f"{prefix}CACHE_DIR") or "").strip() or None,
        )

    def cost_usd(self, prompt: int, cached_prompt: int, completion: int) -> float:
        cached = min(cached_prompt, prompt)
        cached_price = (self.price_in_per_1m if self.price_cached_in_per_1m is None
                        else self.price_cached_in_per_1m)
        return ((prompt - cached) * self.price_in_per_1m + cached * cached_price
                + completion * self.price_out_per_1m) / 1_000_000


@dataclass
class Usage:
    """Tokens, calls and dollars spent so far; `retries` and `repairs` count the extra requests."""

    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0  # completions received
    retries: int = 0  # requests re-sent after 429 / 5xx / connection errors
    repairs: int = 0  # follow-up requests asking the model to fix invalid JSON
    cache_hits: int = 0  # replies served from the on-disk cache (no tokens spent)
    cost_usd: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total_tokens": self.total_tokens}


# --- the client ---------------------------------------------------------------------------------


def _retry_after_s(response: Any) -> float | None:
    """Seconds the server asked us to wait (Retry-After-Ms, Retry-After seconds or HTTP date)."""
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def parse_json_reply(content: str) -> Any:
    """The JSON value of a reply, tolerating a Markdown fence or prose around one object."""
    fenced = _FENCE.match(content)
    text = fenced.group("body") if fenced else content.strip()
    try:
        return json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end and (start > 0 or end < len(text) - 1):
            try:
                return json.loads(text[start:end + 1])
            except ValueError:
                pass
        raise


def _with_schema_note(messages: Sequence[Message], schema_name: str,
                      json_schema: Mapping[str, Any]) -> list[Message]:
    """The messages with the schema spelled out, for servers that cannot enforce it."""
    note = (f"Reply with one JSON object only (no prose, no Markdown) matching this JSON schema "
            f"named {schema_name}:\n{json.dumps(json_schema, separators=(',', ':'))}")
    out = [dict(m) for m in messages]
    if out and out[0].get("role") == "system" and isinstance(out[0].get("content"), str):
        out[0]["content"] = f"{out[0]['content']}\n\n{note}"
    else:
        out.insert(0, {"role": "system", "content": note})
    return out


class LLMClient:
    """Chat completions with counted retries; `complete_json` adds schema, parse, repair."""

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None):
        self.config = config
        self.usage = Usage()
        self.format_mode = FORMAT_MODES[0]
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        # Our own retry loop, not the SDK's, so every retry is counted and its waits are bounded.
        self._openai = openai.OpenAI(base_url=config.base_url, api_key=config.api_key or "unused",
                                     timeout=config.timeout_s, max_retries=0)
        self._cache: Any = None
        if config.cache_dir:
            self._cache = diskcache.Cache(config.cache_dir)

    @property
    def model(self) -> str:
        return self.config.model

    def close(self) -> None:
        self._openai.close()
        if self._cache is not None:
            self._cache.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- one completion, retried ---------------------------------------------------------------

    def _backoff_s(self, attempt: int, error: Exception) -> float:
        cap = self.config.backoff_max_s
        asked = _retry_after_s(getattr(error, "response", None))
        if asked is not None:
            return min(asked, cap)
        base = self.config.backoff_base_s * (2 ** attempt)
        return min(cap, base + self._rng.uniform(0, base))

    def chat(self, messages: Sequence[Message], **params: Any) -> Any:
        """One chat completion (extra `params` go to the API as given); usage is recorded."""
        cfg = self.config
        if cfg.temperature is not None:
            params.setdefault("temperature", cfg.temperature)
        if cfg.max_output_tokens is not None:
            params.setdefault("max_tokens", cfg.max_output_tokens)
        key = None
        if self._cache is not None:
            key = hashlib.sha256(json.dumps(
                {"base_url": cfg.base_url, "model": cfg.model, "messages": list(messages),
                 "params": params}, sort_keys=True, default=str).encode()).hexdigest()
            hit = self._cache.get(key)
            if hit is not None:
                with self._lock:
                    self.usage.cache_hits += 1
                return ChatCompletion.model_validate(hit)
        response = self._create(messages, params)
        self._record(response)
        if key is not None:
            self._cache.set(key, response.model_dump(mode="json"))
        return response

    def _create(self, messages: Sequence[Message], params: dict[str, Any]) -> Any:
        """The completion from the endpoint: a 429, a 5xx or a lost connection is retried with
        backoff (at most `max_retries` times); another refusal is LLMRequestRejected at once."""
        cfg, attempt = self.config, 0
        while True:
            try:
                return self._openai.chat.completions.create(
                    model=cfg.model, messages=list(messages), **params)  # type: ignore[arg-type]
            except openai.APIStatusError as error:
                status = error.status_code
                if status != 429 and status < 500:
                    raise LLMRequestRejected(self._rejection_message(error), status) from error
                failure: Exception = error
                reason = f"HTTP {status}"
            except openai.APIConnectionError as error:  # includes timeouts
                failure, reason = error, f"{type(error).__name__}: {error}"
            if attempt >= cfg.max_retries:
                raise LLMError(f"the LLM endpoint {cfg.base_url} failed {attempt + 1} time(s) "
                               f"(last: {reason}); check that it is up and not rate-limiting "
                               f"you, or raise GRAPHMEM_LLM_MAX_RETRIES") from failure
            wait = self._backoff_s(attempt, failure)
            log.info("LLM request failed (%s); retry %d/%d in %.2fs", reason, attempt + 1,
                     cfg.max_retries, wait)
            with self._lock:
                self.usage.retries += 1
            self._sleep(wait)
            attempt += 1

    def _rejection_message(self, error: openai.APIStatusError) -> str:
        cfg, status = self.config, error.status_code
        hint = {401: "check GRAPHMEM_LLM_API_KEY", 403: "check the key's permissions",
                404: f"check GRAPHMEM_LLM_BASE_URL ({cfg.base_url}) and that model "
                     f"{cfg.model!r} exists there"}.get(status, "the request was not accepted")
        detail = re.sub(r"^Error code: \d+ - ", "", str(error.message))
        return f"the LLM endpoint rejected the request with HTTP {status}: {detail}; {hint}"

    def _record(self, response: Any) -> None:
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        details = getattr(usage, "prompt_tokens_details", None)
        cached = int(getattr(details, "cached_tokens", 0) or 0)
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_tokens += prompt
            self.usage.cached_prompt_tokens += cached
            self.usage.completion_tokens += completion
            self.usage.cost_usd += self.config.cost_usd(prompt, cached, completion)

    # --- JSON replies --------------------------------------------------------------------------

    def _complete_text(self, messages: Sequence[Message], schema_name: str,
                       json_schema: Mapping[str, Any], strict: bool) -> str:
        """The reply text, stepping down response_format modes the server rejects with 400."""
        first_mode = self.format_mode
        while True:
            mode = self.format_mode
            params: dict[str, Any] = {}
            sent = list(messages)
            if mode == "json_schema":
                params["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": schema_name, "schema": dict(json_schema), "strict": strict}}
            else:
                sent = _with_schema_note(messages, schema_name, json_schema)
                if mode == "json_object":
                    params["response_format"] = {"type": "json_object"}
            try:
                response = self.chat(sent, **params)
            except LLMRequestRejected as error:
                if error.status_code != 400 or mode == FORMAT_MODES[-1]:
                    # Not (or not only) about the format: keep the mode that was in use.
                    self.format_mode = first_mode
                    raise
                self.format_mode = FORMAT_MODES[FORMAT_MODES.index(mode) + 1]
                log.warning("LLM endpoint rejected response_format %s (%s); using %s", mode,
                            error, self.format_mode)
                continue
            choices = getattr(response, "choices", None) or []
            message = choices[0].message if choices else None
            content = getattr(message, "content", None)
            if not content:
                refusal = getattr(message, "refusal", None)
                return "" if not refusal else f"(refused: {refusal})"
            return str(content)

    def complete_json(self, messages: Sequence[Message], schema_name: str,
                      json_schema: Mapping[str, Any], validate: Callable[[Any], T], *,
                      strict: bool = True) -> T:
        """The reply parsed as JSON and passed through `validate`; one repair round on failure.

        `strict` asks the server to enforce the schema exactly (OpenAI's strict mode needs every
        property required and `additionalProperties: false`); pass False for looser schemas.
        """
        convo = list(messages)
        content = self._complete_text(convo, schema_name, json_schema, strict)
        try:
            return validate(parse_json_reply(content))
        except VALIDATION_ERRORS as error:
            first_error = f"{type(error).__name__}: {error}"
        log.info("LLM reply for %s was invalid (%s); asking for a repair", schema_name,
                 first_error)
        with self._lock:
            self.usage.repairs += 1
        convo += [
            {"role": "assistant", "content": content or "(empty reply)"},
            {"role": "user", "content": (
                f"Your reply could not be used: {first_error}. Reply again with only the "
                f"corrected JSON object for {schema_name}, matching the schema exactly, "
                f"with no other text.")},
        ]
        content = self._complete_text(convo, schema_name, json_schema, strict)
        try:
            return validate(parse_json_reply(content))
        except VALIDATION_ERRORS as error:
            snippet = content[:200] + ("…" if len(content) > 200 else "")
            raise LLMError(
                f"model {self.config.model!r} returned unusable JSON for {schema_name} twice "
                f"(first: {first_error}; after repair: {type(error).__name__}: {error}); "
                f"last reply began {snippet!r}. Try a stronger model or a server that supports "
                f"response_format json_schema") from error
