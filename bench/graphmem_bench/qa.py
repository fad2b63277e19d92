"""The QA benchmark on LongMemEval: answer every question from memory, judge it with the
benchmark's own yes/no prompts, and report accuracy per question type, tokens and dollars per
question, and where the run sits among published accuracy–cost points. `dry_run` sends nothing:
it reports the prompt tokens each question would send."""

from __future__ import annotations

import json
import math
import platform
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.answer import Answerer
from graphmem.answer.tools import TOOLS
from graphmem.db import Graph
from graphmem.errors import GraphmemError
from graphmem.llm import LLMClient
from graphmem.memory import Memory
from graphmem.migrate import connect

from .judge import judge
from .published import PublishedPoint, find_paper, read_points
from .questions import LMEQuestion, longmemeval_questions
from .retrieval import PREFIX, ensure_ingested
from .stats import summary


class PromptTokens:
    """Prompt tokens with tiktoken's o200k_base when its file is available here; otherwise an
    estimate of one token per four characters (said so in the results)."""

    def __init__(self) -> None:
        self.method = "chars/4 estimate"
        self._encode: Callable[[str], list[int]] | None = None
        try:
            import tiktoken  # deferred: optional, not a dependency; chars/4 without it

            self._encode = tiktoken.get_encoding("o200k_base").encode
            self.method = "tiktoken o200k_base"
        except Exception:  # noqa: BLE001 - no encoding file and no network: estimate
            self._encode = None

    def count_text(self, text: str) -> int:
        return len(self._encode(text)) if self._encode else math.ceil(len(text) / 4)

    def count_messages(self, messages: list[dict[str, Any]], tools: Any = None) -> int:
        total = sum(4 + self.count_text(str(m.get("content") or "")) for m in messages)
        if tools is not None:
            total += self.count_text(json.dumps(tools, separators=(",", ":")))
        return total + 3


def _accuracy(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by_type: dict[str, list[bool]] = {}
    for r in rows:
        by_type.setdefault(r["question_type"], []).append(r["correct"])
    abstention = [r["correct"] for r in rows if r["abstention"]]
    return {"overall": round(statistics.fmean(r["correct"] for r in rows), 4) if rows else None,
            "n": len(rows),
            "by_type": {t: {"accuracy": round(statistics.fmean(v), 4), "n": len(v)}
                        for t, v in sorted(by_type.items())},
            "abstention": ({"accuracy": round(statistics.fmean(abstention), 4),
                            "n": len(abstention)} if abstention else None)}


def run_qa_bench(path: str, *, limit: int | None = None, dry_run: bool = False,
                 out_dir: Path, answer_client: LLMClient | None = None,
                 judge_client: LLMClient | None = None, budget: int = 4,
                 paper: Path | None = None, graph: Graph | None = None,
                 echo: Callable[[str], None] = lambda _m: None,
                 on_session: Callable[[Any], None] | None = None) -> dict[str, Any]:
    questions = longmemeval_questions(path, limit=limit)
    own_graph = graph is None
    graph = graph or connect()
    try:
        ensure_ingested(graph, "longmemeval", path, limit, echo, on_session)
        memory = Memory(graph, llm=answer_client)
        answerer = Answerer(memory, answer_client, budget=budget)
        started = time.perf_counter()
        if dry_run:
            results = _dry_run(answerer, questions, echo)
        else:
            if answer_client is None or judge_client is None:
                raise GraphmemError("bench qa needs an answering endpoint (GRAPHMEM_LLM_*) and a "
                                    "judge (GRAPHMEM_JUDGE_*, else the answering one); or use "
                                    "--dry-run")
            results = _real_run(answerer, judge_client, questions, echo)
        results["seconds"] = round(time.perf_counter() - started, 1)
    finally:
        if own_graph:
            graph.close()
    results.update(dataset="longmemeval", file=str(path), questions=len(questions),
                   date=datetime.now(UTC).date().isoformat(),
                   machine=f"{platform.system()} {platform.machine()}, "
                           f"{__import__('os').cpu_count()} cores", budget=budget)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "results.json").write_text(json.dumps(results, indent=2, default=str))
    (out_dir / "results.md").write_text(markdown(results))
    paper = paper or find_paper(Path(path).resolve().parent)
    if paper is not None and not dry_run:
        plot_cost_accuracy(results, read_points(paper), out_dir / "cost_accuracy.png")
        results["plot"] = str(out_dir / "cost_accuracy.png")
    return results


def _dry_run(answerer: Answerer, questions: list[LMEQuestion],
             echo: Callable[[str], None]) -> dict[str, Any]:
    counter = PromptTokens()
    rows = []
    for i, q in enumerate(questions, 1):
        msgs = answerer.prompts_for(PREFIX["longmemeval"] + q.question_id, q.question,
                                    q.question_date)
        planner = counter.count_messages(msgs["planner"], TOOLS)
        reader = counter.count_messages(msgs["reader"])
        rows.append({"question_id": q.question_id, "question_type": q.question_type,
                     "planner_first_step": planner, "reader": reader,
                     "total_min": planner + reader})
        if i % 25 == 0:
            echo(f"dry run: {i}/{len(questions)}")
    return {"mode": "dry-run", "token_counter": counter.method,
            "prompt_tokens": {k: summary([r[k] for r in rows], 1)
                              for k in ("planner_first_step", "reader", "total_min")},
            "per_question": rows}


