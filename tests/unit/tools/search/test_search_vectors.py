"""The section vector store: compact, deduplicated, incremental, lexical first (a fake embedder)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.fixtures.fake_embedder import FakeEmbedder
from tools.build_index import wait_for_vectors
from tools.docs import create_docs_tools
from tools.search import Document
from tools.search.fusion import lexical_weight
from tools.search.records import Section  # where the records module takes it from
from tools.search.vectors import (
    INLINE_SECTIONS,
    VectorStore,
    _View,
    quantize,
    section_texts,
)
from tools.sources.corpus import FolderCorpus, UrlRule


def page(key: str, title: str, *sections: tuple[str, str]) -> Document:
    secs = [Section(title, 0, f"{title} intro.", "")]
    secs += [Section(h, 2, text, h.lower().replace(" ", "-")) for h, text in sections]
    return Document(key, f"https://d.example/{key}", title, "", "", secs, {})


PAGES = [
    page("stream.md", "Streaming", ("Stream tokens", "Stream tokens from subgraphs.")),
    page("limit.md", "Recursion", ("Recursion limit", "Limit the steps of a run.")),
    page("save.md", "Persistence", ("Checkpointers", "Save the state of each step.")),
]


class SlowEmbedder(FakeEmbedder):
    """Blocks each batch until `release` is set: a background build caught in the act."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.fail_after: int | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, Any]:
        if len(texts) > 50:  # a background build's batches, not one page's texts
            self.release.wait(30)
            if self.fail_after is not None and len(self.calls) >= self.fail_after:
                raise RuntimeError("encoder stopped")
        return super().embed(texts)


