"""Shared fixtures: an isolated source configuration and the shared reference corpus."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_CORPUS = Path(
    os.environ.get("DOCS_AGENT_SHARED_CORPUS", REPO_ROOT.parent / "shared" / "corpus")
)

# Tests never read a developer's .env or reach a real provider.
for var in (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "DOCS_AGENT_MODEL",
    "OPENAI_BASE_URL",
    "LANGSMITH_API_KEY",
):
    os.environ.pop(var, None)
os.environ.setdefault("LANGSMITH_TRACING", "false")
# Outside a server every section reads `.env` too (settings/dotenv.py): never a developer's here.
os.environ["DOCS_AGENT_ENV_FILE"] = ""


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    """A private index cache so tests never share or reuse an index."""
    return tmp_path / "index"


@pytest.fixture
def shared_corpus() -> Path:
    """../shared/corpus, or a skip with the reason when it is absent."""
    if not (SHARED_CORPUS / "docs").is_dir():
        pytest.skip(f"reference corpus not found at {SHARED_CORPUS}")
    return SHARED_CORPUS


@pytest.fixture(autouse=True)
def _fresh_settings() -> Iterator[None]:
    """Each test reads the environment afresh (a process reads its settings once: settings/)."""
    from settings import current

    current.cache_clear()
    yield
    current.cache_clear()
