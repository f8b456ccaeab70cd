"""How Hugo is recognised: its built site names it, its source by its config beside `content/`.

Hugo writes `<meta name="generator" content="Hugo 0.111.3">` into the home page of every
language (unless `disableHugoGeneratorInject`), so a built folder says it was built with Hugo.
Its source is a folder with a Hugo config: `hugo.toml|yaml|json` (Hugo 0.110+), or
`config.toml|yaml|json` beside a `content/` folder that names Hugo's `baseURL` or a `theme`
(Zola also keeps a `config.toml` beside `content/`, with `base_url`), or `config/_default/`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tools.sources.html.built import site_generator

_HUGO_KEYS = re.compile(r"""^\s*["']?(baseurl|theme|languagecode)["']?\s*[=:]""", re.I | re.M)
_NAMES = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json")
_LEGACY = ("config.toml", "config.yaml", "config.yml", "config.json")


def is_hugo_build(root: Path) -> bool:
    """Whether the folder is a site Hugo built (its home page says so)."""
    return site_generator(root).lower().startswith("hugo")


def config_files(folder: Path) -> Iterable[Path]:
    """The Hugo config of a project folder (its `hugo.*`, `config.*` beside `content/`, or config dir)."""
    for name in _NAMES:
        if (folder / name).is_file():
            return [folder / name]
    for base in (folder, folder / "config" / "_default"):
        for name in (*_NAMES, *_LEGACY):
            path = base / name
            if not path.is_file() or (
                base == folder and name in _LEGACY and not _hugo_config(path)
            ):
                continue
            return [path]
    return []


def _hugo_config(path: Path) -> bool:
    """A `config.*` beside `content/` (or `layouts/`, `themes/`) with a key only Hugo uses."""
    folder = path.parent
    if not any((folder / d).is_dir() for d in ("content", "layouts", "themes", "archetypes")):
        return False
    try:
        return _HUGO_KEYS.search(path.read_text("utf-8", errors="replace")) is not None
    except OSError:
        return False
