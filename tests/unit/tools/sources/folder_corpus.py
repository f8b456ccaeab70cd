"""A folder corpus built in the test's process, and its pages by key: the fixture sites' tests."""

from __future__ import annotations

from pathlib import Path

from tools.search import Document
from tools.sources.corpus import FolderCorpus, UrlRule


def synced(root: Path, index_dir: Path, rule: UrlRule | None = None) -> FolderCorpus:
    """The folder indexed (no worker processes: a unit test stays in one process)."""
    corpus = FolderCorpus(root, "docs", index_dir, rule or UrlRule())
    corpus.sync(workers=1)
    return corpus


def doc(corpus: FolderCorpus, key: str) -> Document:
    """The page at `key`, which the test expects to be indexed."""
    found = corpus.get(key)
    assert found is not None, key
    return found
