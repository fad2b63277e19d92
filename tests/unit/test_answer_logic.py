"""Pure parts of answering: the cypher_read guards, exact computation, the judge templates and
the published-points reader."""

import pytest

from graphmem.answer.compute import arithmetic, count, date_add, date_diff
from graphmem.answer.cypher_read import CypherRefused, check_plan, check_text
from graphmem.errors import InputError
from graphmem_bench.judge import judge_prompt
from graphmem_bench.published import read_points


@pytest.mark.parametrize("statement", [
    "CREATE (n:X) RETURN n",
    "MATCH (n {user_id: $user_id}) SET n.x = 1",
    "MATCH (n {user_id: $user_id}) DETACH DELETE n",
    "merge (n:X {user_id: $user_id})",
    "CALL db.labels() YIELD label RETURN label, $user_id",
    "LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l, $user_id",
    "MATCH (n {user_id: $user_id}) RETURN n; MATCH (m) DETACH DELETE m",
    "MATCH (n) RETURN n",  # not anchored on the user
    "MATCH (n {user_id: $user_id}) FOREACH (x IN [1] | CREATE (:X))",
    "USE system SHOW USERS",
    "MATCH (t:Turn {user_id: $user_id}) RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) "
    "RETURN count(n)', {})",
    "MATCH (t:Turn {user_id: $user_id}) RETURN db . labels()",
    "",
])
def test_check_text_refuses(statement):
    with pytest.raises(CypherRefused):
        check_text(statement)


def test_check_text_ignores_words_in_strings_and_comments():
    q = ("MATCH (t:Turn {user_id: $user_id}) // we never CREATE here\n"
         "WHERE t.text CONTAINS 'create a delete set' RETURN t.text;")
    assert check_text(q).endswith("RETURN t.text")


def _op(name, details="", children=()):
    return {"operatorType": f"{name}@neo4j", "args": {"Details": details},
            "children": list(children)}


def test_check_plan_requires_every_graph_leaf_to_be_a_seek_on_the_user():
    seek = _op("NodeIndexSeek", "RANGE INDEX f:FactEvent(user_id) WHERE user_id = $user_id")
    check_plan(_op("ProduceResults", "f", [seek]))
    composite = _op("NodeIndexSeek", "RANGE INDEX f:FactEvent(user_id, slot) WHERE user_id = "
                                     "$user_id AND slot >= $lo AND slot < $hi")
    check_plan(_op("ProduceResults", "f", [composite]))
    check_plan(_op("ProduceResults", "x", [_op("Unwind", "$list AS x")]))
    by_id = _op("NodeUniqueIndexSeek", "UNIQUE f:FactEvent(id) WHERE id = $x")
    refused = [
        _op("ProduceResults", "f", [by_id]),
        # a filter afterwards is too late: the seek found another user's node first
        _op("ProduceResults", "f", [_op("Filter", "f.user_id = $user_id", [by_id])]),
        _op("ProduceResults", "c", [_op("NodeCountFromCountStore", "count( (:Turn) )")]),
        _op("CartesianProduct", "", [seek, _op("NodeIndexSeek", "o:Turn(user_id) WHERE "
                                                                 "user_id = $victim")]),
        _op("ProduceResults", "e", [_op("NodeIndexSeek", "RANGE INDEX e:Entity(user_id, "
                                        "norm_name) WHERE user_id = $autostring_0 AND "
                                        "norm_name = $autostring_1")]),
        _op("ProduceResults", "f", [_op("NodeIndexSeekByRange", "RANGE INDEX f:FactEvent(slot)"
                                        " WHERE slot >= $lo AND slot < $hi")]),
        _op("ProduceResults", "f", [_op("NodeIndexSeek", "RANGE INDEX f:FactEvent(user_id) "
                                        "WHERE user_id IN [$user_id, $x]")]),
        _op("ProduceResults", "f", [_op("NodeIndexSeek", "RANGE INDEX f:FactEvent(user_id) "
                                        "WHERE user_id = $user_id…")]),
    ]
    for plan in refused:
        with pytest.raises(CypherRefused):
            check_plan(plan)


