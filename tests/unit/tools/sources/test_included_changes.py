"""A page is read again when a file it shows changes: includes, snippets, MDX imports."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.unit.tools.sources.folder_corpus import doc, synced
from tools.sources.corpus import FolderCorpus, UrlRule


def _touch_later(path: Path, text: str) -> None:
    """Rewrite a file with a later mtime (a sync compares mtime and size)."""
    before = path.stat().st_mtime
    path.write_text(text)
    os.utime(path, (before + 5, before + 5))


def _text(corpus: FolderCorpus, key: str) -> str:
    return "\n".join(s.text for s in doc(corpus, key).sections)


def _mkdocs(root: Path) -> tuple[Path, Path]:
    root.mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: X\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path: [docs]\n"
    )
    docs = root / "docs"
    docs.mkdir()
    (docs / "index.md").write_text('# Home\n\n--8<-- "part.txt"\n')
    part = docs / "part.txt"
    part.write_text("The first wording of the shared part.\n")
    return docs, part


def _sphinx(root: Path) -> tuple[Path, Path]:
    root.mkdir(exist_ok=True)
    (root / "conf.py").write_text("project = 'x'\n")
    (root / "index.rst").write_text("Home\n====\n\n.. include:: _part.rst\n")
    part = root / "_part.rst"
    part.write_text("The first wording of the shared part.\n")
    return root, part


def _mdx(root: Path) -> tuple[Path, Path]:
    root.mkdir(exist_ok=True)
    (root / "snippets").mkdir()
    (root / "index.mdx").write_text(
        "---\ntitle: Home\n---\nimport Part from '/snippets/part.mdx';\n\n<Part />\n"
    )
    part = root / "snippets" / "part.mdx"
    part.write_text("The first wording of the shared part.\n")
    return root, part


@pytest.mark.parametrize("make", [_mkdocs, _sphinx, _mdx], ids=["mkdocs", "sphinx", "mdx"])
def test_a_changed_included_file_reads_its_page_again_and_nothing_else(
    tmp_path: Path, make: Callable[[Path], tuple[Path, Path]]
) -> None:
    docs, part = make(tmp_path / "site")
    index_key = next(p.name for p in docs.iterdir() if p.name.startswith("index."))
    corpus = synced(docs, tmp_path / "index")
    assert "first wording" in _text(corpus, index_key)
    assert corpus.sync(workers=1).updated == 0  # nothing changed: nothing read again
    _touch_later(part, "The second wording of the shared part.\n")
    stats = corpus.sync(workers=1)
    assert stats.updated == 1
    assert "second wording" in _text(corpus, index_key)
    assert corpus.search("second wording shared part", 1)[0].key == index_key
    part.unlink()  # gone: the page is read again and shows it no more
    assert corpus.sync(workers=1).updated == 1
    assert "wording" not in _text(corpus, index_key)
    assert corpus.sync(workers=1).updated == 0
    part.write_text("The third wording, back again.\n")  # appears where the page looks for it
    assert corpus.sync(workers=1).updated == 1
    assert "third wording" in _text(corpus, index_key)


def _linked_sphinx(root: Path) -> Path:
    """A Sphinx site whose `guide` page shows the title of a section on `setup` by reference."""
    root.mkdir()
    (root / "conf.py").write_text("project = 'x'\n")
    (root / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   setup\n   guide\n   other\n")
    (root / "setup.rst").write_text(
        "Setup\n=====\n\n.. _first-run:\n\nThe first run\n-------------\n\nRun it once.\n"
    )
    (root / "guide.rst").write_text(
        "Guide\n=====\n\nBefore anything, read :ref:`first-run`; later :ref:`tuning`.\n"
    )
    (root / "other.rst").write_text("Other\n=====\n\nNothing links here.\n")
    return root


def test_a_page_showing_another_pages_title_by_reference_is_read_again_when_that_title_changes(
    tmp_path: Path,
) -> None:
    # A bare `:ref:` shows the title of the section it names, which lives on another page; each
    # process scans the site's targets anew (a restarted server, `make index`), so the page that
    # shows the old title must be read again, though its own file did not change.
    root = _linked_sphinx(tmp_path / "site")
    index = tmp_path / "index"
    assert "The first run" in _text(synced(root, index), "guide.rst")
    assert synced(root, index).sync(workers=1).updated == 0  # nothing changed: nothing read

    _touch_later(
        root / "setup.rst",
        "Setup\n=====\n\n.. _first-run:\n\nYour first run\n--------------\n\nRun it once.\n",
    )
    corpus = FolderCorpus(root, "docs", index, UrlRule())
    assert corpus.sync(workers=1).updated == 2  # the page that changed, and the one showing it
    assert "Your first run" in _text(corpus, "guide.rst")
    assert "The first run" not in _text(corpus, "guide.rst")

    # A reference to a label that did not exist shows as text; once the label exists it links.
    assert "(setup.html#tuning)" not in _text(corpus, "guide.rst")
    _touch_later(root / "other.rst", "Other\n=====\n\n.. _tuning:\n\nTuning\n------\n\nFast.\n")
    corpus = FolderCorpus(root, "docs", index, UrlRule())
    assert corpus.sync(workers=1).updated == 2
    assert "[Tuning](other.html#tuning)" in _text(corpus, "guide.rst")

    # A change no reference looked up reads only its own page.
    _touch_later(root / "other.rst", "Other\n=====\n\n.. _tuning:\n\nTuning\n------\n\nFaster.\n")
    assert FolderCorpus(root, "docs", index, UrlRule()).sync(workers=1).updated == 1
