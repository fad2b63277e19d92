"""Score predicted facts against the corpus's labels (no torch: the tests use it too).

- per predicate precision / recall / F1 at the message level: the predicate is found in a
  message when a predicted fact has it, right when a gold fact there has it too;
- value EM: of gold facts whose predicate was found in their message, the share for which a
  predicted fact of that predicate has exactly the gold value span (character offsets);
- change / subject accuracy, time / key / subject-span EM on matched facts: gold and predicted
  facts of one predicate in one message, paired exact span first, then by overlap, then in order;
  a span EM counts the gold facts that have that span;
- look-alike accuracy: of messages with no gold fact, the share with no predicted fact.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ..corpus import Message


def overlap(a, b) -> int:
    return max(0, min(a.end, b.end) - max(a.start, b.start))


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return (a.start, a.end) == (b.start, b.end)


def _pair(gold: list, pred: list) -> list[tuple]:
    pairs, left = [], list(pred)
    rest = []
    for g in gold:
        hit = next((p for p in left if _same(p.value, g.value)), None)
        if hit is not None:
            left.remove(hit)
            pairs.append((g, hit))
        else:
            rest.append(g)
    rest2 = []
    for g in rest:
        cands = [p for p in left if overlap(p.value, g.value) > 0]
        if cands:
            hit = max(cands, key=lambda p: overlap(p.value, g.value))
            left.remove(hit)
            pairs.append((g, hit))
        else:
            rest2.append(g)
    for g, p in zip(rest2, list(left), strict=False):
        pairs.append((g, p))
    return pairs


def _prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f}


def score(messages: Sequence[Message], predicted: Sequence[Sequence]) -> dict:
    """Scores of `predicted` (facts with predicate, value, change, subject, key, time,
    subject_span) against the messages' gold facts; a dict ready for JSON."""
    c: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    looks = looks_ok = 0
    for msg, preds in zip(messages, predicted, strict=True):
        if not msg.facts:
            looks += 1
            looks_ok += not preds
        gold_by: dict[str, list] = defaultdict(list)
        pred_by: dict[str, list] = defaultdict(list)
        for f in msg.facts:
            gold_by[f.predicate].append(f)
        for f in preds:
            pred_by[f.predicate].append(f)
        for name in set(gold_by) | set(pred_by):
            g, p, k = gold_by.get(name, []), pred_by.get(name, []), c[name]
            if g and p:
                k["tp"] += 1
            elif p:
                k["fp"] += 1
            else:
                k["fn"] += 1
            k["gold_facts"] += len(g)
            if not (g and p):
                continue
            for gf in g:
                k["value_n"] += 1
                k["value_em"] += any(_same(pf.value, gf.value) for pf in p)
            for gf, pf in _pair(g, p):
                k["matched"] += 1
                k["change_ok"] += str(getattr(pf.change, "value", pf.change)) == gf.change.value
                k["subject_ok"] += pf.subject == gf.subject
                for field in ("time", "key", "subject_span"):
                    if getattr(gf, field) is not None:
                        k[f"{field}_n"] += 1
                        k[f"{field}_em"] += _same(getattr(pf, field), getattr(gf, field))

    def ratios(k) -> dict[str, float | int | None]:
        def rate(a: str, b: str) -> float | None:
            return k[a] / k[b] if k[b] else None
        return {**_prf(k["tp"], k["fp"], k["fn"]), "tp": k["tp"], "fp": k["fp"], "fn": k["fn"],
                "gold_facts": k["gold_facts"], "value_em": rate("value_em", "value_n"),
                "change_acc": rate("change_ok", "matched"),
                "subject_acc": rate("subject_ok", "matched"),
                "time_em": rate("time_em", "time_n"), "key_em": rate("key_em", "key_n"),
                "subject_span_em": rate("subject_span_em", "subject_span_n"),
                "matched": k["matched"]}

    total: dict[str, int] = defaultdict(int)
    for k in c.values():
        for field, n in k.items():
            total[field] += n
    return {"messages": len(messages), "lookalikes": looks,
            "lookalike_acc": looks_ok / looks if looks else None,
            "micro": ratios(total),
            "per_predicate": {name: ratios(c[name]) for name in sorted(c)}}


def table(scores: dict) -> str:
    """The per-predicate table and the micro line, as text."""
    def f(x) -> str:
        return "   -" if x is None else f"{x:.2f}"
    head = (f"{'predicate':<16}{'gold':>5}{'P':>6}{'R':>6}{'F1':>6}{'valEM':>7}{'chg':>6}"
            f"{'subj':>6}{'time':>6}{'key':>6}")
    lines = [head, "-" * len(head)]

    def row(name: str, k: dict) -> str:
        return (f"{name:<16}{k['gold_facts']:>5}{f(k['precision']):>6}{f(k['recall']):>6}"
                f"{f(k['f1']):>6}{f(k['value_em']):>7}{f(k['change_acc']):>6}"
                f"{f(k['subject_acc']):>6}{f(k['time_em']):>6}{f(k['key_em']):>6}")
    for name, k in scores["per_predicate"].items():
        lines.append(row(name, k))
    lines.append("-" * len(head))
    lines.append(row("MICRO", scores["micro"]))
    lines.append(f"look-alike accuracy {f(scores['lookalike_acc'])} "
                 f"({scores['lookalikes']} of {scores['messages']} messages); "
                 f"subject-span EM {f(scores['micro']['subject_span_em'])}")
    return "\n".join(lines)