def _real_run(answerer: Answerer, judge_client: LLMClient, questions: list[LMEQuestion],
              echo: Callable[[str], None]) -> dict[str, Any]:
    rows = []
    judge_before = judge_client.usage.cost_usd
    for i, q in enumerate(questions, 1):
        row: dict[str, Any] = {"question_id": q.question_id, "question_type": q.question_type,
                               "abstention": q.is_abstention}
        try:
            ans = answerer.answer(PREFIX["longmemeval"] + q.question_id, q.question,
                                  q.question_date)
            row.update(hypothesis=ans.text, not_in_memory=ans.not_in_memory,
                       citations=len(ans.citations), invalid_citations=ans.invalid_citations,
                       steps=ans.steps, stopped=ans.stopped,
                       tokens=ans.usage["total"]["total_tokens"],
                       prompt_tokens=ans.usage["total"]["prompt_tokens"],
                       cost_usd=ans.cost_usd, seconds=ans.seconds)
        except GraphmemError as error:
            row.update(hypothesis="", error=f"{type(error).__name__}: {error}", tokens=0,
                       prompt_tokens=0, cost_usd=0.0)
        try:
            row["correct"], row["judge_reply"] = judge(
                judge_client, q.question_type, q.question, q.answer, row["hypothesis"],
                q.is_abstention)
        except GraphmemError as error:
            row["correct"], row["judge_error"] = False, f"{type(error).__name__}: {error}"
        rows.append(row)
        echo(f"qa {i}/{len(questions)} {q.question_id}: {'yes' if row['correct'] else 'no'}")
    answered = [r for r in rows if "error" not in r]
    return {"mode": "run", "model": answerer.client.model if answerer.client else None,
            "judge_model": judge_client.model,
            "self_judged": judge_client is answerer.client,
            "accuracy": _accuracy(rows), "errors": len(rows) - len(answered),
            "tokens_per_question": summary([r["tokens"] for r in answered], 1),
            "cost_per_question_usd": summary([r["cost_usd"] for r in answered], 8),
            "judge_cost_usd": round(judge_client.usage.cost_usd - judge_before, 6),
            "invalid_citations": sum(r.get("invalid_citations", 0) for r in rows),
            "per_question": rows}


def markdown(results: dict[str, Any]) -> str:
    lines = [f"# QA benchmark — LongMemEval ({results.get('mode')})", "",
             f"{results.get('questions')} questions, {results.get('date')}, "
             f"{results.get('machine')}, planner budget {results.get('budget')} steps.", ""]
    if results.get("mode") == "dry-run":
        lines += [f"Prompt tokens per question ({results['token_counter']}):", "",
                  "| request | mean | median | p95 | max |", "|---|---|---|---|---|"]
        for name, s in results["prompt_tokens"].items():
            if s:
                lines.append(f"| {name} | {s['mean']:.0f} | {s['median']:.0f} | {s['p95']:.0f} "
                             f"| {s['max']:.0f} |")
        return "\n".join(lines) + "\n"
    acc = results["accuracy"]
    lines += [f"Model {results['model']}, judge {results['judge_model']}"
              + (" (self-judged)" if results["self_judged"] else "") + ".", "",
              f"Accuracy {acc['overall']:.3f} (n={acc['n']}; errors {results['errors']}).", "",
              "| question type | accuracy | n |", "|---|---|---|"]
    for t, v in acc["by_type"].items():
        lines.append(f"| {t} | {v['accuracy']:.3f} | {v['n']} |")
    tok, cost = results["tokens_per_question"], results["cost_per_question_usd"]
    if tok and cost:
        lines += ["", "| per question | mean | median | p95 |", "|---|---|---|---|",
                  f"| tokens | {tok['mean']:.0f} | {tok['median']:.0f} | {tok['p95']:.0f} |",
                  f"| USD | {cost['mean']:.6f} | {cost['median']:.6f} | {cost['p95']:.6f} |"]
    return "\n".join(lines) + "\n"


def plot_cost_accuracy(results: dict[str, Any], points: list[PublishedPoint], path: Path) -> None:
    """Accuracy against mean dollars per question (log x): published points and this run."""
    import matplotlib  # deferred: slow to load, and only a chart needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # deferred with matplotlib

    fig, ax = plt.subplots(figsize=(9, 6))
    for p in points:
        ax.errorbar(p.cost_per_question, p.accuracy * 100,
                    xerr=[[p.cost_per_question - p.cost_low], [p.cost_high - p.cost_per_question]],
                    fmt="o" if p.measured else "s", color="tab:blue" if p.measured else "tab:gray",
                    ms=5, capsize=2)
        ax.annotate(p.method, (p.cost_per_question, p.accuracy * 100), fontsize=7,
                    xytext=(4, 3), textcoords="offset points")
    cost, acc = results.get("cost_per_question_usd"), results.get("accuracy", {}).get("overall")
    note = ""
    if cost and acc is not None:
        x = cost["mean"] if cost["mean"] > 0 else min(p.cost_low for p in points) / 10
        if cost["mean"] <= 0:
            note = " (no prices configured: cost 0, drawn at the left edge)"
        ax.scatter([x], [acc * 100], marker="*", s=250, color="tab:red", zorder=5)
        ax.annotate(f"graphmem ({results.get('model')}){note}", (x, acc * 100), fontsize=8,
                    color="tab:red", xytext=(6, -10), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("USD per question (mean; log scale)")
    ax.set_ylabel("LongMemEval accuracy (%)")
    ax.set_title(f"Accuracy vs cost — published points (circles measured, squares estimated) "
                 f"and this run (n={results.get('questions')})", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
