"""`graphmem ask`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .group import (
    _dump,
    _fail_cleanly,
    _parse_when,
    main,
    open_memory,
)

if TYPE_CHECKING:
    from ..answer import Answer


@main.command()
@click.option("--user", required=True, help="Whose memory to ask.")
@click.option("--question-date", default=None, help="When the question is asked (default: now).")
@click.option("--budget", type=int, default=4, show_default=True,
              help="Planner steps (tool rounds) before the reader answers.")
@click.option("--offline", is_flag=True, help="Extractive answer even if an LLM is configured.")
@click.option("--trace", is_flag=True, help="Show the planner's tool calls.")
@click.option("--json", "as_json", is_flag=True)
@click.argument("question")
@_fail_cleanly
def ask(user, question_date, budget, offline, trace, as_json, question) -> None:
    """Answer a question from one user's memory, citing the turns it stands on.

    With GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL set, a planner gathers evidence with tools
    and a reader writes the answer; otherwise the answer is the best evidence itself, labelled as
    not generated. With GRAPHMEM_URL set, a running `graphmem serve` answers (its LLM settings
    apply)."""
    # Deferred: the server client loads httpx and pydantic (over a second with the responses).
    from ..remote import RemoteMemory
    from ..responses import Answer  # deferred with pydantic, as is the line above

    qdate = _parse_when(question_date, "--question-date")
    remote = RemoteMemory.from_env()
    if remote is not None:
        with remote:
            got = remote.answer(user, question, question_date=qdate, budget=budget,
                                offline=offline, trace=True)
        ans = Answer.model_validate(got)
    else:
        with open_memory(answer_llm=not offline) as mem:
            ans = mem.answer(user, question, question_date=qdate, budget=budget)
    if as_json:
        out = ans.to_dict()
        if not trace:
            out.pop("trace")
        click.echo(_dump(out))
        return
    _print_answer(ans, trace)


def _print_answer(ans: Answer, trace: bool) -> None:
    """The answer, its citations (quotes cut at 240 characters), what it cost, and the trace."""
    click.echo(ans.text)
    if ans.citations:
        click.echo("\nCitations:")
        for c in ans.citations:
            quote = " ".join(c.quote.split())
            if len(quote) > 240:
                quote = quote[:240].rsplit(" ", 1)[0] + " …"
            click.echo(f"  [turn:{c.turn_id.removeprefix('turn:')}] {c.date} session "
                       f"{c.session_source_id} turn {c.source_turn_id} ({c.speaker or c.role}): "
                       f"\"{quote}\"")
    if ans.generated:
        if not ans.cited:
            click.echo("\n(warning: the answer cites no evidence)")
        total = ans.usage.get("total", {})
        click.echo(f"\n{ans.steps} planner step(s), stopped: {ans.stopped}; "
                   f"{total.get('total_tokens', 0)} tokens, ${ans.cost_usd:.6f}; "
                   f"{ans.invalid_citations} invalid citation(s) removed; {ans.seconds:.1f}s")
    if trace:
        click.echo("\nTrace:")
        for t in ans.trace:
            status = "ok" if t.get("ok") else f"error: {t.get('error')}"
            click.echo(f"  step {t['step']}: {t.get('tool')}({t.get('arguments')}) → {status}"
                       f" [{t.get('ms', 0):.0f} ms, pool {t.get('pool')}]")
