"""Index builds in worker processes: the same index as a serial build, errors and logs carried back."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from tools.kb import FolderKnowledgeBase
from tools.search import SearchIndex, SourceFile
from tools.search import storage as search_storage
from tools.search import workers as search_workers
from tools.search.lexical import LexicalReader
from tools.search.storage import IndexStore
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.markdown.parse import parse_markdown
from tools.sources.records import Page

WORDS = ["stream", "graph", "state", "checkpoint", "interrupt", "memory", "tool", "agent"]


def _pages(n: int) -> dict[str, str]:
    words = WORDS
    pages = {}
    for i in range(n):
        a, b = words[i % len(words)], words[(i * 3 + 1) % len(words)]
        pages[f"g{i % 3}/page-{i}.mdx"] = (
            f"---\ntitle: Page {i} about {a}\n---\n\nIntro to {a} and {b} number n{i}.\n\n"
            f"## Using {b}\n\nCall `{a.title()}{b.title()}` then [see](/g0/page-{(i + 1) % n}).\n"
        )
    return pages


def _write(root: Path, pages: dict[str, str]) -> None:
    for rel, text in pages.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def _dump(db_path: Path) -> list[list[tuple[object, ...]]]:
    """The rows, and what the lexical engine scores for each word of the pages, by our ids."""
    db = sqlite3.connect(db_path)
    try:
        rows = [
            db.execute("SELECT * FROM docs ORDER BY id").fetchall(),
            db.execute("SELECT * FROM secs ORDER BY id").fetchall(),
        ]
    finally:
        db.close()
    with closing(IndexStore(db_path)) as store:
        engine = LexicalReader(store.lexical_root, store.generation())
    words = [*WORDS, "n7", "qwerty4", "page", "call", "see", "intro"]
    scores: list[tuple[object, ...]] = []
    for word in words:
        for found in (
            engine.section_scores([word], 1000, 1000),
            engine.title_scores([word], 100, 100),
        ):
            scores.append(
                (word, *np.round(found[found > 0], 5).tolist(), *np.flatnonzero(found).tolist())
            )
    return [*rows, scores]


@pytest.fixture
def pool_for_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Use the worker pool even for a handful of pages, in chunks of two."""
    monkeypatch.setattr(search_workers, "MIN_PAGES", 1)
    monkeypatch.setattr(search_workers, "CHUNK", 2)


@pytest.mark.usefixtures("pool_for_any_size")
def test_pool_build_equals_serial_build_and_syncs_incrementally(tmp_path: Path) -> None:
    _write(tmp_path / "kb", _pages(23))
    serial = FolderKnowledgeBase(tmp_path / "kb", tmp_path / "serial")
    pooled = FolderKnowledgeBase(tmp_path / "kb", tmp_path / "pooled")
    assert serial.sync(workers=1).added == 23
    assert pooled.sync(workers=2).added == 23
    assert _dump(serial.index.db_path) == _dump(pooled.index.db_path)
    for q in ("stream graph", "checkpoint memory n7", "StateGraph"):
        assert serial.search(q, 5) == pooled.search(q, 5)
    # Many pages changed at once go through the pool again and replace their old documents.
    for i in range(0, 23, 2):
        page = tmp_path / "kb" / f"g{i % 3}/page-{i}.mdx"
        page.write_text(page.read_text() + f"\nAdded words qwerty{i}.\n")
    assert serial.sync(workers=1).updated == pooled.sync(workers=2).updated == 12
    assert _dump(serial.index.db_path) == _dump(pooled.index.db_path)
    assert pooled.search("qwerty4", 3)[0].key == "g1/page-4"


@pytest.mark.usefixtures("pool_for_any_size")
def test_pool_worker_warnings_reach_this_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pages = _pages(5)
    pages["bad.mdx"] = "---\ntitle: [unclosed\n---\n\nquokka facts\n"
    _write(tmp_path / "docs", pages)
    corpus = FolderCorpus(tmp_path / "docs", "docs", tmp_path / "index", UrlRule())
    with caplog.at_level(logging.WARNING):
        corpus.sync(workers=2)
    assert "frontmatter" in caplog.text
    assert corpus.search("quokka", 3)[0].key == "bad.mdx"


def read_all_but_last(key: str) -> bytes:
    """A reader whose last file vanished after listing (module level: workers can import it)."""
    if key == "p3.md":
        raise FileNotFoundError(key)
    return f"# Page {key}\n\nwords about {key}\n".encode()


def parse_plain(key: str, raw: bytes) -> tuple[Page, str, str]:
    return parse_markdown(key, raw.decode()), key, ""


@pytest.mark.usefixtures("pool_for_any_size")
@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_sync_raises_as_a_serial_one_and_leaves_the_index_as_it_was(
    tmp_path: Path, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_storage, "WRITE_BATCH", 1)  # rows are written before the error
    index = SearchIndex(tmp_path / "i.sqlite")
    files = [SourceFile(f"p{i}.md", 1.0, 10) for i in range(4)]
    index.sync(files[:1], read_all_but_last, parse_plain, workers=workers)
    with pytest.raises(FileNotFoundError):
        index.sync(files, read_all_but_last, parse_plain, workers=workers)
    assert index.keys() == ["p0.md"]
    assert [h.key for h in index.search("words", 5)] == ["p0.md"]
    assert index.sync(files[:3], read_all_but_last, parse_plain, workers=workers).added == 2


def test_unpicklable_parser_falls_back_to_this_process(
    tmp_path: Path, pool_for_any_size: None
) -> None:
    _write(tmp_path / "docs", _pages(6))
    corpus = FolderCorpus(
        tmp_path / "docs", "docs", tmp_path / "i", UrlRule(), collection_for=lambda rel: "c"
    )
    assert corpus.sync(workers=2).added == 6
    assert {h.collection for h in corpus.search("stream", 10)} == {"c"}


def test_workers_that_cannot_start_leave_the_work_to_this_process(
    tmp_path: Path,
    pool_for_any_size: None,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _write(tmp_path / "kb", _pages(7))
    kb = FolderKnowledgeBase(tmp_path / "kb", tmp_path / "i")
    monkeypatch.setattr(search_workers.sys, "executable", str(tmp_path / "no-such-python"))
    with caplog.at_level(logging.WARNING):
        assert kb.sync(workers=2).added == 7
    assert "index worker failed" in caplog.text
    assert kb.search("n3", 1)[0].key == "g0/page-3"


def test_default_pool_starts_a_worker_only_for_enough_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's start-up is paid per worker: the default starts one per PAGES_PER_WORKER."""
    monkeypatch.setattr(search_workers, "default_workers", lambda: 4)
    per = search_workers.PAGES_PER_WORKER
    assert search_workers.workers_for(search_workers.MIN_PAGES) == 1
    assert search_workers.workers_for(2 * per - 1) == 1
    assert search_workers.workers_for(2 * per) == 2
    assert search_workers.workers_for(100 * per) == 4  # never more than the cores

    started: list[int] = []
    monkeypatch.setattr(search_workers, "_Worker", lambda: started.append(1))
    tasks: list[search_workers.Task] = [
        (SourceFile(f"p{i}", 0.0, 1), None) for i in range(search_workers.MIN_PAGES + 50)
    ]
    records = list(search_workers.analysed(tasks, _read_text, _parse_title))
    assert len(records) == len(tasks) and not started  # analysed here, no worker started


def _read_text(key: str) -> bytes:
    return f"# {key}\n\nbody of {key}\n".encode()


def _parse_title(key: str, raw: bytes) -> tuple[Page, str, str]:
    return parse_markdown(key, raw.decode()), f"https://example.test/{key}", ""
