"""One changed page costs one page: the link priors are recounted only when links changed."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tools.search.storage import IndexStore
from tools.sources.corpus import FolderCorpus, UrlRule

PAGES = {
    "a.md": "# A\n\nSee [the b page](b.md) for more.\n",
    "b.md": "# B\n\nThe b page explains quokka settings.\n",
    "c.md": "# C\n\nAlso read [b again](b.md).\n",
}


def test_an_edit_that_keeps_the_links_keeps_the_priors_without_a_recount(
    tmp_path: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for rel, text in PAGES.items():
        (docs / rel).write_text(text)
    corpus = FolderCorpus(docs, "docs", index_dir, UrlRule())
    corpus.sync()
    before = corpus.index.priors()
    assert before["b.md"] == pytest.approx(math.log1p(2))
    anchors = corpus.index._store.db.execute("SELECT anchors FROM docs WHERE key='b.md'").fetchone()

    recounts: list[int] = []
    original = IndexStore._update_priors

    def counted(self: IndexStore) -> None:
        recounts.append(1)
        original(self)

    monkeypatch.setattr(IndexStore, "_update_priors", counted)
    (docs / "b.md").write_text("# B\n\nThe b page explains quokka limits and settings.\n")
    (docs / "c.md").write_text("# C\n\nAlso read [b again](b.md), twice.\n")
    assert corpus.sync().updated == 2
    assert recounts == [] and corpus.index.priors() == before
    again = corpus.index._store.db.execute("SELECT anchors FROM docs WHERE key='b.md'").fetchone()
    assert again == anchors
    assert corpus.search("quokka limits", 1)[0].key == "b.md"

    (docs / "c.md").write_text("# C\n\nNo link any more.\n")  # a link went: recount
    corpus.sync()
    assert recounts == [1] and corpus.index.priors()["b.md"] == pytest.approx(math.log1p(1))
    (docs / "d.md").write_text("# D\n\n[b](b.md)\n")  # a page came: recount
    corpus.sync()
    assert recounts == [1, 1] and corpus.index.priors()["b.md"] == pytest.approx(math.log1p(2))
