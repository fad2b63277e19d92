from graphmem.entities import entity_id, is_self, normalise_name
from graphmem.segment import MAX_PIECE_CHARS, pieces_of_turn, segment


def test_sentences_with_exact_offsets():
    text = "I moved to Denver. Dr. Smith says hi!  Is that right?\nYes it is"
    spans = segment(text)
    parts = [text[s:e] for s, e in spans]
    assert parts == ["I moved to Denver.", "Dr. Smith says hi!", "Is that right?", "Yes it is"]


def test_long_sentence_is_cut_at_clauses_and_offsets_hold():
    text = ", ".join(f"item number {i} in a very long list" for i in range(60))
    spans = segment(text)
    assert len(spans) > 1
    for s, e in spans:
        assert e - s <= MAX_PIECE_CHARS
        assert text[s:e] == text[s:e].strip()
    covered = "".join(text[s:e] for s, e in spans).replace(" ", "").replace(",", "")
    assert covered == text.replace(" ", "").replace(",", "")


def test_piece_ids_are_stable_and_user_scoped():
    a = pieces_of_turn("u1", "turn:1", "Hello there. I live in Paris.")
    b = pieces_of_turn("u1", "turn:1", "Hello there. I live in Paris.")
    c = pieces_of_turn("u2", "turn:1", "Hello there. I live in Paris.")
    assert [p.id for p in a] == [p.id for p in b]
    assert {p.id for p in a}.isdisjoint(p.id for p in c)
    assert [p.text for p in a] == ["Hello there.", "I live in Paris."]


def test_empty_and_punctuation_only_text_has_no_pieces():
    assert segment("") == []
    assert segment("  ...  !! ") == []


def test_entity_names_resolve_to_one_node():
    forms = ["Denver", "denver", "Denver, CO", "the Denver"]
    norms = {normalise_name(f, "place") for f in forms}
    assert norms == {"denver"}
    assert entity_id("u", "denver") != entity_id("v", "denver")
    assert normalise_name("Café Río", "place") == "cafe rio"
    assert is_self("I") and is_self("user") and not is_self("Sarah")
