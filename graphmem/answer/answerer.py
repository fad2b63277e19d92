"""Answer(q, M_u): retrieve, let a planner gather more evidence with tools under a step budget,
then a separate reader writes the answer from the chosen turns only, citing them. Without an
LLM, the answer is extractive: the best evidence itself, labelled as not generated."""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from typing import Any

from ..errors import InputError
from ..knowledge import cutoff
from ..llm.client import LLMClient, LLMRequestRejected, Usage
from ..prompts import answer as prompts
from ..responses import Answer, Citation
from .pool import EvidencePool, PoolTurn, day
from .protocol import MemoryAccess
from .tools import FINISH, TOOLS, ToolBox, ToolError, result_text

NOT_IN_MEMORY = "Not in memory: nothing in this user's memory answers that."
# A citation block: [turn:T3], [turn:T3, turn:T5], [turn:T3; T5]
_CITE_BLOCK = re.compile(r"\[\s*turn:[^\]]*\]", re.IGNORECASE)
_CITE_ID = re.compile(r"(?:turn:)?\s*([A-Za-z0-9:_\-]+)", re.IGNORECASE)


def _usage_since(client: LLMClient, before: Usage) -> Usage:
    now = client.usage
    return Usage(**{k: getattr(now, k) - getattr(before, k) for k in vars(before)})


def _snapshot(client: LLMClient | None) -> Usage:
    return Usage(**vars(client.usage)) if client else Usage()


def _quote(t: PoolTurn, limit: int = 300) -> str:
    if t.quote and t.quote in t.text:
        return t.quote
    return t.text if len(t.text) <= limit else t.text[:limit].rsplit(" ", 1)[0] + " …"


def _citation(t: PoolTurn) -> Citation:
    return Citation(turn_id=t.turn_id, handle=t.handle, source_turn_id=t.source_id,
                    session_source_id=t.session_source_id,
                    date=t.mentioned_at.date().isoformat() if t.mentioned_at else None,
                    role=t.role, quote=_quote(t), speaker=t.speaker)


def resolve_citations(text: str, pool: EvidencePool) -> tuple[str, list[PoolTurn], int]:
    """Rewrite [turn:T3] into [turn:<stored id>], drop citations that name nothing in the pool;
    returns (text, cited turns in order, number of invalid citations removed)."""
    cited: list[PoolTurn] = []
    invalid = 0

    def fix(block: re.Match[str]) -> str:
        nonlocal invalid
        inner = block.group(0)[1:-1]
        kept = []
        for part in re.split(r"[,;]|\s+and\s+", inner):
            m = _CITE_ID.fullmatch(part.strip())
            turn = pool.resolve(m.group(1)) if m else None
            if turn is None:
                invalid += 1
                continue
            if turn not in cited:
                cited.append(turn)
            kept.append(f"[turn:{turn.turn_id.removeprefix('turn:')}]")
        return "".join(kept)

    out = _CITE_BLOCK.sub(fix, text)
    out = re.sub(r"[ \t]+([.,;:])", r"\1", re.sub(r"[ \t]{2,}", " ", out)).strip()
    return out, cited, invalid


