"""`graphmem ask` and `graphmem bench qa`."""

from __future__ import annotations

from pathlib import Path

import click

from . import (
    _dump,
    _echo_err,
    _fail_cleanly,
    _ingest_progress,
    _parse_when,
    bench,
    main,
    open_memory,
)


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
    from ..client import RemoteMemory
    from ..responses import Answer

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


@bench.command("qa")
@click.option("--dataset", type=click.Choice(["longmemeval"]), default="longmemeval",
              show_default=True)
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--limit", type=int, default=None, help="Only the first N questions.")
@click.option("--dry-run", is_flag=True, help="Send nothing: report the prompt tokens per question.")
@click.option("--budget", type=int, default=4, show_default=True)
@click.option("--out", "out_dir", default="docs/bench", show_default=True,
              help="Where results.json, results.md and cost_accuracy.png go (under qa/).")
@click.option("--paper", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The paper text with Table 1 (default: seeds/000_*.txt above the data file).")
@_fail_cleanly
def bench_qa(dataset, path, limit, dry_run, budget, out_dir, paper) -> None:
    """Answer, judge (LongMemEval's yes/no prompts) and cost every question."""
    from ..bench.qa import markdown, run_qa_bench
    from ..compose import llm_client

    client = judge = None
    if not dry_run:
        client = llm_client("bench qa (without --dry-run)")
        judge = llm_client(prefix="GRAPHMEM_JUDGE_") or client
    bar, tick = _ingest_progress(disable=False)

    def echo(message: str) -> None:
        bar.close()  # the ingest bar ends where the first message after it begins
        _echo_err(message)

    try:
        results = run_qa_bench(path, limit=limit, dry_run=dry_run, out_dir=Path(out_dir) / "qa",
                               answer_client=client, judge_client=judge, budget=budget,
                               paper=Path(paper) if paper else None, echo=echo,
                               on_session=tick)
    finally:
        bar.close()
    click.echo(markdown(results))
    click.echo(f"written: {Path(out_dir) / 'qa'}/results.json, results.md"
               + (", cost_accuracy.png" if "plot" in results else ""))
