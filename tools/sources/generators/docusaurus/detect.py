"""How a Docusaurus site is recognised: its config in the docs folder or above it, in a site folder beside the docs.

Docusaurus reads its docs from the docs plugin's `path`, so the site that builds a docs folder may
live elsewhere in the repository (`website/` beside `docs/`), and a released version's folder
(`versioned_docs/version-X`) belongs to the site two folders up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

# The docs plugin's `path` option (Docusaurus: the docs folder, relative to the site's folder).
_DOCS_PATH_RE = re.compile(r"\bpath\s*:\s*(['\"`])([^'\"`]+)\1")


# How far up from the docs folder, and how deep below each folder on the way, a Docusaurus
# site that reads them may lie (`website/` beside `docs/`, `packages/website/` of a monorepo).
_DOCUSAURUS_UP = 3
_DOCUSAURUS_DOWN = ("*/docusaurus.config.*", "*/*/docusaurus.config.*")


def sibling_docusaurus_configs(root: Path) -> Iterator[Path]:
    """A Docusaurus config elsewhere in the repository whose docs plugin `path` names this folder.

    Docusaurus reads its docs from `path` relative to the site's folder, so a repository may keep
    the docs at its top (`docs/`) and the site beside them (`website/`, `path: '../docs'`) or
    deeper (`packages/website/`, `path: '../../docs'`). The nearest folders are looked at first,
    up to the repository's top (its `.git`), and no further than `_DOCUSAURUS_UP` levels.
    """
    seen: set[Path] = set()
    folder = root
    for _ in range(_DOCUSAURUS_UP):
        if folder.parent == folder:
            break
        folder = folder.parent
        for pattern in _DOCUSAURUS_DOWN:
            for conf in sorted(folder.glob(pattern)):
                if conf in seen or "node_modules" in conf.parts or not conf.is_file():
                    continue
                seen.add(conf)
                if _docs_path_names(conf, root):
                    yield conf
        if (folder / ".git").exists():
            break  # the repository's top: a site outside it does not build these docs


def _docs_path_names(conf: Path, root: Path) -> bool:
    """Whether a `path:` of the config, relative to its folder, is the docs folder."""
    try:
        text = conf.read_text("utf-8", errors="replace")
    except OSError:
        return False
    return any((conf.parent / m.group(2)).resolve() == root for m in _DOCS_PATH_RE.finditer(text))


def config_files(folder: Path) -> Iterable[Path]:
    """The Docusaurus config files of a folder (`docusaurus.config.js`, `.ts`, `.mjs`, …)."""
    return sorted(folder.glob("docusaurus.config.*"))


def config_elsewhere(root: Path) -> Iterator[Path]:
    """A site beside the docs whose docs plugin reads them, or the site of a released version.

    A released version of Docusaurus docs lives in `<site>/versioned_docs/version-X`.
    """
    yield from sibling_docusaurus_configs(root)
    if root.name.startswith("version-") and root.parent.name.endswith("versioned_docs"):
        yield from sorted(root.parent.parent.glob("docusaurus.config.*"))
