"""The Neo4j Browser kit: ready queries that name their own user, a style whose captions read."""

import re

from graphmem.browser import ready_queries, style


def test_ready_queries_set_their_own_names_and_have_a_parameterised_form() -> None:
    queries = ready_queries()
    assert [q.title.split(":")[0] for q in queries][:2] == ["Every supersession chain",
                                                           "The current facts and the entities they mention"]
    for q in queries:
        first = q.browser_text.splitlines()[0]
        assert first.startswith("WITH 'demo' AS user"), first  # runs as pasted, no :param needed
        assert "$" not in q.browser_text
        assert q.defaults["user"] == "demo"
        assert q.cypher.startswith("WITH $user AS user")
        assert "'demo'" not in q.cypher
    assert next(q for q in queries if "slot" in q.title).defaults == {"user": "demo",
                                                                     "predicate": "lives_in"}


def test_style_captions_show_values_and_words() -> None:
    grass = style()
    rules = dict(re.findall(r"(node\.\w+|relationship\.\w+) \{\n(.*?)\n\}", grass, re.S))
    caption = {k: re.search(r'caption: "([^"]*)"', v).group(1) for k, v in rules.items()}
    assert caption["node.FactEvent"].startswith("{value}")  # the part that changes comes first
    assert caption["node.Turn"] == caption["node.MessagePiece"] == "{text}"
    assert caption["node.Entity"] == "{name}"
    for label in ("FactEvent", "Turn", "MessagePiece", "Entity"):
        size = int(re.search(r"font-size: (\d+)px", rules[f"node.{label}"]).group(1))
        diameter = int(re.search(r"diameter: (\d+)px", rules[f"node.{label}"]).group(1))
        assert size >= 14 and diameter >= 80  # reads at the zoom Browser opens a result with
