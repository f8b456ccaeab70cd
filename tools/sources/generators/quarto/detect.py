"""How Quarto is recognised: its built pages name it, its project by `_quarto.yml`.

Quarto's HTML template writes `<meta name="generator" content="quarto-1.4.550">` and links its
own `site_libs/quarto-html/` scripts in every page's head.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tools.sources.html.built import home_pages, meta_generator


def is_quarto_build(root: Path) -> bool:
    """Whether the folder is a site Quarto rendered (its home page says so)."""
    for _, head in home_pages(root):
        if meta_generator(head).lower().startswith("quarto") or "quarto-html" in head:
            return True
    return False


def config_files(folder: Path) -> Iterable[Path]:
    """The Quarto project file of a folder (`_quarto.yml`)."""
    return [p for p in (folder / "_quarto.yml", folder / "_quarto.yaml") if p.is_file()][:1]
