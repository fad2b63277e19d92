"""Write retrieval-benchmark results as results.json, a Markdown table and recall@k curves.

The `results` dict (what `graphmem_bench.baseline.run_baseline` returns; other rankers add configs):

    {
      "dataset": "longmemeval" | "locomo",
      "n_questions": int,                       # questions/QA items read
      "ks": [1, 3, 5, 10, 30, 50],              # optional; else taken from the metric keys
      ...                                       # optional metadata (path, command, machine, date)
      "configs": {
        name: {
          "n": {...},                           # counts used (metrics.score_longmemeval / score_locomo)
          "session": {"recall_any@k": float, "recall_all@k": ..., "ndcg_any@k": ...},
                                                # LoCoMo: {"recall_any@k"} only
          "turn": {"recall_any@k", "recall_all@k", "ndcg_any@k"} | LoCoMo {"fraction_recall@k"},
          "per_type": {type: {"n_session"/"n_turn" or "n", "session": {...}, "turn": {...}}},
          "latency_ms": {"p50": float, "p95": float} | None,
          "cpu_ms": {"search": float, "neo4j": float | None} | None,   # CPU per search
          "evidence_tokens": {"median": float, "p95": float} | None,
          "scoring": str,                       # how questions without evidence were scored
          ...                                   # extra blocks: session_with_evidence, adversarial…
        }
      }
    }
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_LME_COLUMNS: list[tuple[str, str, str]] = [
    ("session recall_any@5", "session", "recall_any@5"),
    ("session recall_all@5", "session", "recall_all@5"),
    ("session ndcg_any@5", "session", "ndcg_any@5"),
    ("session recall_any@10", "session", "recall_any@10"),
    ("session recall_all@10", "session", "recall_all@10"),
    ("turn recall_all@10", "turn", "recall_all@10"),
]
_LOCOMO_COLUMNS: list[tuple[str, str, str]] = [
    ("fraction recall@5", "turn", "fraction_recall@5"),
    ("fraction recall@10", "turn", "fraction_recall@10"),
    ("session recall_any@5", "session", "recall_any@5"),
    ("session recall_any@10", "session", "recall_any@10"),
]
# (panel title, block, metric name without @k)
_LME_CURVES = [("session recall_any@k", "session", "recall_any"),
               ("session recall_all@k", "session", "recall_all"),
               ("turn recall_all@k", "turn", "recall_all")]
_LOCOMO_CURVES = [("turn fraction recall@k", "turn", "fraction_recall"),
                  ("session recall_any@k", "session", "recall_any")]


def _is_locomo(results: dict[str, Any]) -> bool:
    return str(results.get("dataset", "")).lower() == "locomo"


def _fmt(value: Any, digits: int = 3) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:.{digits}f}"
    return "–"


def _pair(block: dict[str, Any] | None, first: str, second: str, digits: int = 0) -> str:
    if not block:
        return "–"
    return f"{_fmt(block.get(first), digits)} / {_fmt(block.get(second), digits)}"


def _n_counted(config: dict[str, Any], locomo: bool) -> str:
    n = config.get("n") or {}
    if locomo:
        return str(n.get("scored", "–"))
    return f"{n.get('session', '–')} / {n.get('turn', '–')}"


def _cpu(cpu: dict[str, float | None] | None) -> str:
    if not cpu:
        return "–"
    search, neo4j = cpu.get("search"), cpu.get("neo4j")
    if neo4j is None:
        return f"{search:.1f} + (Neo4j not measured)"
    return f"{search:.1f} + {neo4j:.1f} = {search + neo4j:.1f}"


def markdown_table(results: dict[str, Any]) -> str:
    """One row per configuration; latency and token columns only when some config has them."""
    locomo = _is_locomo(results)
    columns = _LOCOMO_COLUMNS if locomo else _LME_COLUMNS
    configs: dict[str, dict[str, Any]] = results.get("configs", {})
    latency = any(c.get("latency_ms") for c in configs.values())
    tokens = any(c.get("evidence_tokens") for c in configs.values())
    cpu = any(c.get("cpu_ms") for c in configs.values())
    header = ["configuration", "n (cat 1-4)" if locomo else "n (session / turn)"]
    header += [title for title, _, _ in columns]
    header += ["latency p50 / p95 ms"] if latency else []
    header += ["CPU ms per search: process + Neo4j"] if cpu else []
    header += ["evidence tokens median / p95"] if tokens else []
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, config in configs.items():
        row = [name, _n_counted(config, locomo)]
        row += [_fmt((config.get(block) or {}).get(metric)) for _, block, metric in columns]
        if latency:
            row.append(_pair(config.get("latency_ms"), "p50", "p95", 1))
        if cpu:
            row.append(_cpu(config.get("cpu_ms")))
        if tokens:
            row.append(_pair(config.get("evidence_tokens"), "median", "p95"))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def per_type_table(results: dict[str, Any]) -> str:
    """Per question type (LongMemEval) or category (LoCoMo): the headline metric per configuration."""
    locomo = _is_locomo(results)
    block, metric = ("turn", "fraction_recall@10") if locomo else ("session", "recall_all@5")
    configs: dict[str, dict[str, Any]] = results.get("configs", {})
    types: list[str] = []
    for config in configs.values():
        types += [t for t in (config.get("per_type") or {}) if t not in types]
    if not types:
        return ""
    lines = [f"{block} {metric} by {'category' if locomo else 'question type'}:", "",
             "| configuration | " + " | ".join(types) + " |", "|" + "---|" * (len(types) + 1)]
    for name, config in configs.items():
        per_type = config.get("per_type") or {}
        cells = []
        for t in types:
            entry = per_type.get(t) or {}
            n = entry.get("n", entry.get("n_session"))
            cells.append(f"{_fmt((entry.get(block) or {}).get(metric))} (n={n})" if entry else "–")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def halves_table(results: dict[str, Any]) -> str:
    """By half (questions.dev_half: LongMemEval's questions, LoCoMo's conversations) and question
    type or category, each half beside the other: LongMemEval's session recall_all@5 and turn
    recall_all@10, LoCoMo's turn fraction_recall@10, per configuration."""
    configs: dict[str, dict[str, Any]] = results.get("configs", {})
    if not any(c.get("halves") for c in configs.values()):
        return ""
    locomo = _is_locomo(results)
    types: list[str] = []
    for config in configs.values():
        for half in (config.get("halves") or {}).values():
            types += [t for t in (half.get("per_type") or {}) if t not in types]
    title = ("turn fraction_recall@10 by half of the conversations (1 | 2) and category:"
             if locomo else
             "session recall_all@5 / turn recall_all@10 by half (1 | 2) and question type:")
    lines = [title, "", "| configuration | all | " + " | ".join(types) + " |",
             "|" + "---|" * (len(types) + 2)]

    def cell(entry: dict[str, Any] | None) -> str:
        if not entry:
            return "–"
        if locomo:  # a half counts its scored questions, a category its own
            n = entry["n"]["scored"] if isinstance(entry.get("n"), dict) else entry.get("n")
            return f"{_fmt((entry.get('turn') or {}).get('fraction_recall@10'))} (n={n})" if n else "–"
        n = entry["n_session"] if "n_session" in entry else (entry.get("n") or {}).get("session")
        return (f"{_fmt((entry.get('session') or {}).get('recall_all@5'))} / "
                f"{_fmt((entry.get('turn') or {}).get('recall_all@10'))} (n={n})")

    for name, config in configs.items():
        halves = config.get("halves") or {}
        for h in sorted(halves):
            half = halves[h]
            cells = [cell(half)] + [cell((half.get("per_type") or {}).get(t)) for t in types]
            lines.append(f"| {name} (half {h}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _ks(results: dict[str, Any], block: dict[str, Any], metric: str) -> list[int]:
    if results.get("ks"):
        return [int(k) for k in results["ks"]]
    found = [int(m.group(1)) for key in block if (m := re.fullmatch(rf"{metric}@(\d+)", key))]
    return sorted(found)


def plot_recall_curves(results: dict[str, Any], path: Path, title: str) -> None:
    """recall@k against k (log axis), one line per configuration, one panel per metric."""
    import matplotlib  # deferred: slow to load, and only a chart needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # deferred with matplotlib

    panels = _LOCOMO_CURVES if _is_locomo(results) else _LME_CURVES
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), squeeze=False)
    for ax, (panel_title, block_name, metric) in zip(axes[0], panels, strict=True):
        all_ks: set[int] = set()
        for name, config in results.get("configs", {}).items():
            block = config.get(block_name) or {}
            ks = [k for k in _ks(results, block, metric) if f"{metric}@{k}" in block]
            if ks:
                ax.plot(ks, [block[f"{metric}@{k}"] for k in ks], marker="o", label=name)
                all_ks.update(ks)
        ax.set_xscale("log")
        if all_ks:
            ax.set_xticks(sorted(all_ks), [str(k) for k in sorted(all_ks)])
            ax.minorticks_off()
        ax.set_xlabel("k")
        ax.set_ylim(0, 1.02)
        ax.set_title(panel_title)
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("recall")
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        axes[0][-1].legend(handles, labels, loc="lower right", fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_report(results: dict[str, Any], out_dir: Path, title: str) -> dict[str, Path]:
    """Write results.json, results.md and recall_curves.png into out_dir; return their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"json": out_dir / "results.json", "md": out_dir / "results.md",
             "png": out_dir / "recall_curves.png"}
    paths["json"].write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    parts = [f"# {title}", "",
             f"Dataset: {results.get('dataset', '?')}, {results.get('n_questions', '?')} questions read.",
             "", markdown_table(results)]
    per_type = per_type_table(results)
    if per_type:
        parts += ["", per_type]
    halves = halves_table(results)
    if halves:
        parts += ["", halves]
    notes = [f"- {name}: {c['scoring']}" for name, c in results.get("configs", {}).items()
             if c.get("scoring")]
    if notes:
        parts += ["", "Scoring:", "", *notes]
    parts += ["", "![recall@k](recall_curves.png)", ""]
    paths["md"].write_text("\n".join(parts), encoding="utf-8")
    plot_recall_curves(results, paths["png"], title)
    return paths
