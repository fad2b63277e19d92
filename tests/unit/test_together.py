"""store.search.together's one query: each part's parameters its own, the shared ones once."""

from __future__ import annotations

import re

import pytest

from graphmem.store.search import SHARED, Read, _together_params, _together_text


def test_parts_keep_their_parameters_apart_but_the_shared_ones():
    text = _together_text((("dense", "tunnel_dense_index"), ("window", "tunnel_dense_index"),
                           ("bm25", "tunnel_bm25")))
    assert text.startswith("CYPHER 25\n") and text.count("CYPHER 25") == 1
    assert text.rstrip().endswith("RETURN dense, window, bm25")
    assert "$dense_known_at" in text and "$window_known_at" in text and "$bm25_lucene" in text
    assert "$known_at" not in text and "$lucene" not in text
    assert "$vector" in text and "$user_id" in text and {"vector", "user_id"} <= SHARED
    assert text.count("AS dense") == 1 and "AS rows" not in text


def test_a_query_that_does_not_list_its_rows_is_refused():
    with pytest.raises(ValueError, match="one list"):
        _together_text((("a", "user_exists"), ("b", "tunnel_bm25")))


def test_parts_that_differ_in_a_shared_parameter_are_refused():
    def bm25(user: str) -> Read:
        return Read("tunnel_bm25", {"user_id": user, "lucene": "x", "limit": 1, "heads": 1,
                                    "known_at": None})

    assert _together_params({"a": bm25("u1"), "b": bm25("u1")}) == {
        "user_id": "u1", "a_lucene": "x", "a_limit": 1, "a_heads": 1, "a_known_at": None,
        "b_lucene": "x", "b_limit": 1, "b_heads": 1, "b_known_at": None}
    with pytest.raises(ValueError, match="user_id"):
        _together_params({"a": bm25("u1"), "b": bm25("u2")})


class _Server:
    """A graph object for the index probe's cache (store.search._FILTERED_INDEX): no query runs."""


@pytest.mark.parametrize("filtered", [True, False])
@pytest.mark.parametrize("speaker", [None, "Caroline"])
def test_every_tunnel_read_supplies_exactly_its_query_parameters(filtered, speaker):
    from graphmem.cypher import query
    from graphmem.store import search

    server = _Server()
    search._FILTERED_INDEX[server] = filtered
    reads = [search.bm25_read("u1", "x", limit=5, heads=2, speaker=speaker),
             search.dense_read(server, "u1", [0.1], heads=2, min_cosine=0.2,  # type: ignore[arg-type]
                               exact=not filtered, speaker=None if not filtered else speaker),
             search.speaker_dense_read("u1", [0.1], speaker or "x", heads=2, min_cosine=0.2)]
    for r in reads:
        named = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", query(r.name)))
        assert named == set(r.params), r.name
    dense = reads[1]
    assert dense.name == ("tunnel_dense_index" if filtered else "tunnel_dense")
    if filtered:  # a named speaker widens the index search; without one it is the tunnel's own
        wide, fetch = dense.params["wide"], dense.params["fetch"]
        assert wide == (fetch * search.SPEAKER_OVERFETCH if speaker else fetch)
