"""How an MkDocs site is recognised: `mkdocs.yml` (or `.yaml`) in the docs folder or beside it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def config_files(folder: Path) -> Iterable[Path]:
    """The MkDocs config files of a folder."""
    return [folder / name for name in ("mkdocs.yml", "mkdocs.yaml") if (folder / name).is_file()]
