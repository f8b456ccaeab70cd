# The README's verbs. `make dev` and `make test` do all set-up on a fresh machine.
PORT ?= 8123
HOST ?= 127.0.0.1
VENV := .venv
PY := $(VENV)/bin/python
UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
export LANGGRAPH_CLI_NO_ANALYTICS ?= 1
export LANGGRAPH_NO_VERSION_CHECK ?= true
export LANGSMITH_TRACING ?= false

.PHONY: install dev test test-unit test-e2e lint format bench diagrams clean

$(UV):
	python3 -m pip install --quiet --user uv || python3 -m pip install --quiet uv

install: $(UV)  ## create .venv from the lock file
	$(UV) sync --frozen

dev: install  ## serve both graphs on http://$(HOST):$(PORT) (offline model unless a key is set)
	$(VENV)/bin/langgraph dev --no-browser --host $(HOST) --port $(PORT)

test: install  ## unit + e2e tests
	$(PY) -m pytest tests

test-unit: install
	$(PY) -m pytest tests/unit

test-e2e: install
	$(PY) -m pytest tests/e2e

lint: install
	$(VENV)/bin/ruff check graphs tools tests bench client_examples
	$(VENV)/bin/ruff format --check graphs tools tests bench client_examples
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff format graphs tools tests bench client_examples
	$(VENV)/bin/ruff check --fix graphs tools tests bench client_examples

diagrams: install  ## rewrite the Mermaid diagrams in README.md from the compiled graphs
	$(PY) -m graphs.diagrams --write README.md

bench: install  ## retrieval quality and speed on ../shared/corpus
	$(PY) bench/retrieval.py --corpus ../shared/corpus --questions ../shared/corpus/eval/dev.jsonl --json
	$(PY) bench/search_speed.py --corpus ../shared/corpus
	$(PY) bench/catalog_budget.py

clean:
	rm -rf .docs_agent_cache .langgraph_api .pytest_cache
