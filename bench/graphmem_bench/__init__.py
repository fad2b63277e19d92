"""The benchmark harness of graphmem, a package of its own: it uses graphmem, graphmem never
imports it. Its commands are `graphmem bench …` (entry point `graphmem.cli`); nothing here is a
test."""
