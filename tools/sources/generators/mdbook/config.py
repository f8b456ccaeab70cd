"""`book.toml` read (never run) into what decides the book's pages, addresses and text.

mdBook 0.5's `mdbook-core/src/config.rs` gives the keys and their defaults: `[book] src`
(`src`), `title`, `language` (`en`); `[output.html] site-url`, `input-404` (`404.md`),
`smart-punctuation`, `definition-lists`, `admonitions` (all on), `[output.html.code.hidelines]`,
`[output.html.redirect]`; `[preprocessor.NAME]` adds a preprocessor to the built-in `links`
and `index` (the book's own programs, which an index cannot run: named in a warning).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Preprocessors mdBook runs itself (read here), and those that change no page's text in the
# book's default language (gettext translates only when another language is asked for).
BUILT_IN_PREPROCESSORS = frozenset({"links", "index"})
HARMLESS_PREPROCESSORS = frozenset({"gettext"})


@dataclass(frozen=True)
class BookConfig:
    """The `book.toml` values the index reads."""

    title: str = ""
    language: str = "en"
    src: str = "src"
    site_url: str = ""
    input_404: str = "404.md"
    smart_punctuation: bool = True
    definition_lists: bool = True
    admonitions: bool = True
    hidelines: tuple[tuple[str, str], ...] = ()
    redirects: tuple[tuple[str, str], ...] = ()
    # Preprocessors of the book that mdBook runs and an index cannot (the book's own programs).
    unread_preprocessors: tuple[str, ...] = ()


def _table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    """A nested table (`output.html.code`), {} when absent or not a table."""
    node: Any = data
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def _flag(table: dict[str, Any], key: str, default: bool, *old: str) -> bool:
    """A boolean option (or its older names), the default when unset or not a boolean."""
    for name in (key, *old):
        value = table.get(name)
        if isinstance(value, bool):
            return value
    return default


def read_book_config(path: Path) -> BookConfig:
    """`book.toml` as a `BookConfig`; a file TOML cannot read raises (the registry then warns)."""
    data = tomllib.loads(path.read_text("utf-8", errors="replace"))
    book = _table(data, "book")
    html = _table(data, "output", "html")
    hidelines = _table(html, "code", "hidelines")
    redirects = _table(html, "redirect")
    preprocessors = _table(data, "preprocessor")
    return BookConfig(
        title=str(book.get("title") or ""),
        language=str(book.get("language") or "en"),
        src=str(book.get("src") or "src"),
        site_url=str(html.get("site-url") or ""),
        input_404=str(html.get("input-404") or "404.md"),
        # mdBook 0.4 called it `curly-quotes`.
        smart_punctuation=_flag(html, "smart-punctuation", True, "curly-quotes"),
        definition_lists=_flag(html, "definition-lists", True),
        admonitions=_flag(html, "admonitions", True),
        hidelines=tuple((str(k), str(v)) for k, v in hidelines.items() if isinstance(v, str)),
        redirects=tuple((str(k), str(v)) for k, v in redirects.items() if isinstance(v, str)),
        unread_preprocessors=tuple(
            name
            for name in preprocessors
            if name not in BUILT_IN_PREPROCESSORS | HARMLESS_PREPROCESSORS
        ),
    )
