"""`graphmem bench retrieval`, `qa` and `currency`: the quality of what memory finds and answers.

Each command imports its runner when it runs (deferred: the runners load the Neo4j driver,
the embedders and tokenizers, which `graphmem --help` and the other commands need not pay for)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from graphmem.cli.group import _echo_err, _fail_cleanly, _ingest_progress, open_memory
from graphmem.compose import EXTRACTORS, LOCAL_EXTRACTORS, llm_client
from graphmem.retrieval.config import preset as retrieval_preset


def _search_progress():
    """An `on_question` callback that shows one tqdm bar per retrieval config on stderr."""
    bars: dict[str, Any] = {}

    def tick(config: str | None, done: int, total: int) -> None:
        for name in [n for n in bars if n != config]:
            bars.pop(name).close()
        if config is None:
            return
        if config not in bars:
            bars[config] = tqdm(total=total, unit="question", desc=f"search {config}",
                                file=sys.stderr, dynamic_ncols=True, leave=False,
                                disable=not sys.stderr.isatty())
        bars[config].update(done - bars[config].n)

    return tick


@click.command("retrieval")
@click.option("--dataset", required=True, type=click.Choice(["longmemeval", "locomo"]))
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--limit", type=int, default=None, help="At most N users (questions / samples).")
@click.option("--out", "out_dir", default="bench-out", show_default=True,
              help="Where results.json, results.md, recall_curves.png and rankings.json "
                   "(each question's turn ranking per preset) go.")
@click.option("--configs", default=",".join(("rank-bm25", "bm25", "dense", "graph", "paper", "fused")),
              show_default=True, help="Comma-separated retrieval presets to compare.")
@click.option("--types", default=None,
              help="LongMemEval only: comma-separated question types to search (only their "
                   "users are loaded), e.g. multi-session.")
@click.option("--extractor", default="offline", show_default=True,
              type=click.Choice(LOCAL_EXTRACTORS),
              help="Who makes the facts of the users searched; each extractor's users are "
                   "stored apart (lme: / lme-hybrid: …).")
@_fail_cleanly
def bench_retrieval(dataset, path, limit, out_dir, configs, types, extractor) -> None:
    """Retrieval quality (official metrics), latency and evidence size for every preset."""
    from .report import halves_table, markdown_table, per_type_table
    from .retrieval import run_retrieval_bench

    out = Path(out_dir) / dataset
    bar, tick = _ingest_progress(disable=False)
    searching = _search_progress()

    def echo(message: str) -> None:
        bar.close()  # every message ends the bar before it
        searching(None, 0, 0)
        _echo_err(message)

    try:
        results = run_retrieval_bench(dataset, path, limit=limit, configs=configs.split(","),
                                      out_dir=out, echo=echo, on_session=tick,
                                      on_question=searching,
                                      types=types.split(",") if types else None,
                                      extractor=extractor)
    finally:
        bar.close()
        searching(None, 0, 0)
    click.echo(markdown_table(results))
    for table in (per_type_table(results), halves_table(results)):
        if table:
            click.echo("\n" + table)
    click.echo(f"written: {out}/results.json, results.md, recall_curves.png")


@click.command("qa")
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
    from .qa import markdown, run_qa_bench

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
@click.command("currency")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--failures", "show_failures", is_flag=True,
              help="List every failing scenario with the checks that did not hold.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--extractor", default="offline", show_default=True, type=click.Choice(EXTRACTORS),
              help="Who extracts facts: the rules, the learned model, both, or an LLM.")
@click.option("--preset", default="fused", show_default=True,
              help="The retrieval preset the asks search with (PRESET-no-STEP: one rerank step "
                   "off, e.g. fused-no-stale).")
@_fail_cleanly
def bench_currency(path, show_failures, as_json, extractor, preset) -> None:
    """Currency scenarios (default: the checkout's tests/scenarios), each ingested as its own
    user and forgotten after: pass rates per category and in total. Exit 1 when a goal
    (>= 95% of all scenarios, >= 85% of each category) is not met."""
    from .currency import default_path, run_currency_bench
    from .scenarios import load_scenarios

    try:
        retrieval_preset(preset)  # a name that is no preset stops here, before any ingest
    except KeyError as e:
        raise click.BadParameter(str(e.args[0]), param_hint="--preset") from None
    path = path or default_path()
    scenarios = load_scenarios(path)  # every file checked before anything runs
    bar = tqdm(total=len(scenarios), unit="scenario", desc="currency", file=sys.stderr,
               dynamic_ncols=True, leave=False, disable=not sys.stderr.isatty())
    with open_memory(extractor=extractor) as mem:
        res = run_currency_bench(mem, scenarios, path, on_scenario=lambda _o: bar.update(),
                                 preset=preset)
    bar.close()
    missed = res.goals_missed()
    if as_json:
        click.echo(json.dumps(res.to_dict()))
    else:
        if show_failures:
            for o in res.outcomes:
                if not o.passed:
                    known = f" (known: {o.xfail})" if o.xfail else ""
                    click.echo(f"FAIL {o.id} [{o.category}]{known}: {'; '.join(o.failures)}")
            for o in res.outcomes:
                if o.passed and o.xfail:
                    click.echo(f"PASS {o.id} [{o.category}] although marked xfail: {o.xfail}")
        for cat, (p, n) in res.categories().items():
            click.echo(f"{cat:<26} {p:>3}/{n:<3} {p / n:6.1%}")
        n = len(res.outcomes)
        click.echo(f"{'all':<26} {res.passed:>3}/{n:<3} {res.passed / n:6.1%}   "
                   f"({res.seconds:.0f} s)")
        held, made = res.checks()
        click.echo(f"{'checks held':<26} {held:>3}/{made:<3} {held / max(made, 1):6.1%}")
        click.echo("goals met" if not missed else "goals not met: " + "; ".join(missed))
    if missed:
        raise SystemExit(1)
