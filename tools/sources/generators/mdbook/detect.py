"""How an mdBook book is recognised: its `book.toml`, in the docs folder or the folder above it (`src/`'s)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def config_files(folder: Path) -> Iterable[Path]:
    """The folder's `book.toml`, when it has one."""
    path = folder / "book.toml"
    return [path] if path.is_file() else []