def test_check_plan_refuses_scans_whatever_filter_follows():
    """A scan reads every user's nodes of its label, so its time grows with theirs, even when the
    filter above it keeps only the user's rows."""
    scan = _op("NodeByLabelScan", "t:Turn")
    for cond in ("t.user_id = $user_id", "(t.user_id = $user_id) AND t.idx > 1",
                 "cache[t.user_id] = $user_id AND t:Turn", "$user_id = t.user_id",
                 "NOT t.user_id = $user_id", "t.user_id = $user_id OR true"):
        with pytest.raises(CypherRefused):
            check_plan(_op("ProduceResults", "t", [_op("Filter", cond, [scan])]))
    with pytest.raises(CypherRefused):
        check_plan(_op("ProduceResults", "n", [_op("Filter", "n.user_id = $user_id",
                                                   [_op("AllNodesScan", "n")])]))


def test_check_plan_refuses_relationship_scans_and_late_anchors():
    rel = _op("DirectedRelationshipTypeScan", "(a)-[r:HAS_TURN]->(t)")
    expand = _op("Expand(All)", "(u)-[s:HAS_SESSION]->(a)", [rel])
    for below in (rel, expand):
        with pytest.raises(CypherRefused):
            check_plan(_op("ProduceResults", "t", [_op("Filter", "u.user_id = $user_id",
                                                       [below])]))
    # another user's entity first, then expansions, then the anchor: the probe's timing oracle
    victim = _op("NodeIndexSeek", "RANGE INDEX e:Entity(user_id, norm_name) WHERE user_id = "
                                  "$autostring_0 AND norm_name = $autostring_1")
    walk = _op("VarLengthExpand(All)", "(e)-[anon_0*..12]-(y)", [victim])
    with pytest.raises(CypherRefused):
        check_plan(_op("ProduceResults", "n", [_op("Filter", "y.user_id = $user_id", [walk])]))


def test_check_plan_refuses_anything_evaluated_before_the_anchor():
    """Found by a hostile probe: a WITH that rebinds the anchored name to a map, and an
    expression evaluated on other users' rows whose run-time error quotes them."""
    scan = _op("NodeByLabelScan", "x:Turn")
    rebind = _op("Projection", "x AS v, {user_id: $user_id} AS x", [scan])
    convert = _op("Projection", "x, date(x.text) AS d", [scan])
    lower = _op("Filter", "date(x.text) > $autostring_0", [scan])
    guarded = _op("Expand(All)", "(x)-[r:NEXT WHERE date(r.at) > $d]->(y)", [scan])
    for below in (rebind, convert, lower, guarded):
        with pytest.raises(CypherRefused):
            check_plan(_op("ProduceResults", "v", [_op("Filter", "x.user_id = $user_id "
                                                              "AND y.user_id = $user_id", [below])]))


def test_check_plan_refuses_nested_queries_and_unknown_operators():
    seek = _op("NodeIndexSeek", "RANGE INDEX t:Turn(user_id) WHERE user_id = $user_id")
    for details in ("COLLECT { MATCH (x:Turn) RETURN x.text } AS c",
                    "CASE WHEN t.idx > 1 THEN COUNT { MATCH (z) WHERE z:Session } END AS c"):
        with pytest.raises(CypherRefused):
            check_plan(_op("ProduceResults", "c", [_op("Projection", details, [seek])]))
    for name in ("ProcedureCall", "LoadCSV", "Create", "SetProperty", "SomethingNew"):
        with pytest.raises(CypherRefused):
            check_plan(_op("ProduceResults", "t", [_op(name, "", [seek])]))
    with pytest.raises(CypherRefused):
        check_plan({})


