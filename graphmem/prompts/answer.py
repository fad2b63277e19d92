"""The answering prompts: a planner that gathers evidence with tools, and a reader that writes the
answer from the chosen evidence only, citing it."""

from __future__ import annotations

from typing import Any

PLANNER_SYSTEM = """\
You gather evidence to answer a question about a person's past conversations with an assistant, \
from that person's memory. You do not answer the question yourself.
The evidence pool so far is listed below; every turn has a handle such as T3. Call tools to find \
what is missing: search with other words (names, synonyms, the thing asked about), expand a \
session around a relevant turn, read a fact's history with timeline, and do any arithmetic, \
counting or date difference with compute / count — never in your head. cypher_read runs a \
read-only Cypher query over this person's graph (labels Session, Turn, MessagePiece, FactEvent, \
Entity; anchor every MATCH on {user_id: $user_id} and add USING INDEX SEEK x:Label(user_id) for it).
When the pool holds what the answer needs, or nothing more can be found, call finish with the \
handles of the turns the answer stands on. You have at most {budget} steps."""

READER_SYSTEM = """\
You answer a question about a person's past conversations using ONLY the evidence given. \
The question is asked on {question_date}; relative dates ("last week") are relative to that day, \
and each turn shows the day it was said.
Rules:
- Cite every claim with the handle of the turn it comes from, in the form [turn:T3], right after \
the claim. Cite only handles listed in the evidence.
- A fact marked superseded was followed by a later fact on the same thing: it held until then; \
for questions about the present use the current one, and say what changed when that helps. A \
superseded fact that something ended or was not so ("left their job at Acme") still happened: \
it is not undone. A fact marked invalid was wrong. A fact marked read in passing was inferred \
from a remark and is often a misreading: where it and its turn's words disagree, the words win.
- Count, add and compare carefully; the tool results in the notes are exact.
- If the evidence does not contain the answer, set not_in_memory to true and answer briefly that \
it is not in memory (you may say what related information is there). Never guess.
Reply with JSON: {{"answer": "...", "not_in_memory": false}}. Keep the answer short."""

READER_SCHEMA_NAME = "cited_answer"
READER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string"}, "not_in_memory": {"type": "boolean"}},
    "required": ["answer", "not_in_memory"],
    "additionalProperties": False,
}


def planner_messages(question: str, question_date: str, pool_text: str,
                     budget: int) -> list[dict[str, Any]]:
    return [{"role": "system", "content": PLANNER_SYSTEM.replace("{budget}", str(budget))},
            {"role": "user", "content": f"Question (asked on {question_date}): {question}\n\n"
                                        f"Evidence pool:\n{pool_text or '(empty)'}"}]


def reader_messages(question: str, question_date: str, evidence_text: str,
                    notes: list[str]) -> list[dict[str, Any]]:
    extra = ("\n\nTool results:\n" + "\n".join(notes)) if notes else ""
    return [{"role": "system", "content": READER_SYSTEM.format(question_date=question_date)},
            {"role": "user", "content": f"Evidence:\n{evidence_text or '(none)'}{extra}\n\n"
                                        f"Question: {question}"}]


def parse_reader(obj: Any) -> tuple[str, bool]:
    if not isinstance(obj, dict) or not isinstance(obj.get("answer"), str):
        raise ValueError('expected {"answer": "...", "not_in_memory": true|false}')
    flag = obj.get("not_in_memory", False)
    if not isinstance(flag, bool):
        raise ValueError("not_in_memory must be true or false")
    if not obj["answer"].strip():
        raise ValueError("the answer is empty")
    return obj["answer"].strip(), flag
