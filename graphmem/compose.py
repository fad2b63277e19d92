"""Composition from settings, in one place: the embedder, the LLM clients, the extractor and the
relation judge that `Memory` works with (the CLI and the servers ask for them by name, never
build them)."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from .config import Settings
from .embed import ENV, Embedder, build, configured_key
from .errors import ConfigError
from .extract import Extractor, OfflineExtractor
from .extract.learned import HybridExtractor, ModelExtractor
from .extract.llm import LLMExtractor
from .llm import LLMClient, LLMConfig
from .relate import LLMRelationJudge

EXTRACTORS = ("offline", "model", "hybrid", "llm")  # rules, learned, both, an LLM
LOCAL_EXTRACTORS = ("offline", "model", "hybrid")  # the extractors that need no LLM endpoint
RELATIONS = ("auto", "rules", "llm")  # who decides relations beyond the slot rules


_EMBEDDERS: dict[tuple[str, ...], Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def embedder(key: str | None = None, env: Mapping[str, str] | None = None) -> Embedder:
    """The embedder named by `key`, else by GRAPHMEM_EMBEDDER (default in graphmem.embed); one
    per process and configuration, since loading a model is the slow part."""
    e = os.environ if env is None else env
    key = configured_key({ENV: key} if key else e)
    cache_dir = Settings.from_env(e).local.cache_dir
    ident = (key, str(cache_dir), *(f"{k}={v}" for k, v in sorted(e.items())
                                    if k.startswith("GRAPHMEM_EMBED_")))
    with _EMBEDDERS_LOCK:
        if ident not in _EMBEDDERS:
            _EMBEDDERS[ident] = build(key, e, cache_dir)
        return _EMBEDDERS[ident]


def llm_client(needed_by: str | None = None, prefix: str = "GRAPHMEM_LLM_",
               env: Mapping[str, str] | None = None) -> LLMClient | None:
    """The LLM client configured by `<prefix>*` variables; None when there is none, unless
    `needed_by` names what requires one (then a ConfigError saying what to set)."""
    config = LLMConfig.from_env(env, prefix=prefix)
    if config is None and needed_by:
        raise ConfigError(f"{needed_by} needs an OpenAI-compatible endpoint: set {prefix}BASE_URL "
                          f"and {prefix}MODEL (and {prefix}API_KEY if it needs one)")
    return LLMClient(config) if config else None


@dataclass
class IngestParts:
    """What ingesting uses besides the graph and the embedder."""

    extractor: Extractor
    relation_judge: object | None
    client: LLMClient | None  # the client extraction and judging spend tokens on, if any


def ingest_parts(extractor: str = "offline", relations: str = "auto",
                 env: Mapping[str, str] | None = None) -> IngestParts:
    """The extractor and relation judge named by `extractor` (offline: the rules; model: the
    learned tagger; hybrid: both; llm) and `relations`
    (auto: the LLM judges when it extracts; rules: nobody beyond the slot rules; llm)."""
    if extractor not in EXTRACTORS:
        raise ConfigError(f"unknown extractor {extractor!r}; use one of {', '.join(EXTRACTORS)}")
    if relations not in RELATIONS:
        raise ConfigError(f"unknown relations {relations!r}; use one of {', '.join(RELATIONS)}")
    use_judge = relations == "llm" or (relations == "auto" and extractor == "llm")
    client = None
    if use_judge or extractor == "llm":
        client = llm_client("--extractor llm" if extractor == "llm" else "--relations llm",
                            env=env)
    chosen: Extractor
    if extractor == "offline":
        chosen = OfflineExtractor()
    elif extractor in ("model", "hybrid"):
        chosen = ModelExtractor()
        if extractor == "hybrid":
            chosen = HybridExtractor(OfflineExtractor(), chosen)
    else:
        assert client is not None  # made above for the LLM extractor
        chosen = LLMExtractor(client)
    judge = None
    if use_judge:
        assert client is not None  # made above for the judge
        judge = LLMRelationJudge(client)
    return IngestParts(chosen, judge, client)
