"""How a GitBook space is recognised: `.gitbook.yaml` (Git Sync), a legacy `book.json`, or its layout.

A GitBook repository keeps `.gitbook.yaml` at its top and the docs in its `root:` (`./docs/`),
so the docs folder's parent is looked at too (the registry does). A book of GitBook 3
(gitbook-cli) has a `book.json` beside its `SUMMARY.md` or `LANGS.md`. Without either, a folder
holding both `SUMMARY.md` and `README.md` is laid out as GitBook lays out a space.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

# Keys only GitBook 3's book.json has (a `book.json` of another tool names none of them).
_LEGACY_KEYS = frozenset({"gitbook", "plugins", "pluginsConfig", "structure", "root"})


def is_legacy_book_json(path: Path) -> bool:
    """Whether `book.json` is GitBook 3's: its keys, and a SUMMARY.md or LANGS.md in the book's root."""
    try:
        data = json.loads(path.read_text("utf-8", errors="replace"))
    except (OSError, ValueError):
        return False
    if not isinstance(data, dict) or not _LEGACY_KEYS & set(data):
        return False
    root = path.parent / str(data.get("root") or ".")
    return any((root / name).is_file() for name in ("SUMMARY.md", "LANGS.md"))


def config_files(folder: Path) -> Iterable[Path]:
    """The folder's `.gitbook.yaml`, else its GitBook 3 `book.json`."""
    modern = folder / ".gitbook.yaml"
    if modern.is_file():
        return [modern]
    legacy = folder / "book.json"
    return [legacy] if legacy.is_file() and is_legacy_book_json(legacy) else []


def looks_like_a_space(root: Path) -> bool:
    """A folder with `SUMMARY.md` and `README.md` and no config: GitBook's own layout."""
    return (root / "SUMMARY.md").is_file() and (root / "README.md").is_file()
