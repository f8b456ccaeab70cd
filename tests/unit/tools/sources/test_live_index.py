"""An index rebuilt by another process (or thread) is read whole, never half, and without a restart."""

from __future__ import annotations

import threading
from pathlib import Path

from tools.search import SearchIndex
from tools.sources.corpus import FolderCorpus, UrlRule


def _pages(root: Path, n: int, word: str, start: int = 0) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(start, start + n):
        (root / f"p{i}.md").write_text(
            f"# Page {i}\n\n## Part one\n\n{word} text number {i}.\n\n## Part two\n\nMore {word}.\n"
        )


def test_a_server_index_follows_a_rebuild_by_another_process(tmp_path: Path) -> None:
    """The running server's index object and `make index`'s are two connections to one file."""
    root = tmp_path / "docs"
    _pages(root, 3, "alpha")
    server = FolderCorpus(root, "docs", tmp_path / "index", UrlRule("https://d.example"))
    assert server.search("alpha", 5)  # statistics loaded, as in a warm server
    _pages(root, 40, "omega", start=3)  # the site grows; `make index` runs beside the server
    builder = FolderCorpus(root, "docs", tmp_path / "index", UrlRule("https://d.example"))
    stats = builder.sync()
    assert stats.added == 40
    # Before: IndexError (the server's arrays were sized for the old sections) until restart.
    hits = server.search("omega", 5)
    assert hits and all(h.title.startswith("Page ") for h in hits)
    assert len(server.index) == 43
    assert server.search("alpha", 5)


def test_searches_during_a_sync_read_the_index_as_it_was(tmp_path: Path) -> None:
    """A sync writes on its own connection: a search meanwhile sees the old index whole."""
    root = tmp_path / "docs"
    _pages(root, 5, "alpha")
    corpus = FolderCorpus(root, "docs", tmp_path / "index", UrlRule("https://d.example"))
    before = [h.key for h in corpus.search("alpha", 10)]
    _pages(root, 5, "alpha beta", start=5)
    seen: list[tuple[int, list[str]]] = []
    index: SearchIndex = corpus.index
    parse = corpus.pages.parse

    def parse_and_search(key: str, raw: bytes):  # type: ignore[no-untyped-def]
        # Mid-sync, from another thread (a user's question): not blocked, not half-written.
        out: list[tuple[int, list[str]]] = []
        t = threading.Thread(
            target=lambda: out.append((len(index), [h.key for h in index.search("alpha", 10)]))
        )
        t.start()
        t.join(30)
        seen.extend(out)
        return parse(key, raw)

    corpus.pages.parse = parse_and_search  # type: ignore[method-assign]
    corpus.sync(workers=1)
    assert seen and all(n == 5 and keys == before for n, keys in seen)
    assert len(index) == 10


def test_two_builders_of_one_index_take_turns(tmp_path: Path) -> None:
    """`make index` beside a server's refresh: both finish, the index holds each page once."""
    root = tmp_path / "docs"
    _pages(root, 30, "gamma")
    a = FolderCorpus(root, "docs", tmp_path / "index", UrlRule("https://d.example"))
    b = FolderCorpus(root, "docs", tmp_path / "index", UrlRule("https://d.example"))
    errors: list[BaseException] = []

    def build(corpus: FolderCorpus) -> None:
        try:
            corpus.sync(workers=1)
        except BaseException as exc:  # noqa: BLE001 — reported by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(c,)) for c in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert len(a.index) == 30 and len(b.index) == 30
    assert len(a.search("gamma", 50)) == 30