@pytest.mark.parametrize("statement", [
    "MATCH (t:Turn {user_id: $user_id}) WHERE t.text <> '//' CALL db.labels() YIELD l RETURN l",
    "MATCH (t:Turn {user_id: $user_id}) \\u0043REATE (:X)",
    "MATCH (t:Turn {user_id: $user_id}) \uff23REATE (:X)",
    "MATCH (t:Turn {user_id: $user_id}) RETURN COLLECT { MATCH (x) RETURN x } AS c",
    "MATCH (t:Turn {user_id: $user_id}) RETURN count  { (x:Turn) } AS c",
    "MATCH (t:Turn {user_id: $user_id}) WHERE t.text = 'open",
    "MATCH (t:Turn) RETURN t.text /* $user_id */",
])
def test_check_text_tokenises_before_judging(statement):
    with pytest.raises(CypherRefused):
        check_text(statement)


def test_compute_is_exact():
    assert arithmetic("(3 + 4) * 2 / 7") == 2
    assert date_diff("2023/05/20 (Sat) 10:18", "2023-06-28", "days")["value"] == 39
    assert date_diff("2023-01-31", "2024-03-01", "months")["value"] == 13
    assert date_diff("2023-03-01", "2023-01-01")["value"] == -59
    assert date_add("2024-02-28", 2, "days") == {"date": "2024-03-01", "weekday": "Friday"}
    assert count(["Yoga", " yoga", "Pilates"]) == {"count": 2, "items": ["Yoga", "Pilates"]}
    for bad in ("__import__('os')", "open('x')", "1/0", "'a' * 3", ""):
        with pytest.raises(InputError):
            arithmetic(bad)
    with pytest.raises(InputError):
        date_diff("someday", "2023-01-01")


def test_judge_prompts_follow_the_question_type():
    assert "off-by-one" in judge_prompt("temporal-reasoning", "q", "a", "r", False)
    assert "updated answer" in judge_prompt("knowledge-update", "q", "a", "r", False)
    assert "Rubric: a" in judge_prompt("single-session-preference", "q", "a", "r", False)
    assert "unanswerable" in judge_prompt("multi-session", "q", "a", "r", True)
    prompt = judge_prompt("multi-session", "Q?", "42", "It is 42.", False)
    assert "Question: Q?" in prompt and "Correct Answer: 42" in prompt and prompt.endswith(
        "Answer yes or no only.")
    with pytest.raises(ValueError):
        judge_prompt("other", "q", "a", "r", False)


def test_published_points_are_read_from_a_tab_separated_table(tmp_path):
    paper = tmp_path / "paper.txt"
    paper.write_text("Intro text\n\nMethod\tDate\tModel\tAcc.\tCost / 10³ Q\n"
                     "Alpha\t2026-01\tModel A\t90.0%\t$2 (meas.)\n"
                     "Beta\t2026-02\tModel B\t80.5%\t$10–$40 (est.)\n\nAfter the table\n")
    a, b = read_points(paper)
    assert (a.method, a.accuracy, a.cost_per_question, a.measured) == ("Alpha", 0.9, 0.002, True)
    assert (b.cost_low, b.cost_high, b.measured) == (0.01, 0.04, False)
    assert b.cost_per_question == pytest.approx(0.02)
    (tmp_path / "none.txt").write_text("no table")
    with pytest.raises(ValueError):
        read_points(tmp_path / "none.txt")



def test_planner_tools_are_declared_once_and_each_has_its_implementation():
    import re

    from graphmem.answer.tools import FINISH, NAMES, ToolBox, ToolError
    from graphmem.prompts.answer import PLANNER_SYSTEM

    implemented = {m.removeprefix("tool_") for m in dir(ToolBox) if m.startswith("tool_")}
    assert set(NAMES) - {FINISH} == implemented and len(NAMES) == len(set(NAMES))
    # every tool the planner's prompt names by hand is a declared one
    named = set(re.findall(r"\b(search|session_expand|timeline|compute|count|cypher_read|finish|"
                           r"inspect)\b", PLANNER_SYSTEM))
    assert named <= set(NAMES)
    with pytest.raises(ToolError, match="unknown tool"):
        ToolBox(None, "u", None, None).run(FINISH, {})
