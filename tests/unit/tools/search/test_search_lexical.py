"""The lexical engine (tantivy) beside the SQLite rows: incremental updates and one generation.

A sync replaces only a changed page's engine documents (deleted by page key, added again) in a
new generation that shares every other segment file with the last; the SQLite snapshot a
search reads names the generation it ranks with, so ids never come from another build.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tools.search import SearchIndex
from tools.search import storage as search_storage
from tools.search.lexical import generation_dir
from tools.search.storage import SCHEMA_VERSION, lexical_root
from tools.sources.corpus import FolderCorpus, UrlRule


def _pages(root: Path, n: int, word: str, start: int = 0) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(start, start + n):
        (root / f"p{i}.md").write_text(
            f"# Page {i}\n\n## Part one\n\n{word} text number {i}.\n\n## Part two\n\nMore {word}.\n"
        )


def _corpus(tmp_path: Path) -> FolderCorpus:
    return FolderCorpus(tmp_path / "docs", "docs", tmp_path / "index", UrlRule("https://d.example"))


def _generation(index: SearchIndex) -> int:
    db = sqlite3.connect(index.db_path)
    try:
        return int(
            db.execute("SELECT value FROM meta WHERE name='lexical_generation'").fetchone()[0]
        )
    finally:
        db.close()


def _inodes(path: Path) -> dict[str, int]:
    return {p.name: p.stat().st_ino for p in path.iterdir() if p.suffix not in (".json", ".lock")}


def test_one_changed_page_replaces_only_its_own_documents(tmp_path: Path) -> None:
    _pages(tmp_path / "docs", 20, "alpha")
    corpus = _corpus(tmp_path)
    corpus.sync()
    index: SearchIndex = corpus.index
    root = lexical_root(index.db_path)
    before = _generation(index)
    old_files = _inodes(generation_dir(root, before) / "sections")
    scores = {h.key: h.score for h in corpus.search("alpha", 30)}
    (tmp_path / "docs" / "p3.md").write_text("# Page 3\n\nNow about zebra crossings.\n")
    stats = corpus.sync()
    assert (stats.updated, stats.added, stats.removed) == (1, 0, 0)
    after = _generation(index)
    assert after == before + 1
    new_files = _inodes(generation_dir(root, after) / "sections")
    # The other pages' segment files are the same files (hard links), not a rewrite.
    shared = old_files.keys() & new_files.keys()
    assert shared and all(old_files[n] == new_files[n] for n in shared)
    assert [h.key for h in corpus.search("zebra", 5)] == ["p3.md"]
    now = {h.key: h.score for h in corpus.search("alpha", 30)}
    assert "p3.md" not in now and set(now) == set(scores) - {"p3.md"}
    # Two generations are kept (a reader may still open the one before), older ones removed.
    (tmp_path / "docs" / "p4.md").unlink()
    corpus.sync()
    assert sorted(p.name for p in root.iterdir()) == [
        generation_dir(root, g).name for g in (after, after + 1)
    ]


def test_a_failed_sync_publishes_no_generation_and_the_next_one_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pages(tmp_path / "docs", 5, "alpha")
    corpus = _corpus(tmp_path)
    corpus.sync()
    index: SearchIndex = corpus.index
    generation = _generation(index)
    _pages(tmp_path / "docs", 5, "omega", start=5)

    def fail(self: search_storage.IndexStore) -> None:
        raise RuntimeError("disk full")

    # After the engine's commit, before SQLite's: the worst place for a writer to die.
    monkeypatch.setattr(search_storage.IndexStore, "_update_priors", fail)
    with pytest.raises(RuntimeError):
        corpus.sync()
    assert _generation(index) == generation
    assert not generation_dir(lexical_root(index.db_path), generation + 1).exists()
    assert corpus.search("omega", 5) == [] and len(corpus.search("alpha", 10)) == 5
    monkeypatch.undo()
    assert corpus.sync().added == 5
    assert len(corpus.search("omega", 10)) == 5


def test_a_reader_follows_the_generation_its_snapshot_names(tmp_path: Path) -> None:
    """Every page replaced by another process: new section ids, read with the new rows only."""
    _pages(tmp_path / "docs", 6, "alpha")
    server = _corpus(tmp_path)
    server.sync()
    assert len(server.search("alpha", 10)) == 6
    for p in (tmp_path / "docs").iterdir():
        p.unlink()
    _pages(tmp_path / "docs", 9, "omega", start=100)
    builder = _corpus(tmp_path)
    assert builder.sync().added == 9
    hits = server.search("omega", 20)
    assert sorted(h.key for h in hits) == sorted(f"p{i}.md" for i in range(100, 109))
    assert all(h.section in ("Part one", "Part two") for h in hits)
    assert server.search("alpha", 10) == []


def test_a_missing_generation_answers_nothing_then_a_sync_rebuilds_it(tmp_path: Path) -> None:
    import shutil

    _pages(tmp_path / "docs", 4, "alpha")
    corpus = _corpus(tmp_path)
    corpus.sync()
    shutil.rmtree(lexical_root(corpus.index.db_path))
    # No exception and no other generation's ids: nothing, until the next sync.
    assert SearchIndex(corpus.index.db_path).search("alpha", 5) == []
    reopened = _corpus(tmp_path)
    assert reopened.sync().added == 4
    assert len(reopened.search("alpha", 5)) == 4


def test_a_generation_of_other_fields_is_indexed_again(tmp_path: Path) -> None:
    import shutil

    import tantivy

    _pages(tmp_path / "docs", 4, "alpha")
    corpus = _corpus(tmp_path)
    corpus.sync()
    index: SearchIndex = corpus.index
    generation = generation_dir(lexical_root(index.db_path), _generation(index))
    for kind in ("sections", "titles"):  # as an older build of the engine would have left it
        shutil.rmtree(generation / kind)
        (generation / kind).mkdir()
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("body")
        writer = tantivy.Index(builder.build(), path=str(generation / kind)).writer()
        writer.commit()
        writer.wait_merging_threads()
    assert SearchIndex(index.db_path).search("alpha", 5) == []  # unreadable: nothing, no error
    (tmp_path / "docs" / "p9.md").write_text("# Nine\n\nalpha again.\n")
    assert _corpus(tmp_path).sync().added == 5  # every page again, the new one too
    assert len(SearchIndex(index.db_path).search("alpha", 10)) == 5


def test_an_index_of_an_older_schema_is_rebuilt_when_opened(tmp_path: Path) -> None:
    _pages(tmp_path / "docs", 3, "alpha")
    corpus = _corpus(tmp_path)
    corpus.sync()
    db = sqlite3.connect(corpus.index.db_path)
    db.execute("CREATE TABLE post (term TEXT PRIMARY KEY, sec BLOB, title BLOB)")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION - 1}")
    db.commit()
    db.close()
    opened = SearchIndex(corpus.index.db_path)
    assert len(opened) == 0 and opened.search("alpha", 5) == []
    reopened = _corpus(tmp_path)
    assert reopened.sync().added == 3
    assert len(reopened.search("alpha", 5)) == 3
    db = sqlite3.connect(reopened.index.db_path)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    assert "post" not in tables and "meta" in tables
