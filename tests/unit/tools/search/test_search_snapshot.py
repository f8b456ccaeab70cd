"""Snapshots for replicas: one writer publishes generations, readers follow them read-only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fixtures.fake_embedder import FakeEmbedder
from tools import build_index
from tools.build_index import disk_bytes, index_files, publish_snapshot, size_report
from tools.search.snapshot import (
    CURRENT,
    KEEP,
    current_generation,
    generation_path,
    is_snapshot,
    prune,
)
from tools.settings import SourceSettings
from tools.sources.corpus import FolderCorpus, UrlRule

PAGES = {
    "streaming.md": "# Streaming\n\n## Stream tokens\n\nStream tokens from subgraph nodes.\n",
    "limits.md": "# Limits\n\n## Recursion limit\n\nLimit the steps of a run.\n",
}


class Sources:
    """The part of `tools.Sources` the CLI helpers read."""

    def __init__(self, docs: FolderCorpus) -> None:
        self.docs = docs
        self.kb = None


def write(root: Path, pages: dict[str, str]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for rel, text in pages.items():
        (root / rel).write_text(text)


def corpus(docs: Path, index_dir: Path) -> FolderCorpus:
    return FolderCorpus(
        docs, "docs", index_dir, UrlRule("https://d.example"), embedder=FakeEmbedder()
    )


def tree(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in sorted(root.rglob("*"))}


def test_replicas_read_a_published_generation_and_follow_the_next(tmp_path: Path) -> None:
    docs, live, snap = tmp_path / "docs", tmp_path / "live", tmp_path / "snap"
    write(docs, PAGES)
    writer = corpus(docs, live)
    writer.sync()
    name = publish_snapshot(Sources(writer), snap)  # type: ignore[arg-type]
    assert is_snapshot(snap) and current_generation(snap) == name
    files = sorted(p.name for p in generation_path(snap, name).iterdir())
    assert "MANIFEST.json" in files and not [f for f in files if f.endswith(("-wal", "-shm"))]

    replicas = [corpus(docs, snap), corpus(docs, snap)]
    before = tree(snap)
    for replica in replicas:
        assert replica.index.read_only and replica.vectors is not None
        assert replica.vectors.read_only
        assert replica.sync().unchanged == 2  # checked, never written
        assert replica.search("stream tokens", 1)[0].key == "streaming.md"
        assert replica.search("Jak przesyłać strumieniowo tokeny?", 1)[0].key == "streaming.md"
    assert tree(snap) == before  # no lock, no log, nothing written by a reader

    # The writer changes a page and publishes: both replicas read it at their next search.
    write(docs, {"limits.md": "# Limits\n\n## Recursion limit\n\nCap the zorblat steps.\n"})
    writer.sync()
    second = publish_snapshot(Sources(writer), snap)  # type: ignore[arg-type]
    assert second != name
    for replica in replicas:
        assert replica.search("zorblat", 1)[0].key == "limits.md"
        assert replica.index.generation == second
        sim = replica.vectors.similarity("zorblat steps")
        assert sim is not None and "limits.md" in sim.best


def test_old_generations_are_pruned_but_the_newest_kept(tmp_path: Path) -> None:
    docs, live, snap = tmp_path / "docs", tmp_path / "live", tmp_path / "snap"
    write(docs, PAGES)
    writer = corpus(docs, live)
    writer.sync()
    names = [publish_snapshot(Sources(writer), snap) for _ in range(KEEP + 2)]  # type: ignore[arg-type]
    kept = sorted(p.name for p in (snap / "generations").iterdir())
    assert kept == names[-KEEP:]
    (snap / "generations" / ".g000099.tmp").mkdir()  # a publisher that died half way
    assert prune(snap) == [] and not (snap / "generations" / ".g000099.tmp").exists()
    assert (snap / CURRENT).read_text().strip() == names[-1]


def test_a_sync_leaves_no_write_ahead_log_and_sizes_are_reported(tmp_path: Path) -> None:
    """Issue 34: every index carried a log as large as itself after a build (disk ≈ 2× data)."""
    docs, live = tmp_path / "docs", tmp_path / "live"
    write(docs, PAGES)
    source = corpus(docs, live)
    source.sync()
    logs = [p for p in live.iterdir() if p.name.endswith("-wal")]
    assert all(p.stat().st_size == 0 for p in logs)
    files = index_files(source)
    total = disk_bytes(files)
    data = sum(
        os.path.getsize(p) for p in live.rglob("*") if p.is_file() and not p.name.endswith("-wal")
    )
    assert 0 < total <= data
    (line,) = size_report(Sources(source))  # type: ignore[arg-type]
    assert line.startswith("docs: 2 pages,") and "KB/page" in line and "vectors" in line


def test_make_index_publishes_and_reports_size_per_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    write(docs, PAGES)
    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(docs),
            "DOCS_AGENT_KB_DIR": "",
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_INDEX_DIR": str(tmp_path / "live"),
            "DOCS_AGENT_EMBEDDINGS": "off",
        }
    )
    monkeypatch.setattr(build_index.SourceSettings, "from_env", classmethod(lambda cls: settings))
    snap = tmp_path / "snap"
    assert build_index.main(["--quiet", "--publish", str(snap)]) == 0
    out = capsys.readouterr().out
    assert "docs: 2 pages," in out and "KB/page" in out
    assert "published generation g000001" in out and current_generation(snap) == "g000001"
    # Publishing into the live index folder itself would make it a read-only snapshot.
    assert build_index.main(["--quiet", "--publish", str(tmp_path / "live")]) == 1
    assert "other than DOCS_AGENT_INDEX_DIR" in capsys.readouterr().err
