"""Query embeddings batched across threads: the same vectors as one call each, fewer calls."""

import threading

import pytest

from graphmem.compose import embedder as configured_embedder
from graphmem.server.batching import BatchingEmbedder

TEXTS = [f"where did I put the blue notebook number {i}?" for i in range(8)]


def test_concurrent_embeds_share_model_calls_and_get_their_own_vectors():
    model = configured_embedder()
    alone = [model.embed_query(t) for t in TEXTS]
    batching = BatchingEmbedder(model)
    barrier = threading.Barrier(len(TEXTS))
    got: dict[int, list[float]] = {}

    def ask(i: int) -> None:
        barrier.wait()
        got[i] = batching.embed_query(TEXTS[i])

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(TEXTS))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert batching.jobs == len(TEXTS) and batching.calls < len(TEXTS)
    for i, vector in enumerate(alone):
        assert len(got[i]) == batching.dimensions
        # int8 models quantise activations per batch: a text's vector moves a little with its
        # batch mates, never its meaning
        assert sum(a * b for a, b in zip(got[i], vector, strict=True)) > 0.99


def test_an_error_reaches_the_caller_and_the_next_call_runs():
    batching = BatchingEmbedder(configured_embedder())
    with pytest.raises(Exception):  # noqa: B017 - whatever the model raises for a non-text
        batching.embed_queries([None])  # type: ignore[list-item]
    assert batching.embed_queries([]) == []
    assert len(batching.embed_query("still working")) == batching.dimensions
