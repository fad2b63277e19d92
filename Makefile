# Everyday commands. The virtualenv lives outside the clone (torch is large) and is reused.
VENV ?= $(HOME)/.cache/graphmem/venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
SAMPLE := graphmem/samples/sample.jsonl

.PHONY: install demo test lint fmt neo4j-start neo4j-stop

$(PY):
	python3 -m venv $(VENV)

install: $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"

demo: install
	$(BIN)/graphmem neo4j start
	$(BIN)/graphmem ingest $(SAMPLE)
	$(BIN)/graphmem stats --user demo
	$(BIN)/graphmem search --user demo --question-date 2024-07-01 "Where do I live now?"
	$(BIN)/graphmem timeline --user demo --predicate lives_in

test: install
	$(BIN)/pytest

lint:
	$(BIN)/ruff check graphmem cypher schema loaders tests

fmt:
	$(BIN)/ruff format graphmem cypher schema loaders tests

neo4j-start:
	$(BIN)/graphmem neo4j start

neo4j-stop:
	$(BIN)/graphmem neo4j stop
