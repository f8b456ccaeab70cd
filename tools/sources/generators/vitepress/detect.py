"""How a VitePress site is recognised: `.vitepress/config.{js,ts,mjs,mts,cjs,cts}` (or `config/index.*`).

The config lives in the VitePress project's folder (`docs/.vitepress/config.ts`); the docs folder
given is that folder, or its `srcDir` (`docs/src`), whose config is then one folder up (the
registry looks in the folder and the one above it).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

CONFIG_NAMES = tuple(f"config.{ext}" for ext in ("ts", "mts", "js", "mjs", "cts", "cjs"))


def config_files(folder: Path) -> Iterable[Path]:
    """The VitePress config of a folder, if it has one (`.vitepress/config/index.ts` too)."""
    for name in CONFIG_NAMES:
        for path in (
            folder / ".vitepress" / "config" / name.replace("config.", "index."),
            folder / ".vitepress" / name,
        ):
            if path.is_file():
                return (path,)
    return ()
