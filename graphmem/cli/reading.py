"""`graphmem search`, `facts`, `timeline` and `inspect`."""

from __future__ import annotations

from typing import Any

import click

from .group import (
    LazyChoice,
    _day,
    _dump,
    _fail_cleanly,
    _parse_when,
    main,
    open_memory,
    scope_options,
)

MAX_TEXT_CHARS = 1000


def _presets() -> list[str]:
    from ..retrieval.config import PRESETS  # deferred: graphmem.retrieval loads numpy and the store

    return list(PRESETS)


@main.command()
@click.option("--user", required=True, help="Whose memory to search.")
@click.option("--question-date", default=None, help="'Now' for the question (default: now).")
@click.option("--as-of", "as_of", default=None, help="Search memory as it was valid then.")
@click.option("-k", "k", type=int, default=10, show_default=True, help="How many results.")
@click.option("--preset", default=None, show_default="fused", type=LazyChoice(_presets))
@click.option("--explain", is_flag=True,
              help="Show the per-tunnel hits and what each rerank step did.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--max-chars", type=click.IntRange(min=20), default=MAX_TEXT_CHARS, show_default=True,
              help="Cap on the text printed per item (`graphmem inspect ID` prints it whole).")
@click.argument("query")
@scope_options
@_fail_cleanly
def search(user, question_date, as_of, k, preset, explain, as_json, max_chars, query,
           scope) -> None:
    """Search one user's memory and print ranked evidence with its source turn ids.

    With GRAPHMEM_URL set, a running `graphmem serve` does the search (no cold start)."""
    from ..remote import RemoteMemory  # deferred: the server client loads httpx and pydantic

    preset = preset or "fused"
    qdate, at = _parse_when(question_date, "--question-date"), _parse_when(as_of, "--as-of")
    remote = RemoteMemory.from_env()
    if remote is not None:
        with remote:
            out = remote.search(user, query, question_date=qdate, as_of=at, k=k, preset=preset,
                                explain=explain, **scope)
    else:
        with open_memory(answer_llm=False) as mem:
            out = mem.search_full(user, query, question_date=qdate, as_of=at, k=k,
                                  config=preset, **scope).to_dict(explain=explain)
    _cap_texts(out, max_chars)
    if as_json:
        click.echo(_dump(out))
        return
    _print_search(out, explain)


