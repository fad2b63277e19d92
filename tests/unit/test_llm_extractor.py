"""LLMExtractor and LLMClient against a local OpenAI-compatible stub over real HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphmem.extract.base import Extractor
from graphmem.extract.llm import LLMExtractor
from graphmem.llm import LLMClient, LLMConfig, LLMError, Usage
from graphmem.models import FactCandidate, RoleRef
from graphmem.prompts.extract_facts import parse_candidates, snap_to_text
from tests import llmstub
from tests.llmstub import LLMStub, StubReply

# The stub's fixture, bound here by assignment: an import would be flagged as redefined (F811) by
# every test that takes it as a parameter.
llm_stub = llmstub.llm_stub

PIECE = "I moved to Denver last March and I work at Acme Corp now."


def fact(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "attribute", "predicate": "lives_in", "value": "Denver", "subject": "user",
        "modality": "asserted", "text": "The user lives in Denver.",
        "support": "I moved to Denver last March", "time_text": "last March",
        "roles": [{"role": "location", "name": "Denver", "type": "place"}]}
    base.update(fields)
    return base


def supported(cand: FactCandidate, text: str) -> bool:
    """The ingest pipeline's provenance rule: the support occurs literally in the piece."""
    return bool(cand.support.strip()) and cand.support in text


