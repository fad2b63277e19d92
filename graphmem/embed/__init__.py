"""Text embeddings: the Embedder protocol and the registry of embedders graphmem can use.

An embedder embeds documents (what ingest stores: turns, facts, entity names) and queries (what
search asks) apart, since retrieval models such as bge and e5 are trained with different
prefixes for the two sides. Its `name` and `dimensions` identify the vector space; the database
records them (graphmem.vectorspace), so vectors of two models are never mixed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ..errors import ConfigError
from .minilm import MiniLMEmbedder
from .onnx import MODELS, OnnxEmbedder
from .openai import OpenAIEmbedder


class Embedder(Protocol):
    name: str  # the model, as recorded in the database

    @property
    def dimensions(self) -> int: ...

    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...

    def embed_queries(self, texts: list[str]) -> list[list[float]]: ...


def window_ends(embedder: Embedder, texts: list[str], fallback_chars: int) -> list[int]:
    """For each document, the character offset where the embedder stops reading it (its length
    when the whole text fits). Embedders with a local tokenizer say it exactly (`window_ends`);
    for the others a text is taken to be read up to `fallback_chars`."""
    exact = getattr(embedder, "window_ends", None)
    if exact is not None:
        return exact(texts)
    return [min(len(t), fallback_chars) for t in texts]


@dataclass(frozen=True)
class EmbedderChoice:
    key: str  # the value of GRAPHMEM_EMBEDDER / `reembed --to`
    about: str


# Every embedder graphmem offers, declared once (the CLI, doctor and the docs read this).
EMBEDDERS: dict[str, EmbedderChoice] = {c.key: c for c in (
    EmbedderChoice("minilm", "all-MiniLM-L6-v2 (sentence-transformers, from its PyPI package)"),
    EmbedderChoice("bge-small", "bge-small-en-v1.5, int8 ONNX from a Maven Central jar"),
    EmbedderChoice("e5-small", "e5-small-v2, int8 ONNX from a Maven Central jar"),
    EmbedderChoice("openai", "an OpenAI-compatible /embeddings endpoint (GRAPHMEM_EMBED_*)"),
)}
DEFAULT_EMBEDDER = "bge-small"  # chosen by recall, side by side (docs/benchmarks.md)
ENV = "GRAPHMEM_EMBEDDER"


def configured_key(env: Mapping[str, str]) -> str:
    key = (env.get(ENV) or DEFAULT_EMBEDDER).strip()
    if key not in EMBEDDERS:
        raise ConfigError(f"{ENV}={key!r} is not an embedder; use one of {', '.join(EMBEDDERS)}")
    return key


def build(key: str, env: Mapping[str, str], cache_dir) -> Embedder:
    """A new embedder of the registry (models load on first use)."""
    if key == "minilm":
        return MiniLMEmbedder()
    if key in ("bge-small", "e5-small"):
        return OnnxEmbedder(MODELS[key], cache_dir)
    if key == "openai":
        return OpenAIEmbedder.from_env(env)
    raise ConfigError(f"unknown embedder {key!r}; use one of {', '.join(EMBEDDERS)}")