def _cap_texts(out: dict[str, Any], limit: int) -> None:
    """Cut each item's text at a word boundary within `limit` characters; the item then says
    how long the whole text is (a 5 MB turn is not printed whole: `inspect` prints it)."""
    for e in out["results"]:
        text = e.get("text") or ""
        if len(text) > limit:
            cut = text.rfind(" ", 0, limit)
            e.update(text=text[: cut if cut > limit // 2 else limit] + "…", text_chars=len(text),
                     text_truncated=True)


def _print_search(out: dict[str, Any], explain: bool) -> None:
    w = out["intent"]
    if w["window"] or w["direction"]:
        window = f"{_day(w['window'][0])} → {_day(w['window'][1])}" if w["window"] else None
        click.echo(f"time intent: window={window} direction={w['direction']} "
                   f"present={w['about_present']}")
    if not out["results"]:
        click.echo("no evidence found")
    for i, e in enumerate(out["results"], 1):
        text = " ".join(e["text"].split())
        text = text if len(text) <= 160 else text[:157] + "..."
        status = f" [{e['status']}]" if e["status"] and e["status"] != "active" else ""
        click.echo(f"{i:>2}. {e['score']:.2f} {e['type']:<5} "
                   f"{','.join(e['source_turn_ids'][:3]):<14} "
                   f"{_day(e['mentioned_at'])[:10]}{status} {text}")
        if explain:
            click.echo(f"      density={e['density']:.2f} time_bonus={e['time_bonus']:.2f} "
                       f"tunnels={','.join(e['tunnels'])} heads={len(e['heads'])} id={e['id']}")
    if explain:
        click.echo("tunnels: " + ", ".join(f"{n} {v:.0f} ms" for n, v in out["timings_ms"].items()))
        hits = out.get("hits") or []
        for tunnel in sorted({h["tunnel"] for h in hits}):
            heads = sorted({(h["rank"], h["head"]) for h in hits if h["tunnel"] == tunnel})
            click.echo(f"  {tunnel}: {len(heads)} heads: " + "; ".join(x[1] for x in heads[:10]))
        _print_steps(out)


def _print_steps(out: dict[str, Any]) -> None:
    """The rerank steps as configured, in the order they ran, and what each did."""
    if "steps" not in out:  # a server that does not report them
        return
    click.echo("rerank steps, in order:")
    for s in out["steps"]:
        if not s["applied"]:
            did = "not for this question"
        else:
            parts = [f"{n} {s[n]}" for n in ("dropped", "rescored", "moved") if s[n]]
            did = ", ".join(parts) if parts else "no change"
        click.echo(f"  {s['name']:<14} {s['kind']:<5} {did}")
    if out.get("steps_off"):
        click.echo("  off: " + ", ".join(out["steps_off"]))



# --- time: facts, timeline, inspect --------------------------------------------------------------

LIMIT_HELP = "At most this many facts (default: every one, up to the bound graphmem.memory sets)."


def _limit(limit: int | None) -> dict[str, Any]:
    """Memory's own default and bound (MAX_FACTS) apply unless a limit is given."""
    return {} if limit is None else {"limit": limit}


@main.command()
@click.option("--user", required=True)
@click.option("--as-of", "as_of", default=None, help="Facts valid at this time (default: now).")
@click.option("--question-date", default=None, help="'Now' for the question: nothing said later.")
@click.option("--history", is_flag=True, help="Every version, current or not.")
@click.option("--predicate", default=None)
@click.option("--limit", type=int, default=None, help=LIMIT_HELP)
@click.option("--json", "as_json", is_flag=True)
@scope_options
@_fail_cleanly
def facts(user, as_of, question_date, history, predicate, limit, as_json, scope) -> None:
    """The user's current facts, the facts valid at --as-of, or the whole --history."""
    with open_memory(answer_llm=False) as mem:
        rows = mem.facts(user, _parse_when(as_of, "--as-of"), predicate=predicate,
                         history=history, **_limit(limit),
                         question_date=_parse_when(question_date, "--question-date"), **scope)
    if as_json:
        click.echo(_dump([r.to_dict() for r in rows]))
        return
    for r in rows:
        until = _day(r.valid_until) if r.valid_until else "now"
        click.echo(f"{r.status:<10} {_day(r.valid_from)} → {until:<16} {r.text}  "
                   f"[{', '.join(r.source_turn_ids)}]")
    if not rows:
        click.echo("no facts")


@main.command()
@click.option("--user", required=True)
@click.option("--entity", default=None, help="Only facts about this entity (name or alias).")
@click.option("--predicate", default=None, help="Only this predicate (or predicate family).")
@click.option("--since", default=None)
@click.option("--until", default=None)
@click.option("--question-date", default=None, help="'Now' for the question: nothing said later.")
@click.option("--limit", type=int, default=None, help=LIMIT_HELP)
@click.option("--json", "as_json", is_flag=True)
@scope_options
@_fail_cleanly
def timeline(user, entity, predicate, since, until, question_date, limit, as_json,
             scope) -> None:
    """The ordered history of facts, with intervals, status and source turn."""
    with open_memory(answer_llm=False) as mem:
        rows = mem.timeline(user, entity=entity, predicate=predicate,
                            since=_parse_when(since, "--since"),
                            until=_parse_when(until, "--until"), **_limit(limit),
                            question_date=_parse_when(question_date, "--question-date"), **scope)
    if as_json:
        click.echo(_dump([r.to_dict() for r in rows]))
        return
    for r in rows:
        when = _day(r.occurred_start or r.mentioned_at)
        until_txt = _day(r.valid_until) if r.valid_until else "now"
        change = "".join(f" {c.type} {c.id}" for c in r.changes)
        click.echo(f"{when}  {r.status:<10} {r.text}")
        click.echo(f"{'':18}valid {_day(r.valid_from)} → {until_txt}; from "
                   f"{r.session_source_id} turn {','.join(r.source_turn_ids)}; {r.id}{change}")
    if not rows:
        click.echo("no facts")


@main.command()
@click.option("--user", required=True)
@click.option("--json", "as_json", is_flag=True)
@click.argument("node_id")
@_fail_cleanly
def inspect(user, as_json, node_id) -> None:
    """A memory card for a fact, piece, turn or entity (graphmem id, source turn id or name)."""
    with open_memory(answer_llm=False) as mem:
        card = mem.inspect(user, node_id)
    if as_json:
        click.echo(_dump(card))
        return
    click.echo(_render_card(card))


def _render_card(card: dict[str, Any]) -> str:
    out: list[str] = []
    if card["type"] == "fact":
        f = card["fact"]
        out.append(f"FactEvent {f['id']}: {f['text']}")
        out.append(f"  kind={f.get('kind')} predicate={f.get('predicate')} value={f.get('value')!r}"
                   f" modality={f.get('modality')} status={f.get('status')}"
                   f" extracted_by={f.get('extracted_by') or f.get('extractor')}")
        out.append(f"  mentioned {_day(f.get('mentioned_at'))}; occurred "
                   f"{_day(f.get('occurred_start'))} → {_day(f.get('occurred_end'))}"
                   f"{' (' + f['time_text'] + ')' if f.get('time_text') else ''}; valid "
                   f"{_day(f.get('valid_from'))} → "
                   f"{_day(f['valid_until']) if f.get('valid_until') else 'now'}")
        for r in card["roles"]:
            out.append(f"  role {r['role']}: {r['entity']} ({r['type']})")
        for c in card["changes"]:
            arrow = "→" if c["direction"] == "out" else "←"
            out.append(f"  {arrow} {c['type']} {c['id']} [{c['status']}] {c['text']}"
                       f" (at {_day(c['at'])}, decided by {c['decided_by']})")
        for src in card["sources"]:
            out.append(f"  source: session {src['session_source_id']} ({_day(src['session_time'])}), "
                       f"turn {src['turn_id']} ({src['speaker'] or src['role']}):")
            out.append(f"    …{src['before']}>>>{src['span']}<<<{src['after']}…")
    elif card["type"] == "entity":
        e = card["entity"]
        out.append(f"Entity {e['id']}: {e['name']} ({e.get('type')}); aliases: "
                   f"{', '.join(e.get('aliases') or [])}")
        for f in card["facts"]:
            out.append(f"  {f['role']:<10} [{f['status']}] {f['text']}  {f['id']}")
    elif card["type"] in ("turn", "piece"):
        t = card["turn"]
        out.append(f"Turn {t['source_id']} ({t.get('speaker') or t['role']}) in session "
                   f"{card['session_source_id']} at {_day(card['session_time'])}; previous "
                   f"{card['prev_turn']}, next {card['next_turn']}")
        if card["type"] == "piece":
            p = card["piece"]
            text = t["text"]
            out.append(f"  piece {p['id']} [{p['start']}:{p['end']}]: "
                       f"…{text[max(0, p['start'] - 120):p['start']]}>>>{p['text']}<<<"
                       f"{text[p['end']:p['end'] + 120]}…")
        else:
            out.append("  " + t["text"])
        for f in card["facts"]:
            out.append(f"  fact [{f['status']}] {f['text']}  {f['id']}")
    else:
        out.append(f"{card['type']} {card['id']}")
    return "\n".join(out)
