from graphmem.lucene import english_words, escape, scopes_user, terms, user_scoped_query


def test_special_characters_are_escaped():
    assert escape('a+b (c) "d" ~e* f?:g\\ h/i') == 'a\\+b \\(c\\) \\"d\\" \\~e\\* f\\?\\:g\\\\ h\\/i'
    assert escape("cats AND dogs OR NOT fish") == "cats and dogs or not fish"
    assert escape("x && y || z") == "x \\&& y \\|| z"


def test_query_is_scoped_and_has_only_words():
    q = user_scoped_query("MATCH (n) DETACH DELETE n; // \"}]) OR 1=1", "user-1")
    assert q.startswith('+user_id:"user\\-1"^0 +(')
    assert "text:match" in q and "text:delete" in q
    assert user_scoped_query("?!* ()", "u") is None


def test_terms_are_deduplicated_and_capped():
    assert terms("The the THE cat") == ["the", "cat"]
    assert len(terms(" ".join(f"w{i}" for i in range(500)))) == 64


def test_english_words_leave_out_what_the_analyser_drops():
    assert english_words(["will", "wedding", "no", "nurse", "as"]) == ["wedding", "nurse"]


def test_a_user_id_scopes_unless_every_word_is_a_stop_word():
    assert scopes_user("lme:0a995998") and scopes_user("will-smith") and scopes_user("test-1f3a")
    assert not scopes_user("will") and not scopes_user("It-is-THIS") and not scopes_user("it's")
    assert not scopes_user("@@@")  # no word at all: nothing to scope by either
