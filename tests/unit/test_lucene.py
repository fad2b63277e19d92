from graphmem.lucene import escape, terms, user_scoped_query


def test_special_characters_are_escaped():
    assert escape('a+b (c) "d" ~e* f?:g\\ h/i') == 'a\\+b \\(c\\) \\"d\\" \\~e\\* f\\?\\:g\\\\ h\\/i'
    assert escape("cats AND dogs OR NOT fish") == "cats and dogs or not fish"
    assert escape("x && y || z") == "x \\&& y \\|| z"


def test_query_is_scoped_and_has_only_words():
    q = user_scoped_query("MATCH (n) DETACH DELETE n; // \"}]) OR 1=1", "user-1")
    assert q.startswith('+user_id:"user\\-1" +(')
    assert "text:match" in q and "text:delete" in q
    assert user_scoped_query("?!* ()", "u") is None


def test_terms_are_deduplicated_and_capped():
    assert terms("The the THE cat") == ["the", "cat"]
    assert len(terms(" ".join(f"w{i}" for i in range(500)))) == 64
