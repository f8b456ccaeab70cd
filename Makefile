# The README's verbs. `make dev` and `make test` do all set-up on a fresh machine.
PORT ?= 8123
HOST ?= 127.0.0.1
VENV := .venv
PY := $(VENV)/bin/python
# uv from PATH, else the `uv` module of python3 (pip-installed on first use).
UV := $(shell command -v uv 2>/dev/null || echo python3 -m uv)
export LANGGRAPH_CLI_NO_ANALYTICS ?= 1
export LANGGRAPH_NO_VERSION_CHECK ?= true
export LANGSMITH_TRACING ?= false

.PHONY: install dev test test-unit test-e2e lint format bench diagrams clean

install: $(VENV)/.synced  ## create .venv from the lock file (again only when the lock changes)

# Bytecode is compiled at install time: the server then starts in seconds even where Python may
# not write .pyc files itself (PYTHONDONTWRITEBYTECODE).
$(VENV)/.synced: uv.lock pyproject.toml
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen --compile-bytecode
	@touch $@

dev: install  ## serve both graphs on http://$(HOST):$(PORT) (offline model unless a key is set)
	$(VENV)/bin/langgraph dev --no-browser --host $(HOST) --port $(PORT)

test: install  ## unit + e2e tests
	$(PY) -m pytest tests

test-unit: install
	$(PY) -m pytest tests/unit

test-e2e: install
	$(PY) -m pytest tests/e2e

lint: install
	$(VENV)/bin/ruff check graphs tools server tests bench scripts client_examples
	$(VENV)/bin/ruff format --check graphs tools server tests bench scripts client_examples
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff format graphs tools server tests bench scripts client_examples
	$(VENV)/bin/ruff check --fix graphs tools server tests bench scripts client_examples

diagrams: install  ## rewrite the Mermaid diagrams in README.md from the compiled graphs
	$(PY) scripts/diagrams.py --write README.md

bench: install  ## retrieval quality and speed on ../shared/corpus
	$(PY) bench/retrieval.py --corpus ../shared/corpus --questions ../shared/corpus/eval/dev.jsonl --json
	$(PY) bench/search_speed.py --corpus ../shared/corpus
	$(PY) bench/catalog_budget.py

clean:
	rm -rf .docs_agent_cache .langgraph_api .pytest_cache