class Answerer:
    """Answers questions from one Memory; `client` None means offline (extractive) answers."""

    def __init__(self, memory: MemoryAccess, client: LLMClient | None = None, *,
                 reader_client: LLMClient | None = None, budget: int = 4,
                 retrieval_k: int = 10, reader_turns: int = 16, max_calls_per_step: int = 4):
        self.memory = memory
        self.client = client
        self.reader_client = reader_client or client
        self.budget = max(0, budget)
        self.retrieval_k = retrieval_k
        self.reader_turns = reader_turns
        self.max_calls_per_step = max_calls_per_step

    def answer(self, user_id: str, question: str, question_date: datetime | None = None) -> Answer:
        if not isinstance(question, str) or not question.strip():
            raise InputError("the question is empty")
        question = question.strip()  # its length is bounded by Memory (MAX_QUERY_CHARS)
        started = time.perf_counter()
        self.memory.require_user(user_id)
        qdate = question_date or datetime.now(UTC)
        pool = self._initial_pool(user_id, question, qdate)
        if self.client is None:
            ans = self._extractive(question, pool)
        else:
            ans = self._generated(user_id, question, qdate, pool)
        ans.seconds = round(time.perf_counter() - started, 3)
        return ans

    def _initial_pool(self, user_id: str, question: str, qdate: datetime) -> EvidencePool:
        """E ← Retrieve(q, M_u): the fused search's turns, with their facts."""
        pool = EvidencePool(self.memory, user_id, known_at=cutoff(qdate))
        pool.add_evidence(self.memory.search(user_id, question, question_date=qdate,
                                             k=self.retrieval_k))
        return pool

    def prompts_for(self, user_id: str, question: str,
                    question_date: datetime | None = None) -> dict[str, list[dict[str, Any]]]:
        """The first planner request and the reader request this question would send (with no
        tool call in between), for dry runs: nothing is sent anywhere."""
        qdate = question_date or datetime.now(UTC)
        pool = self._initial_pool(user_id, question, qdate)
        planner = prompts.planner_messages(question, day(qdate), pool.render(), self.budget)
        reader = prompts.reader_messages(question, day(qdate),
                                         pool.render(pool.ranked()[:self.reader_turns]), [])
        return {"planner": planner, "reader": reader}

    # --- offline -----------------------------------------------------------------------------

    def _extractive(self, question: str, pool: EvidencePool, top: int = 3) -> Answer:
        # In search's order: search has already put what is no longer true below what holds,
        # for a question about now, and as of the time asked otherwise ("where did I live in
        # January?" wants the turn that was true then, superseded since).
        best = pool.ranked()[:top]
        if not best:
            return Answer(question=question, text=NOT_IN_MEMORY, generated=False,
                          not_in_memory=True, stopped="offline")
        lines = ["Not generated (no LLM configured): the best evidence in memory."]
        for t in best:
            lines.append(f"- {day(t.mentioned_at)}, {t.speaker or t.role}: \"{_quote(t)}\" "
                         f"[turn:{t.turn_id.removeprefix('turn:')}]")
            lines += [f"  {n}" for n in t.notes[:2]]
        return Answer(question=question, text="\n".join(lines),
                      citations=[_citation(t) for t in best], generated=False, stopped="offline")

    # --- with an LLM -------------------------------------------------------------------------

    def _generated(self, user_id: str, question: str, qdate: datetime,
                   pool: EvidencePool) -> Answer:
        assert self.client is not None
        tools = ToolBox(self.memory, user_id, pool, qdate)
        ans = Answer(question=question, text="")
        before = _snapshot(self.client)
        chosen = self._plan(question, qdate, pool, tools, ans)
        planner_usage = _usage_since(self.client, before)
        evidence = chosen or pool.ranked()[:self.reader_turns]
        reader = self.reader_client or self.client
        before = _snapshot(reader)
        text, flag = reader.complete_json(
            prompts.reader_messages(question, day(qdate), pool.render(evidence), tools.notes),
            prompts.READER_SCHEMA_NAME, prompts.READER_SCHEMA, prompts.parse_reader)
        reader_usage = _usage_since(reader, before)
        text, cited, invalid = resolve_citations(text, pool)
        ans.text, ans.not_in_memory, ans.invalid_citations = text, flag, invalid
        ans.citations = [_citation(t) for t in cited]
        ans.cited = bool(cited) or flag
        total = Usage()
        total.add(planner_usage)
        total.add(reader_usage)
        ans.usage = {"planner": planner_usage.to_dict(), "reader": reader_usage.to_dict(),
                     "total": total.to_dict()}
        ans.cost_usd = total.cost_usd
        return ans

    def _plan(self, question: str, qdate: datetime, pool: EvidencePool, tools: ToolBox,
              ans: Answer) -> list[PoolTurn]:
        """The planner loop; returns the turns it chose (empty: let the reader take the best)."""
        if self.budget == 0:
            ans.stopped = "no_planner"
            return []
        messages = prompts.planner_messages(question, day(qdate), pool.render(), self.budget)
        for step in range(1, self.budget + 1):
            ans.steps = step
            calls = self._tool_calls(messages, step, ans)
            if calls is None:
                return []
            finish: list[PoolTurn] | None = None
            for n, call in enumerate(calls):
                chosen = self._run_call(call, n, step, pool, tools, ans, messages)
                if chosen is not None:
                    finish = chosen
            if finish is not None:
                ans.stopped = "finish"
                return finish
        ans.stopped = "budget"
        return []

    def _tool_calls(self, messages: list[dict[str, Any]], step: int, ans: Answer
                    ) -> list[Any] | None:
        """The planner's tool calls for this step, added to `messages`; None when it stops
        (`ans.stopped` says why)."""
        assert self.client is not None
        try:
            response = self.client.chat(messages, tools=TOOLS, tool_choice="auto")
        except LLMRequestRejected as error:
            if error.status_code != 400:
                raise
            ans.stopped = "planner_unavailable"  # the endpoint takes no tools: read now
            ans.trace.append({"step": step, "error": str(error)})
            return None
        choices = getattr(response, "choices", None) or []
        message = choices[0].message if choices else None
        calls = list(getattr(message, "tool_calls", None) or [])
        if message is None or not calls:
            ans.stopped = "no_tool_call"
            return None
        messages.append({"role": "assistant", "content": message.content or "",
                         "tool_calls": [{"id": c.id, "type": "function", "function": {
                             "name": c.function.name, "arguments": c.function.arguments}}
                             for c in calls]})
        return calls

    def _run_call(self, call: Any, n: int, step: int, pool: EvidencePool, tools: ToolBox,
                  ans: Answer, messages: list[dict[str, Any]]) -> list[PoolTurn] | None:
        """Run the step's `n`-th tool call, trace it and give the planner its result; the turns
        chosen when it is the finish call."""
        entry: dict[str, Any] = {"step": step, "tool": call.function.name,
                                 "arguments": call.function.arguments}
        t0 = time.perf_counter()
        finish = None
        if n >= self.max_calls_per_step:
            content = {"error": f"at most {self.max_calls_per_step} tool calls per step"}
        elif call.function.name == FINISH:
            finish, content = self._finish(call.function.arguments, pool, entry)
        else:
            try:
                content = tools.run(call.function.name, call.function.arguments)
                entry["ok"] = True
            except ToolError as error:
                content = {"error": str(error)}
                entry.update(ok=False, error=str(error))
        entry["ms"] = round((time.perf_counter() - t0) * 1000, 1)
        entry["pool"] = len(pool)
        ans.trace.append(entry)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": result_text(content)})
        return finish

    @staticmethod
    def _finish(arguments: Any, pool: EvidencePool, entry: dict[str, Any]
                ) -> tuple[list[PoolTurn], dict[str, Any]]:
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else arguments
            handles = args.get("evidence") or []
            if not isinstance(handles, list):
                raise ValueError("evidence must be a list")
        except (ValueError, AttributeError) as error:
            entry.update(ok=False, error=f"bad finish arguments: {error}")
            return [], {"error": entry["error"]}
        resolved = [(h, pool.resolve(str(h))) for h in handles]
        found = [t for _h, t in resolved if t is not None]
        entry.update(ok=True, chosen=[t.handle for t in found],
                     unknown=[h for h, t in resolved if t is None])
        return found, {"ok": True}
