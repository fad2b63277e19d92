"""`graphmem sessions`, `turns`, `get`, `forget-turn`, `invalidate` and `redecide`: one memory
at a time."""

from __future__ import annotations

import click

from ..errors import UnknownUser
from .group import _day, _dump, _fail_cleanly, main, open_memory

PAGE_HELP = "The next_cursor a previous page printed; none for the first page."


def _next(cursor: str | None) -> None:
    if cursor:
        click.echo(f"more: --cursor {cursor}")


@main.command()
@click.option("--user", required=True)
@click.option("--cursor", default=None, help=PAGE_HELP)
@click.option("--limit", type=int, default=50, show_default=True, help="Sessions per page.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def sessions(user, cursor, limit, as_json) -> None:
    """One page of the user's sessions, oldest first, with their turn counts."""
    with open_memory(answer_llm=False) as mem:
        page = mem.list_sessions(user, cursor=cursor, limit=limit)
    if as_json:
        click.echo(_dump(page.to_dict("sessions")))
        return
    for s in page.items:
        click.echo(f"{_day(s.started_at)}  {s.source_id}  turns={s.turns}  {s.id}")
    _next(page.next_cursor)


@main.command()
@click.option("--user", required=True)
@click.option("--session", default=None, help="Only this session (its source id).")
@click.option("--cursor", default=None, help=PAGE_HELP)
@click.option("--limit", type=int, default=50, show_default=True, help="Turns per page.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def turns(user, session, cursor, limit, as_json) -> None:
    """One page of the user's turns in conversation order."""
    with open_memory(answer_llm=False) as mem:
        page = mem.list_turns(user, session_id=session, cursor=cursor, limit=limit)
    if as_json:
        click.echo(_dump(page.to_dict("turns")))
        return
    for t in page.items:
        text = " ".join(t.text.split())
        click.echo(f"{t.session_source_id}#{t.idx:<3} {t.source_id:<14} {_day(t.mentioned_at)} "
                   f"{t.speaker or t.role}: {text if len(text) <= 100 else text[:97] + '...'}")
    _next(page.next_cursor)


@main.command()
@click.option("--user", required=True)
@click.argument("kind", type=click.Choice(["turn", "fact"]))
@click.argument("item_id")
@_fail_cleanly
def get(user, kind, item_id) -> None:
    """One turn (stored id or source turn id, with the ids of its facts) or one fact (status,
    interval, source turns, changes, who marked it wrong) as JSON."""
    with open_memory(answer_llm=False) as mem:
        item = mem.get_turn(user, item_id) if kind == "turn" else mem.get_fact(user, item_id)
    click.echo(_dump(item.to_dict()))


@main.command("forget-turn")
@click.option("--user", required=True)
@click.option("--redact", is_flag=True, help="Keep the turn's place, replace its words.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.argument("turn_id")
@_fail_cleanly
def forget_turn(user, redact, yes, turn_id) -> None:
    """Delete (or redact) one turn with its pieces and the facts derived only from it; the
    slots they were in are decided again as if they had never been said."""
    if not yes:
        click.confirm(f"{'Redact' if redact else 'Delete'} turn {turn_id!r} of user {user!r}?",
                      abort=True)
    with open_memory(answer_llm=False) as mem:
        done = mem.redact_turn(user, turn_id) if redact else mem.delete_turn(user, turn_id)
    click.echo(f"{'redacted' if redact else 'deleted'} turn {done.source_id} ({done.turn_id}) "
               f"of session {done.session_source_id}: {done.pieces} pieces, "
               f"{len(done.facts)} facts, {done.entities} entities; currency decided again "
               f"for {len(done.slots)} slots")


@main.command()
@click.option("--user", required=True)
@click.option("--by", default="user", show_default=True, help="Who says the fact is wrong.")
@click.option("--reason", default=None, help="Why, in a few words.")
@click.argument("fact_id")
@_fail_cleanly
def invalidate(user, by, reason, fact_id) -> None:
    """Mark one fact wrong: kept in history as invalid, its slot decided again without it."""
    with open_memory(answer_llm=False) as mem:
        f = mem.invalidate_fact(user, fact_id, by=by, reason=reason)
    who = f.invalidation
    click.echo(f"{f.status} {f.text} ({f.id}); marked by {who.by if who else '?'}"
               f"{' — ' + who.reason if who and who.reason else ''}")


@main.command()
@click.option("--user", "users", multiple=True,
              help="The user whose slots to decide again (repeat for several).")
@click.option("--stale", is_flag=True,
              help="Every user whose slots were decided by other currency rules than this "
                   "version's (graphmem doctor counts them).")
@click.option("-v", "--verbose", is_flag=True, help="List the facts that changed.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def redecide(users, stale, verbose, as_json) -> None:
    """Decide every slot of a user again with this version's currency rules: after upgrading
    graphmem, whose rules decided the stored statuses. One transaction per user."""
    if not users and not stale:
        raise click.UsageError("name the users to decide again (--user U, repeatable) or --stale")
    users = list(dict.fromkeys(users))
    with open_memory(answer_llm=False) as mem:
        for u in users:  # every user known before any is changed
            mem.require_user(u)
        named = set(users)
        if stale:
            users += [u for u in mem.users_with_stale_rules() if u not in named]
        done = []
        for u in users:
            try:
                d = mem.redecide(u)
            except UnknownUser:
                if u in named:
                    raise
                continue  # forgotten since it was listed: nothing to decide
            done.append(d)
            if as_json:
                continue
            click.echo(f"{d.user_id}: {d.slots} slots decided again, {len(d.changed)} facts "
                       f"changed")
            if verbose:
                for fid in d.changed:
                    f = mem.get_fact(d.user_id, fid)
                    click.echo(f"  {f.status:<10} {f.text} ({f.id})")
        if stale and not users and not as_json:
            click.echo("every user's slots are decided by this version's rules")
        if as_json:
            click.echo(_dump({"users": [d.to_dict() for d in done]}))
