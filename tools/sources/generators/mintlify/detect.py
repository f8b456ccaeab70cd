"""How a Mintlify site is recognised: `docs.json` (or the older `mint.json`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def config_files(folder: Path) -> Iterable[Path]:
    """The Mintlify config files of a folder."""
    return [folder / name for name in ("docs.json", "mint.json") if (folder / name).is_file()]
