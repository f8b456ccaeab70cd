"""GitBook's configuration read (never run): `.gitbook.yaml` (Git Sync) or GitBook 3's `book.json`.

Git Sync (GitBook's documentation, "Content configuration"): `root` (the folder the space's
files are read from, every other path relative to it; default the repository's top),
`structure.readme` (the space's first page, default `README.md`), `structure.summary` (its
table of contents, default `SUMMARY.md`) and `redirects` (old path -> file). GitBook 3's
`book.json` has `root` and `structure` too (and `structure.langs`, default `LANGS.md`), and
`variables` its pages show as `{{ book.name }}`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.sources.yaml_config import read_yaml


@dataclass(frozen=True)
class SpaceConfig:
    """What decides the space's pages and addresses."""

    legacy: bool = False
    root: str = "."
    readme: str = "README.md"
    summary: str = "SUMMARY.md"
    langs: str = "LANGS.md"
    redirects: tuple[tuple[str, str], ...] = ()
    variables: tuple[tuple[str, str], ...] = ()


def _text(value: Any, default: str) -> str:
    return value.strip() if isinstance(value, str) and value.strip() else default


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        return ()
    return tuple((str(k), str(v)) for k, v in value.items() if isinstance(v, str | int | float))


def read_space_config(path: Path) -> SpaceConfig:
    """The config file as a `SpaceConfig`; a file that cannot be read raises (the registry warns)."""
    legacy = path.name == "book.json"
    data: dict[str, Any]
    if legacy:
        loaded = json.loads(path.read_text("utf-8", errors="replace"))
        data = loaded if isinstance(loaded, dict) else {}
    else:
        data = read_yaml(path)
    structure = data.get("structure")
    if not isinstance(structure, dict):
        structure = {}
    return SpaceConfig(
        legacy=legacy,
        root=_text(data.get("root"), "."),
        readme=_text(structure.get("readme"), "README.md"),
        summary=_text(structure.get("summary"), "SUMMARY.md"),
        langs=_text(structure.get("langs"), "LANGS.md"),
        redirects=_pairs(data.get("redirects")),
        variables=_pairs(data.get("variables")) if legacy else (),
    )
