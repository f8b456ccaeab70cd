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

.PHONY: report install dev test test-unit test-e2e lint format bench bench-scale diagrams clean index refresh aegra aegra-install aegra-if-possible bench-aegra

# Aegra (the open-source engine on PostgreSQL + Redis, docs/deploy.md) needs Python >= 3.12 and gets
# its own environment; the package itself stays 3.11-compatible. PY312 overrides the interpreter.
AEGRA_VENV := .venv-aegra
AEGRA_VERSION := 0.11.0
PY312 ?= $(shell python3.12 -c 'import sys; print(sys.executable)' 2>/dev/null || \
	PYENV_VERSION=$$(pyenv versions --bare 2>/dev/null | grep -E '^3\.12\.' | tail -1) pyenv which python3 2>/dev/null || \
	$(UV) python find 3.12 2>/dev/null)

install: $(VENV)/.synced  ## create .venv from the lock file (again only when the lock changes)

# Bytecode is compiled at install time: the server then starts in seconds even where Python may
# not write .pyc files itself (PYTHONDONTWRITEBYTECODE).
$(VENV)/.synced: uv.lock pyproject.toml
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen --compile-bytecode
	@touch $@

dev: install  ## serve both graphs on http://$(HOST):$(PORT) (offline model unless a key is set)
	$(VENV)/bin/langgraph dev --no-browser --host $(HOST) --port $(PORT)

index: install  ## build the docs and KB search index now (progress bar), so no first question waits for it
	$(PY) -m tools.build_index

refresh: install  ## re-check the live sources (llms.txt site, help center) now; a running server sees the result
	$(PY) -m tools.build_index --refresh

aegra-install: $(AEGRA_VENV)/.synced  ## Aegra $(AEGRA_VERSION) in .venv-aegra (Python 3.12), shared pins from uv.lock

# The project's own dependencies are pinned to uv.lock (exported as constraints); Aegra adds its own.
$(AEGRA_VENV)/.synced: uv.lock pyproject.toml
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	@test -n "$(PY312)" || { echo "Aegra needs Python >= 3.12: install python3.12 or set PY312=/path/to/python3.12"; exit 1; }
	$(UV) venv -q --allow-existing -p $(PY312) --python-preference only-system $(AEGRA_VENV)
	$(UV) export --frozen --no-hashes --no-emit-project --no-dev -q -o $(AEGRA_VENV)/constraints.txt
	$(UV) pip install -q --compile-bytecode --python $(AEGRA_VENV)/bin/python -c $(AEGRA_VENV)/constraints.txt \
		"aegra-cli==$(AEGRA_VERSION)" "aegra-api==$(AEGRA_VERSION)" -e .
	@touch $@

# `make test` installs Aegra when it can; without Python 3.12 the Aegra tests skip and say why.
aegra-if-possible:
	@if [ -n "$(PY312)" ]; then $(MAKE) --no-print-directory aegra-install; \
	else echo "note: no Python 3.12 here: the Aegra e2e tests will skip (set PY312=/path/to/python3.12)"; fi

aegra: install aegra-install  ## serve the graphs on Aegra: DATABASE_URL/REDIS_URL if set, else throw-away local ones
	$(PY) -m commands.local_stack --host $(HOST) --port $(PORT)

test: install aegra-if-possible  ## unit + e2e tests (the Aegra ones too when Python 3.12 is here)
	$(PY) -m pytest tests

test-unit: install
	$(PY) -m pytest tests/unit

test-e2e: install aegra-if-possible
	$(PY) -m pytest tests/e2e

lint: install
	$(VENV)/bin/ruff check settings graphs tools server commands testing tests bench scripts client_examples
	$(VENV)/bin/ruff format --check settings graphs tools server commands testing tests bench scripts client_examples
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff format settings graphs tools server commands testing tests bench scripts client_examples
	$(VENV)/bin/ruff check --fix settings graphs tools server commands testing tests bench scripts client_examples

diagrams: install  ## rewrite the Mermaid diagrams in README.md from the compiled graphs
	$(PY) scripts/diagrams.py --write README.md

report: install  ## the answers report of the last SINCE (7d): text here, HTML in report.html (operator token in DOCS_AGENT_TOKEN)
	$(PY) -m commands.report --since $${SINCE:-7d} --url $${DOCS_AGENT_URL:-http://$(HOST):$(PORT)} --html report.html

bench: install  ## one table for every corpus of bench/corpora.toml (search, languages, answers, rank-bm25); speed on ../shared/corpus
	$(PY) -m bench.corpora_report
	$(PY) -m bench.search_speed --corpus ../shared/corpus
	$(PY) -m bench.catalog_budget

SIZES ?= 5000,20000,50000
bench-scale: install  ## the index at 5k / 20k / 50k pages beside a plain tantivy whole-page index (SIZES=5000,20000 to choose; takes long)
	nice -n 19 $(PY) -m bench.scale --sizes $(SIZES)

bench-aegra: install aegra-install  ## TTFT on Aegra (2 processes) vs langgraph dev, same run, offline model
	$(PY) -m bench.load --engines dev,aegra --clients 50 --skip-restart --model offline
	$(PY) -m bench.first_question --corpus ../shared/corpus

clean:
	rm -rf .docs_agent_cache .langgraph_api .pytest_cache
