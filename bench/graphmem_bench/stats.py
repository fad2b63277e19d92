"""Summaries of per-question figures (latency, tokens, dollars) shared by the benchmarks."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float, digits: int = 6) -> float | None:
    """The q-quantile (0 ≤ q ≤ 1) by nearest rank, rounded; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))], digits)


def summary(values: Sequence[float], digits: int = 6) -> dict[str, float] | None:
    """mean, median, p95 (nearest rank) and max, rounded; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    p95 = percentile(ordered, 0.95, digits)
    return {"mean": round(statistics.fmean(ordered), digits),
            "median": round(statistics.median(ordered), digits), "p95": p95,
            "max": round(ordered[-1], digits)}


def latency(values: Sequence[float]) -> dict[str, float] | None:
    """p50 / p95 in milliseconds, as the retrieval tables print them."""
    s = summary(values, 2)
    return {"p50": s["median"], "p95": s["p95"]} if s else None
