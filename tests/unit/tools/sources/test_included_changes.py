"""A page is read again when a file it shows changes: includes, snippets, MDX imports."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.unit.tools.sources.folder_corpus import doc, synced
from tools.sources.corpus import FolderCorpus


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