class Waits:
    """Records backoff waits instead of sleeping."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def make(stub: LLMStub, **overrides: Any) -> tuple[LLMExtractor, LLMClient, Waits]:
    waits = Waits()
    client = LLMClient(stub.config(**overrides), sleep=waits)
    return LLMExtractor(client), client, waits


def test_normal_extraction(llm_stub: LLMStub) -> None:
    llm_stub.reply_json({"facts": [
        fact(),
        fact(kind="attribute", predicate="Works At", value="Acme Corp",
             text="The user works at Acme Corp.", support="I work at Acme Corp now",
             time_text=None, roles=[{"role": "employer", "name": "Acme Corp",
                                     "type": "organization"}]),
    ]})
    extractor, client, _ = make(llm_stub)
    assert isinstance(extractor, Extractor) and extractor.name == "llm:stub-model"
    cands = extractor.extract(PIECE, "user")
    assert [c.predicate for c in cands] == ["lives_in", "works_at"]
    first = cands[0]
    assert first == FactCandidate(
        kind="attribute", predicate="lives_in", text="The user lives in Denver.",
        support="I moved to Denver last March", modality="asserted", subject="user",
        value="Denver", roles=[RoleRef("location", "Denver", "place")], time_text="last March",
        extracted_by="llm:stub-model")
    assert all(supported(c, PIECE) for c in cands)
    assert cands[1].time_text is None
    # The request carried the piece, the speaker role, the model and a strict JSON schema.
    body = llm_stub.requests[0]
    assert body["model"] == "stub-model"
    assert PIECE in llm_stub.prompt_text()
    assert "Speaker: user" in llm_stub.prompt_text()
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "fact_events"
    assert fmt["json_schema"]["schema"]["required"] == ["facts"]
    assert llm_stub.request_headers[0]["authorization"] == "Bearer stub-key"
    assert client.usage.calls == 1 and client.usage.retries == 0


def test_support_not_in_text_is_returned_unchanged(llm_stub: LLMStub) -> None:
    invented = "I relocated to Denver in spring"
    llm_stub.reply_json({"facts": [fact(support=invented, time_text="in spring")]})
    extractor, _, _ = make(llm_stub)
    [cand] = extractor.extract(PIECE, "user")
    # The extractor neither drops nor "fixes" it, and invents no offsets or piece ids:
    # ingest's provenance check is what rejects it.
    assert cand.support == invented
    assert not supported(cand, PIECE)
    assert cand.piece_ids == []
    # A time phrase that is not in the piece is not passed on to temporal resolution.
    assert cand.time_text is None


def test_support_differing_only_in_case_or_quotes_is_snapped_to_the_piece() -> None:
    text = "Honestly, I’m vegetarian since 2019."
    [cand] = parse_candidates({"facts": [fact(
        kind="attribute", predicate="diet", value="vegetarian", support="i'm Vegetarian",
        time_text="Since 2019", roles=[])]}, text)
    assert cand.support == "I’m vegetarian" and supported(cand, text)
    assert cand.time_text == "since 2019"
    assert snap_to_text("vegan", text) is None


def test_malformed_json_then_repair(llm_stub: LLMStub) -> None:
    llm_stub.reply('{"facts": [ {"kind": "attribute", ')
    llm_stub.reply_json({"facts": [fact()]})
    extractor, client, _ = make(llm_stub)
    cands = extractor.extract(PIECE, "user")
    assert [c.value for c in cands] == ["Denver"]
    assert len(llm_stub.requests) == 2
    repair = llm_stub.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"facts": [ {"kind": "attribute", '}
    assert "could not be used" in repair[-1]["content"]
    assert "JSONDecodeError" in repair[-1]["content"]
    assert client.usage.repairs == 1 and client.usage.calls == 2


def test_wrong_shape_triggers_repair_with_the_validation_error(llm_stub: LLMStub) -> None:
    llm_stub.reply_json({"facts": "none"})
    llm_stub.reply("```json\n" + json.dumps({"facts": []}) + "\n```")
    extractor, _, _ = make(llm_stub)
    assert extractor.extract(PIECE, "user") == []
    assert '{"facts": [...]}' in llm_stub.requests[1]["messages"][-1]["content"]


def test_malformed_json_twice_raises(llm_stub: LLMStub) -> None:
    llm_stub.reply("not json at all")
    llm_stub.reply("still {not json")
    extractor, _, _ = make(llm_stub)
    with pytest.raises(LLMError) as info:
        extractor.extract(PIECE, "user")
    message = str(info.value)
    assert "unusable JSON for fact_events twice" in message
    assert "stub-model" in message and "still {not json" in message
    assert len(llm_stub.requests) == 2


def test_rate_limit_with_retry_after_then_success(llm_stub: LLMStub) -> None:
    llm_stub.reply_error(429, retry_after="0")
    llm_stub.reply_json({"facts": [fact()]})
    extractor, client, waits = make(llm_stub)
    assert len(extractor.extract(PIECE, "user")) == 1
    assert client.usage.retries == 1 and client.usage.calls == 1
    assert waits.waits == [0.0]  # Retry-After honoured instead of the backoff
    assert len(llm_stub.requests) == 2


def test_retry_after_is_capped(llm_stub: LLMStub) -> None:
    llm_stub.reply_error(503, retry_after="3600")
    llm_stub.reply_json({"facts": []})
    _, client, waits = make(llm_stub, backoff_max_s=0.05)
    client.complete_json([{"role": "user", "content": "hi"}], "x", {"type": "object"},
                         lambda obj: obj)
    assert waits.waits == [0.05]


def test_server_errors_exhaust_retries(llm_stub: LLMStub) -> None:
    for _ in range(3):
        llm_stub.reply_error(500)
    extractor, client, waits = make(llm_stub, max_retries=2, backoff_base_s=0.001)
    with pytest.raises(LLMError) as info:
        extractor.extract(PIECE, "user")
    assert "failed 3 time(s)" in str(info.value) and "HTTP 500" in str(info.value)
    assert len(llm_stub.requests) == 3
    assert client.usage.retries == 2 and client.usage.calls == 0
    # Exponential backoff with jitter: each wait within [base·2^k, 2·base·2^k].
    assert len(waits.waits) == 2
    assert 0.001 <= waits.waits[0] <= 0.002 and 0.002 <= waits.waits[1] <= 0.004


def test_connection_error_is_retried_then_reported() -> None:
    with LLMStub() as stub:
        config = stub.config(max_retries=1)
    waits = Waits()
    client = LLMClient(config, sleep=waits)  # the stub is gone: nothing listens on that port
    with pytest.raises(LLMError, match="failed 2 time"):
        client.complete_json([{"role": "user", "content": "hi"}], "x", {}, lambda obj: obj)
    assert client.usage.retries == 1 and len(waits.waits) == 1


def test_timeout_is_retried(llm_stub: LLMStub) -> None:
    llm_stub.push(StubReply(content='{"facts": []}', delay_s=0.5))
    llm_stub.reply_json({"facts": [fact()]})
    extractor, client, _ = make(llm_stub, timeout_s=0.1, max_retries=1)
    assert len(extractor.extract(PIECE, "user")) == 1
    assert client.usage.retries == 1 and client.usage.calls == 1


def test_json_wrapped_in_prose_needs_no_repair(llm_stub: LLMStub) -> None:
    llm_stub.reply("Here you go:\n" + json.dumps({"facts": [fact()]}) + "\nHope this helps!")
    extractor, client, _ = make(llm_stub)
    assert len(extractor.extract(PIECE, "user")) == 1
    assert client.usage.repairs == 0 and len(llm_stub.requests) == 1


def test_client_errors_are_not_retried(llm_stub: LLMStub) -> None:
    llm_stub.reply_error(401, body={"error": {"message": "bad key", "type": "auth"}})
    _, client, _ = make(llm_stub)
    with pytest.raises(LLMError, match="HTTP 401.*GRAPHMEM_LLM_API_KEY"):
        client.complete_json([{"role": "user", "content": "hi"}], "x", {}, lambda obj: obj)
    assert len(llm_stub.requests) == 1 and client.usage.retries == 0


def test_json_schema_rejected_falls_back_to_json_object(llm_stub: LLMStub) -> None:
    llm_stub.reply_error(400, body={"error": {"message": "response_format json_schema is not "
                                                         "supported", "type": "invalid"}})
    llm_stub.reply_json({"facts": [fact()]})
    llm_stub.reply_json({"facts": []})
    extractor, client, _ = make(llm_stub)
    assert len(extractor.extract(PIECE, "user")) == 1
    assert extractor.extract("Thanks!", "user") == []
    assert [r["response_format"]["type"] for r in llm_stub.requests] == [
        "json_schema", "json_object", "json_object"]
    # Without schema enforcement, the schema is spelled out in the system prompt.
    assert '"support"' in llm_stub.requests[1]["messages"][0]["content"]
    assert client.format_mode == "json_object" and client.usage.retries == 0


def test_a_400_on_every_format_keeps_the_format_and_raises(llm_stub: LLMStub) -> None:
    for _ in range(3):
        llm_stub.reply_error(400, body={"error": {"message": "context too long", "type": "x"}})
    _, client, _ = make(llm_stub)
    with pytest.raises(LLMError, match="HTTP 400: context too long"):
        client.complete_json([{"role": "user", "content": "hi"}], "x", {}, lambda obj: obj)
    assert [r.get("response_format", {}).get("type") for r in llm_stub.requests] == [
        "json_schema", "json_object", None]
    assert client.format_mode == "json_schema"


def test_api_key_is_not_in_the_config_repr() -> None:
    assert "sk-secret" not in repr(LLMConfig(base_url="http://h/v1", model="m",
                                             api_key="sk-secret"))


def test_unknown_kind_and_malformed_items_are_dropped(llm_stub: LLMStub) -> None:
    llm_stub.reply_json({"facts": [
        fact(kind="mood"),  # unknown kind
        fact(modality="definitely"),  # unknown modality
        fact(predicate=42),  # wrong type
        fact(predicate="job_title"),  # not a registry predicate: currency would never know it
        fact(predicate="plans_to_visit"),
        fact(support=""),  # empty support
        fact(roles="Denver"),  # wrong type
        "a string, not an object",
        fact(value=2, predicate="owns_count:Guinea Pig", kind="possession",
             roles=[{"role": "object", "name": "guinea pig", "type": "critter"},
                    {"role": "object"}]),
        fact(),
        fact(),  # a duplicate
    ]})
    extractor, _, _ = make(llm_stub)
    cands = extractor.extract(PIECE, "user")
    assert [(c.kind, c.predicate, c.value) for c in cands] == [
        ("possession", "owns_count:guinea_pig", "2"), ("attribute", "lives_in", "Denver")]
    assert "- lives_in: " in llm_stub.prompt_text()  # the registry is the prompt's vocabulary
    schema = llm_stub.requests[0]["response_format"]["json_schema"]["schema"]
    assert "pattern" in schema["properties"]["facts"]["items"]["properties"]["predicate"]
    assert cands[0].roles == [RoleRef("object", "guinea pig", "other")]
    assert len(llm_stub.requests) == 1  # dropping items is not a reason to ask again


def test_usage_and_cost_accumulate(llm_stub: LLMStub) -> None:
    llm_stub.reply_json({"facts": []}, prompt_tokens=1000, completion_tokens=200,
                        cached_tokens=400)
    llm_stub.reply_error(429, retry_after="0")
    llm_stub.reply_json({"facts": [fact()]}, prompt_tokens=3000, completion_tokens=100)
    extractor, client, _ = make(llm_stub, price_in_per_1m=0.30, price_cached_in_per_1m=0.075,
                                price_out_per_1m=2.50)
    extractor.extract("Hello there.", "user")
    extractor.extract(PIECE, "user")
    usage = client.usage
    assert (usage.prompt_tokens, usage.cached_prompt_tokens, usage.completion_tokens) == (
        4000, 400, 300)
    assert usage.calls == 2 and usage.retries == 1 and usage.total_tokens == 4300
    expected = (600 * 0.30 + 400 * 0.075 + 200 * 2.50 + 3000 * 0.30 + 100 * 2.50) / 1e6
    assert usage.cost_usd == pytest.approx(expected)
    total = Usage()
    total.add(usage)
    total.add(usage)
    assert total.calls == 4 and total.cost_usd == pytest.approx(2 * expected)


def test_cached_price_defaults_to_full_input_price() -> None:
    config = LLMConfig(base_url="http://x/v1", model="m", price_in_per_1m=1.0,
                       price_out_per_1m=2.0)
    assert config.cost_usd(1000, 500, 1000) == pytest.approx((1000 * 1.0 + 1000 * 2.0) / 1e6)


def test_batch_extraction_answers_later_extract_calls(llm_stub: LLMStub) -> None:
    other = "My sister Ana adopted a puppy."
    llm_stub.reply_json({"pieces": [
        {"id": 0, "facts": [fact()]},
        {"id": 1, "facts": [fact(kind="possession", predicate="owns_count:dog", value="1",
                                 subject="Ana", support="My sister Ana adopted a puppy",
                                 time_text=None, roles=[])]},
        {"id": 7, "facts": [fact()]},  # no such piece
    ]})
    client = LLMClient(llm_stub.config(), sleep=Waits())
    extractor = LLMExtractor(client, batch=True)
    found = extractor.extract_many([(PIECE, "user"), (other, "user"), ("  ", "user")])
    assert [[c.predicate for c in cands] for cands in found] == [["lives_in"], ["owns_count:dog"],
                                                                 []]
    assert extractor.extract(other, "user")[0].subject == "Ana"  # answered from the batch
    assert len(llm_stub.requests) == 1
    sent = llm_stub.requests[0]
    assert sent["response_format"]["json_schema"]["name"] == "fact_events_batch"
    assert other in llm_stub.prompt_text()


def test_assistant_role_is_named_in_the_prompt(llm_stub: LLMStub) -> None:
    llm_stub.reply_json({"facts": [fact(kind="recommendation", predicate="recommended",
                                        value="Lucia's", subject="assistant",
                                        support="try Lucia's", time_text=None, roles=[])]})
    extractor, _, _ = make(llm_stub)
    [cand] = extractor.extract("You could try Lucia's on 5th street.", "assistant")
    assert cand.kind == "recommendation" and cand.subject == "assistant"
    assert "Speaker: the AI assistant" in llm_stub.prompt_text()


def test_config_from_env() -> None:
    assert LLMConfig.from_env({}) is None
    assert LLMConfig.from_env({"GRAPHMEM_LLM_BASE_URL": "http://h/v1"}) is None
    assert LLMConfig.from_env({"GRAPHMEM_LLM_MODEL": "m"}) is None
    config = LLMConfig.from_env({
        "GRAPHMEM_LLM_BASE_URL": "http://h/v1", "GRAPHMEM_LLM_MODEL": "gpt-x",
        "GRAPHMEM_LLM_API_KEY": "k1", "OPENAI_API_KEY": "k2",
        "GRAPHMEM_LLM_PRICE_IN": "0.3", "GRAPHMEM_LLM_PRICE_CACHED_IN": "0.075",
        "GRAPHMEM_LLM_PRICE_OUT": "2.5"})
    assert config == LLMConfig(base_url="http://h/v1", model="gpt-x", api_key="k1",
                               price_in_per_1m=0.3, price_cached_in_per_1m=0.075,
                               price_out_per_1m=2.5)
    fallback = LLMConfig.from_env({"OPENAI_BASE_URL": "http://o/v1", "OPENAI_API_KEY": "k2",
                                   "GRAPHMEM_LLM_MODEL": "m"})
    assert fallback is not None
    assert (fallback.base_url, fallback.api_key, fallback.price_in_per_1m) == (
        "http://o/v1", "k2", 0.0)
    assert fallback.price_cached_in_per_1m is None and fallback.max_retries == 3


def test_config_from_env_rejects_bad_prices() -> None:
    from graphmem.errors import ConfigError

    with pytest.raises(ConfigError, match="GRAPHMEM_LLM_PRICE_IN"):
        LLMConfig.from_env({"GRAPHMEM_LLM_BASE_URL": "http://h/v1", "GRAPHMEM_LLM_MODEL": "m",
                            "GRAPHMEM_LLM_PRICE_IN": "cheap"})


def test_config_from_process_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GRAPHMEM_LLM_BASE_URL", "OPENAI_BASE_URL", "GRAPHMEM_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    assert LLMConfig.from_env() is None
    monkeypatch.setenv("OPENAI_BASE_URL", "http://env/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "env-model")
    config = LLMConfig.from_env()
    assert config is not None and config.model == "env-model"


def test_stub_lists_models_and_reports_an_exhausted_script(llm_stub: LLMStub) -> None:
    import openai

    sdk = openai.OpenAI(base_url=llm_stub.base_url, api_key="x", max_retries=0)
    assert [m.id for m in sdk.models.list()] == ["stub-model"]
    llm_stub.reply_tool_calls([{"name": "search", "arguments": {"q": "Denver"}}])
    reply = sdk.chat.completions.create(model="stub-model",
                                        messages=[{"role": "user", "content": "hi"}])
    call = reply.choices[0].message.tool_calls[0]
    assert call.function.name == "search" and json.loads(call.function.arguments) == {
        "q": "Denver"}
    with pytest.raises(openai.APIStatusError, match="no scripted reply left"):
        sdk.chat.completions.create(model="stub-model",
                                    messages=[{"role": "user", "content": "hi"}])
    sdk.close()
