"""An mdBook book as a whole: detection, SUMMARY.md as the page list, book.toml's keys, what is said aloud."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.unit.tools.sources.generators.golden_facts import indexed
from tools.sources.corpus import UrlRule
from tools.sources.generators.mdbook.summary import Chapter, parse_summary
from tools.sources.registry import detect_generator, detect_site

SUMMARY = """# Summary

[Preface](./preface.md)

<!-- [Commented](commented.md) -->

# Part one

- [`init` command](cli/init.md) and [a second link](ignored.md)
    - [**Nested** chapter](cli/nested%20name.md)
        - [Draft]()
* [Starred](starred.md)

```markdown
- [In code](code.md)
```

---

# Part two

1. [Numbered](numbered.md)

[Appendix](appendix.md)
"""


def test_summary_lists_every_chapter_in_order() -> None:
    assert parse_summary(SUMMARY) == [
        Chapter("preface.md", "Preface"),
        Chapter("cli/init.md", "init command"),
        Chapter("cli/nested name.md", "Nested chapter"),
        Chapter(None, "Draft"),
        Chapter("starred.md", "Starred"),
        Chapter("numbered.md", "Numbered"),
        Chapter("appendix.md", "Appendix"),
    ]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


BOOK = {
    "book.toml": '[book]\ntitle = "T"\nsrc = "pages"\nlanguage = "de"\n\n'
    '[output.html]\nsite-url = "/t/"\ninput-404 = "missing.md"\n\n'
    '[output.html.redirect]\n"/old.html" = "new.html"\n\n'
    '[preprocessor.mermaid]\ncommand = "mdbook-mermaid"\n',
    "pages/SUMMARY.md": "[Intro](README.md)\n\n- [New](new.md)\n- [Docs](docs/readme.md)\n",
    "pages/README.md": "# Intro\n",
    "pages/new.md": "# New\n",
    "pages/docs/readme.md": "# Docs\n",
    "pages/missing.md": "# Not found\n",
    "pages/orphan.md": "# Not in the summary\n",
    "README.md": "# The repository's readme, outside src\n",
}


def test_the_book_folder_or_its_src(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = _write(tmp_path / "book", BOOK)
    assert detect_generator(root)[0] == "mdbook"
    assert detect_generator(root / "pages")[0] == "mdbook"  # book.toml in the folder above
    with caplog.at_level(logging.WARNING):
        site = detect_site(root)
    assert "mermaid" in caplog.text  # a preprocessor the index cannot run is named
    assert site.rules.language == "de"  # type: ignore[attr-defined]
    assert site.rules.redirects == (("/old.html", "new.html"),)  # type: ignore[attr-defined]
    pages = indexed(root, tmp_path / "i1")
    assert {rel: p.url for rel, p in pages.items()} == {
        "pages/README.md": "/t/index.html",
        "pages/new.md": "/t/new.html",
        # mdBook's rule is any case of README; the shared `.html` addresses know README only.
        "pages/docs/readme.md": "/t/docs/readme.html",
    }
    assert "/t/old.html" not in {p.url for p in pages.values()}
    src = indexed(root / "pages", tmp_path / "i2", UrlRule("https://example.org/t/"))
    assert src["README.md"].url == "https://example.org/t/index.html"
    assert src["new.md"].doc.title == "New"


def test_navigation_off_still_leaves_out_summary_and_404(tmp_path: Path) -> None:
    from tools.sources.corpus import FolderCorpus
    from tools.sources.registry import SiteOptions

    root = _write(tmp_path / "book", BOOK)
    site = detect_site(root, SiteOptions(nav="off"))
    corpus = FolderCorpus(root, "docs", tmp_path / "i", UrlRule(), site=site)
    corpus.files()
    assert sorted(corpus.pages.paths.values()) == [
        "pages/README.md",
        "pages/docs/readme.md",
        "pages/new.md",
        "pages/orphan.md",
    ]


def test_a_book_without_summary_is_said_and_read_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _write(tmp_path / "book", {"book.toml": "[book]\n", "src/a.md": "# A\n"})
    with caplog.at_level(logging.WARNING):
        pages = indexed(root, tmp_path / "i")
    assert "no SUMMARY.md" in caplog.text
    assert list(pages) == ["src/a.md"]


def test_a_broken_book_toml_falls_back_to_mdbooks_defaults(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _write(tmp_path / "book", {"book.toml": "[book\n", "src/a.md": "# A\n"})
    with caplog.at_level(logging.WARNING):
        site = detect_site(root)
    assert site.generator == "mdbook"
    assert "could not read" in caplog.text


def test_a_missing_include_is_dropped_and_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = _write(
        tmp_path / "book",
        {
            "book.toml": "[book]\n",
            "src/SUMMARY.md": "- [A](a.md)\n",
            "src/a.md": "# A\n\n```rust\n{{#include gone.rs}}\n```\n\nText after.\n",
        },
    )
    (root / ".git").mkdir()
    with caplog.at_level(logging.WARNING):
        page = indexed(root, tmp_path / "i")["src/a.md"]
    assert "{{#include" not in page.doc.sections[0].text
    assert "Text after." in page.doc.sections[0].text
    assert "src/a.md: {{#include gone.rs}}: no such file" in caplog.text
