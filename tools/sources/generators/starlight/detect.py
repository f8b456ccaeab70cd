"""How a Starlight site is recognised: an `astro.config.*` that uses `@astrojs/starlight`.

The docs folder given is the Astro project (its `src/content/docs/` holds the pages), or that
content folder itself, whose project is then three folders up (`config_elsewhere`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

CONFIG_NAMES = tuple(f"astro.config.{ext}" for ext in ("mjs", "ts", "mts", "js", "cjs", "cts"))
STARLIGHT = "@astrojs/starlight"
# How far above the docs folder the project may be (`src/content/docs` → the project).
_UP = 4


def _starlight_config(folder: Path) -> Path | None:
    """The folder's Astro config when it uses Starlight."""
    for name in CONFIG_NAMES:
        path = folder / name
        if path.is_file():
            try:
                text = path.read_text("utf-8", errors="replace")
            except OSError:
                return None
            return path if STARLIGHT in text else None
    return None


def config_files(folder: Path) -> Iterable[Path]:
    """The Starlight site's Astro config of a folder, if it has one."""
    found = _starlight_config(folder)
    return (found,) if found is not None else ()


def config_elsewhere(root: Path) -> Iterator[Path]:
    """The config of the project whose content folder the docs folder is (`src/content/docs`)."""
    folder = root
    for _ in range(_UP):
        if folder.parent == folder or (folder / ".git").exists():
            return
        folder = folder.parent
        found = _starlight_config(folder)
        if found is not None:
            yield found
            return
