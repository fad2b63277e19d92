"""A search's speaker check compares the aliases it remembered with those read again inside its
tunnels' query; Cypher collects them in no fixed order, so the order must not count (else the
search would start again for nothing)."""

from graphmem.retrieval import Retriever


def _row(aliases):
    return [{"speakers": ["Emi", "Jonas"],
             "aliases": [{"speaker": "Emi", "aliases": aliases},
                         {"speaker": "Jonas", "aliases": []}]}]


def test_aliases_read_in_another_order_are_the_same_speakers():
    r = Retriever(None, None)
    remembered = {"Emi": ["Kate", "Katie"], "Jonas": []}
    assert r._speakers_still("u", ["Emi", "Jonas"], remembered, _row(["Katie", "Kate"]))
    assert r._speakers_still("u", ["Emi", "Jonas"], remembered, _row(["Kate", "Katie"]))


def test_a_new_alias_is_a_change():
    r = Retriever(None, None)
    remembered = {"Emi": ["Kate"], "Jonas": []}
    assert not r._speakers_still("u", ["Emi", "Jonas"], remembered, _row(["Kate", "Katie"]))
