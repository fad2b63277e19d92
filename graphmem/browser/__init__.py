"""The Neo4j Browser kit: a style (`graphmem.grass`) and ready queries (`queries.cypher`), read here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_TITLE = re.compile(r"// (\d+)\. (.+)")
_NAMED = re.compile(r"'([^']*)'\s+AS\s+(\w+)")


@dataclass(frozen=True)
class ReadyQuery:
    """One ready query: its title, the text to paste into Browser (its first line names the user
    with a literal, `WITH 'demo' AS user`), and the defaults of those names."""

    title: str
    browser_text: str
    defaults: dict[str, str]

    @property
    def cypher(self) -> str:
        """The query with each named literal of its first line made a `$parameter`."""
        first, _, rest = self.browser_text.partition("\n")
        return f"{_NAMED.sub(lambda m: f'${m.group(2)} AS {m.group(2)}', first)}\n{rest}"


def style() -> str:
    return resources.files(__name__).joinpath("graphmem.grass").read_text(encoding="utf-8")


def queries_text() -> str:
    return resources.files(__name__).joinpath("queries.cypher").read_text(encoding="utf-8")


def ready_queries() -> list[ReadyQuery]:
    """The ready queries in file order; each block starts with a `// N. title` comment."""
    out: list[ReadyQuery] = []
    for block in re.split(r"\n(?=// \d+\. )", queries_text()):
        lines = block.strip().splitlines()
        title = _TITLE.fullmatch(lines[0]) if lines else None
        if title is None:
            continue  # the header
        body = "\n".join(line for line in lines[1:] if not line.lstrip().startswith("//"))
        first = body.split("\n", 1)[0]
        defaults = {name: value for value, name in _NAMED.findall(first)}
        out.append(ReadyQuery(title.group(2), body.strip().rstrip(";"), defaults))
    return out
