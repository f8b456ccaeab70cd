"""One index for every replica: two Aegra processes read one published snapshot and follow it.

`make index --publish DIR` (python -m tools.build_index --publish DIR) builds the index and
writes it as a generation of a snapshot folder; both servers run with DOCS_AGENT_INDEX_DIR=DIR,
open it read-only, and never build. A page added and published again is found by both at
their next question, without a restart (docs/deploy.md, "Replicas").
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client

from tests.conftest import REPO_ROOT
from tests.e2e.conftest import AegraServices, AegraStack

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

PAGES = {
    "streaming.md": "# Streaming\n\n## Stream tokens\n\nStream tokens from subgraph nodes.\n",
    "limits.md": "# Limits\n\n## Recursion limit\n\nLimit the steps of a run.\n",
}
NEW_PAGE = (
    "# Zorblat caching\n\n## Configure the zorblat cache\n\n"
    "Set the zorblat cache size to keep repeated answers fast.\n"
)
QUESTION = "How do I configure the zorblat cache size?"


def publish(env: dict[str, str], snapshot: Path) -> str:
    """`make index --publish`: the writer, in a process of its own; the generation it wrote."""
    done = subprocess.run(
        [sys.executable, "-m", "tools.build_index", "--quiet", "--publish", str(snapshot)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return (snapshot / "CURRENT").read_text().strip()


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    docs, kb = tmp_path / "docs", tmp_path / "kb"
    for folder in (docs, kb):
        folder.mkdir()
    for rel, text in PAGES.items():
        (docs / rel).write_text(text)
    (kb / "general.md").write_text("# Contact support\n\nWrite to support.\n")
    return {"docs": docs, "kb": kb, "live": tmp_path / "live", "snapshot": tmp_path / "snapshot"}


@pytest.fixture
def replicas(
    aegra_services: AegraServices, tmp_path: Path, layout: dict[str, Path]
) -> Iterator[tuple[AegraStack, dict[str, str]]]:
    settings = {
        "DOCS_AGENT_DOCS_DIR": str(layout["docs"]),
        "DOCS_AGENT_DOCS_BASE_URL": "https://docs.example.com",
        "DOCS_AGENT_KB_DIR": str(layout["kb"]),
        "DOCS_AGENT_EMBEDDINGS": "off",
        "DOCS_AGENT_CODE_ROOTS": "",
    }
    writer_env = (
        {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        | settings
        | {"DOCS_AGENT_INDEX_DIR": str(layout["live"]), "DOCS_AGENT_MODEL": ""}
    )
    publish(writer_env, layout["snapshot"])
    stack = AegraStack(
        tmp_path / "stack",
        aegra_services,
        extra_env=settings | {"DOCS_AGENT_INDEX_DIR": str(layout["snapshot"])},
    )
    try:
        stack.start()
        stack.start()
        yield stack, writer_env
    finally:
        stack.stop()


async def sources_of(url: str, question: str) -> list[Any]:
    client = get_client(url=url)
    thread = await client.threads.create(metadata={"user_id": "replica-user"})
    result = await client.runs.wait(
        thread["thread_id"], "docs_answer", input={"question": question}
    )
    assert isinstance(result, dict), result
    return list(result.get("sources") or [])


def cites(sources: list[Any], page: str) -> bool:
    return any(page in str(source) for source in sources)


def test_two_aegra_replicas_follow_one_snapshot_without_restart(
    replicas: tuple[AegraStack, dict[str, str]], layout: dict[str, Path]
) -> None:
    stack, writer_env = replicas
    urls = [p.url for p in stack.processes]
    before = sorted(p.name for p in layout["snapshot"].rglob("*"))

    async def ask_all() -> list[list[Any]]:
        return list(await asyncio.gather(*(sources_of(u, QUESTION) for u in urls)))

    first = asyncio.run(ask_all())
    assert all(not cites(s, "https://docs.example.com/zorblat") for s in first), first
    # Replicas read the snapshot, they never write it: no lock, log or index of their own.
    assert sorted(p.name for p in layout["snapshot"].rglob("*")) == before

    (layout["docs"] / "zorblat.md").write_text(NEW_PAGE)
    generation = publish(writer_env, layout["snapshot"])
    assert generation == "g000002"
    second = asyncio.run(ask_all())
    assert all(cites(s, "https://docs.example.com/zorblat") for s in second), second

    assert all(p.proc.poll() is None for p in stack.processes)  # the same processes
