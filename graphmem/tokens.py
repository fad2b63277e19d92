"""Tokenised texts in batches for an ONNX encoder: sorted by length, padded to the longest of each
batch (the bge/e5 embedder and the learned extractor feed their models alike)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np


def padded_batches(encodings: Sequence[Any], batch_size: int
                   ) -> Iterator[tuple[list[int], np.ndarray, np.ndarray]]:
    """(the encodings' indexes, input_ids, attention_mask) per batch of `tokenizers` encodings,
    shortest first, so padding is small."""
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    for start in range(0, len(order), batch_size):
        chunk = order[start:start + batch_size]
        width = max(len(encodings[i].ids) for i in chunk)
        ids = np.zeros((len(chunk), width), dtype=np.int64)
        mask = np.zeros((len(chunk), width), dtype=np.int64)
        for row, i in enumerate(chunk):
            n = len(encodings[i].ids)
            ids[row, :n] = encodings[i].ids
            mask[row, :n] = 1
        yield chunk, ids, mask
