from graphmem.migrate import apply_schema, schema_status
from graphmem.schema import migrations


def test_schema_has_constraints_fulltext_and_vector_indexes(graph):
    st = schema_status(graph)
    constraints = {c["name"] for c in st["constraints"]}
    for label in ("user", "session", "turn", "piece", "fact", "entity"):
        assert f"{label}_id_unique" in constraints
    by_type: dict[str, set[str]] = {}
    for i in st["indexes"]:
        assert i["state"] == "ONLINE", i
        by_type.setdefault(i["type"], set()).add(i["name"])
    assert {"turn_text", "piece_text", "fact_text", "entity_text"} <= by_type["FULLTEXT"]
    assert {"turn_embedding", "piece_embedding", "fact_embedding",
            "entity_embedding"} <= by_type["VECTOR"]
    assert {"turn_user", "fact_user", "session_user"} <= by_type["RANGE"]


def test_vector_indexes_are_384_cosine(graph):
    with graph.session(read_only=True) as s:
        rows = s.run("SHOW VECTOR INDEXES YIELD name, options RETURN name, options").data()
    assert rows
    for r in rows:
        cfg = r["options"]["indexConfig"]
        assert cfg["vector.dimensions"] == 384
        assert cfg["vector.similarity_function"].lower() == "cosine"


def test_apply_is_idempotent_and_versioned(graph):
    latest = migrations()[-1].version
    again = apply_schema(graph)
    assert again.applied == []
    assert again.version == latest
    versions = [v["version"] for v in schema_status(graph)["versions"]]
    assert versions == [m.version for m in migrations()]