def test_int8_vectors_keep_the_cosine() -> None:
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((200, 512)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    codes, scale = quantize(vectors)
    assert codes.dtype == np.int8 and scale.dtype == np.float32
    back = codes.astype(np.float32) * scale[:, None]
    cosine = np.einsum("ij,ij->i", back, vectors) / np.linalg.norm(back, axis=1)
    assert cosine.min() > 0.99
    assert quantize(np.zeros((1, 4), np.float32))[0].tolist() == [[0, 0, 0, 0]]


def test_identical_texts_are_embedded_and_stored_once(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    store = VectorStore(tmp_path / "v.sqlite", embedder)
    twin = page("twin.md", "Streaming", ("Stream tokens", "Stream tokens from subgraphs."))
    stats = store.sync([PAGES[0], twin], [])
    assert (stats.pages, stats.embedded, stats.reused) == (2, 2, 0)
    assert embedder.embedded == 2 and store.slot_count() == 2 and len(store) == 4
    # Unchanged pages written again embed nothing.
    assert store.sync([PAGES[0]], []).embedded == 0 and embedder.embedded == 2
    # A text both pages hold stays while one of them does.
    store.sync([], ["twin.md"])
    assert store.keys() == {"stream.md"}
    sim = store.similarity("stream tokens")
    assert sim is not None and sim.evidence("stream.md") > 0 and sim.evidence("twin.md") == 0


def test_removed_texts_free_their_slots_and_files_stay_compact(tmp_path: Path) -> None:
    store = VectorStore(tmp_path / "v.sqlite", FakeEmbedder())
    store.sync(PAGES, [])
    store.sync([], ["limit.md"])
    live = store._db.execute("SELECT count(*) FROM texts").fetchone()[0]
    assert live == 4 and store.slot_count() == 6  # 2 dead slots, never rewritten
    sizes = {p.suffix: p.stat().st_size for p in store.files() if p.suffix in {".i8", ".scale"}}
    assert sizes == {".i8": 6 * 64, ".scale": 6 * 4}  # int8: dim bytes a vector
    assert not Path(f"{store.path}-wal").exists() or Path(f"{store.path}-wal").stat().st_size == 0


def test_a_changed_page_reaches_a_reader_without_a_reload(tmp_path: Path) -> None:
    """Another process's server follows a sync row by row (issue 34: 30 s reloads at 20k)."""
    path = tmp_path / "v.sqlite"
    writer = VectorStore(path, FakeEmbedder())
    writer.sync(PAGES, [])
    reader = VectorStore(path, FakeEmbedder())
    reader.load()
    view = reader._view
    assert view is not None and view.pages == 3
    applied: list[int] = []
    original = _View.apply

    def spy(self: _View, rows: Any, dropped: Any, version: int) -> None:
        rows = list(rows)
        applied.append(len(rows))
        original(self, rows, dropped, version)

    _View.apply = spy  # type: ignore[method-assign]
    try:
        changed = page("limit.md", "Recursion", ("Recursion limit", "Stop after max steps."))
        writer.sync([changed], [])
        sim = reader.similarity("max steps")
    finally:
        _View.apply = original  # type: ignore[method-assign]
    assert reader._view is view and applied == [1]  # one row read, the view kept
    assert sim is not None and sim.top(1) == ["limit.md"]
    writer.sync([], ["save.md"])
    assert reader.similarity("state checkpointers") is not None
    assert reader._view is view and view.pages == 2 and "save.md" not in view.row_of


def test_the_coarse_step_keeps_the_lexical_candidates_exact(tmp_path: Path) -> None:
    store = VectorStore(tmp_path / "v.sqlite", FakeEmbedder())
    store.sync(PAGES, [])
    exact = store.similarity("limit the steps", ["save.md"])
    store.coarse_pages = 1  # only the best page by its mean vector, and the candidates asked for
    narrow = store.similarity("limit the steps", ["save.md"])
    assert exact is not None and narrow is not None
    assert set(narrow.best) == {"limit.md", "save.md"}
    for key in narrow.best:
        assert narrow.evidence(key) == pytest.approx(exact.evidence(key))
    assert narrow.background == pytest.approx(exact.background)
    assert narrow.section("limit.md") == 1  # the "Recursion limit" section


def test_the_background_mean_matches_every_section(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    store = VectorStore(tmp_path / "v.sqlite", embedder)
    store.sync(PAGES, [])
    store.sync([], ["save.md"])
    texts = [t.text for doc in PAGES[:2] for t in section_texts(doc)]
    query = embedder.vector("steps of a run")
    want = float(np.mean([embedder.vector(t) @ query for t in texts]))
    sim = store.similarity("steps of a run")
    assert sim is not None and sim.background == pytest.approx(want, abs=0.02)


def big_folder(root: Path, pages: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for n in range(pages):
        word = "quux" + "".join(chr(97 + int(d)) for d in f"{n:03d}")  # a word per page
        (root / f"p{n:03d}.md").write_text(
            f"# Page {word}\n\n## Stream tokens {word}\n\nStream tokens from {word}.\n\n"
            f"## Limit steps {word}\n\nLimit the steps of {word}.\n"
        )


def test_lexical_first_then_vectors_fill_in_behind(tmp_path: Path, index_dir: Path) -> None:
    """A large sync returns with the lexical index; the vectors follow in a thread of their own."""
    pages = INLINE_SECTIONS // 3 + 20
    big_folder(tmp_path / "docs", pages)
    embedder = SlowEmbedder()
    corpus = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=embedder)
    assert corpus.vectors is not None
    corpus.vectors.background = True
    stats = corpus.sync()
    assert stats.added == pages
    assert corpus.vectors.warming()
    # The lexical side answers now; a foreign query is served from it while vectors warm.
    assert corpus.search("stream tokens quuxaah", 1)[0].key == "p007.md"
    weak = corpus.search("Jak przesyłać strumieniowo tokeny?", 3)
    assert lexical_weight(weak) is not None
    assert not corpus.vectors.wait(timeout=0.05)
    search_docs = create_docs_tools(corpus)[0]
    out = search_docs.invoke(
        {"query": "Jak przesyłać strumieniowo tokeny?", "feedback_to_user": ""}
    )
    assert "still warming up (0 of" in out  # the tool tells the model, in one line
    out = search_docs.invoke({"query": "stream tokens quuxaah", "feedback_to_user": ""})
    assert "warming" not in out  # a confident ranking never needed the vectors
    embedder.release.set()
    bars: list[tuple[int, int]] = []
    sources: Any = type("S", (), {"docs": corpus, "kb": None})()
    wait_for_vectors(sources, lambda name: lambda done, total: bars.append((done, total)))
    assert not corpus.vectors.warming() and corpus.vectors.page_count() == pages
    assert bars[-1] == (pages, pages)
    assert corpus.search("Jak przesyłać strumieniowo tokeny?", 3)
    out = search_docs.invoke(
        {"query": "Jak przesyłać strumieniowo tokeny?", "feedback_to_user": ""}
    )
    assert "warming" not in out


def test_a_stopped_background_build_resumes_where_it_stopped(
    tmp_path: Path, index_dir: Path
) -> None:
    pages = INLINE_SECTIONS // 3 + 200
    big_folder(tmp_path / "docs", pages)
    embedder = SlowEmbedder()
    embedder.release.set()
    embedder.fail_after = 2  # two batches in, the encoder fails
    corpus = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=embedder)
    assert corpus.vectors is not None
    corpus.vectors.background = True
    corpus.sync()
    assert corpus.vectors.wait(timeout=30)
    assert "encoder stopped" in corpus.vectors.failure
    done = corpus.vectors.page_count()
    assert 0 < done < pages
    first = embedder.embedded
    again = FakeEmbedder()
    reopened = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=again)
    reopened.sync()
    assert reopened.vectors is not None and reopened.vectors.page_count() == pages
    # Only what was not stored is embedded: together exactly one build's (distinct) texts.
    assert first + again.embedded == len(reopened.vectors) == reopened.vectors.slot_count()


def test_a_page_changed_during_a_background_build_is_not_overwritten(
    tmp_path: Path, index_dir: Path
) -> None:
    """A server's one changed page waits for no batch, and the build does not put it back."""
    pages = INLINE_SECTIONS // 3 + 20
    big_folder(tmp_path / "docs", pages)
    embedder = SlowEmbedder()
    embedder.release.set()
    corpus = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=embedder)
    assert corpus.vectors is not None
    corpus.vectors.background = True
    corpus.sync()
    assert corpus.vectors.wait(timeout=60)
    # A release edits every page: a background build, held in its first batch.
    embedder.release.clear()
    for path in sorted((tmp_path / "docs").iterdir()):
        path.write_text(path.read_text().replace("# Page", "# Release page"))  # every text
    corpus.sync()
    assert corpus.vectors.warming()
    key = "p000.md"  # in the batch the build holds, read before this change
    (tmp_path / "docs" / key).write_text(
        "# Zorblat\n\n## Zorblat caching\n\nCache zorblat answers.\n"
    )
    done = threading.Event()

    def change() -> None:
        corpus.sync()
        done.set()

    threading.Thread(target=change, daemon=True).start()
    assert done.wait(30)  # while the build's first batch is still held

    def heading() -> Any:
        assert corpus.vectors is not None
        return corpus.vectors._db.execute(
            "SELECT heading FROM secs WHERE page=? AND ord=1", (key,)
        ).fetchone()

    assert corpus.vectors.warming() and heading() == ("Zorblat caching",)
    embedder.release.set()
    assert corpus.vectors.wait(timeout=60) and not corpus.vectors.failure
    assert heading() == ("Zorblat caching",)  # the build's older copy was not written
    sim = corpus.vectors.similarity("zorblat caching", [key])
    assert sim is not None and sim.section(key) == 1
