"""The pages an MkDocs site's navigation lists: `nav`, and mkdocs-literate-nav's Markdown nav files."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def nav_pages(entries: Any) -> Iterator[tuple[str, str]]:
    """(page path, nav title) of a MkDocs `nav`, in order; links to other sites left out."""
    if isinstance(entries, str):
        if "://" not in entries and not entries.startswith(("/", "#")):
            yield entries.removeprefix("./"), ""
    elif isinstance(entries, list):
        for entry in entries:
            yield from nav_pages(entry)
    elif isinstance(entries, dict):
        for title, value in entries.items():
            if isinstance(value, str):
                for path, _ in nav_pages(value):
                    yield path, str(title)
            else:
                yield from nav_pages(value)


_LIST_ITEM_RE = re.compile(
    r"^[ \t]*(?:[-*+]|\d+\.)[ \t]+(?:\[([^\]]*)\]\(<?([^)>\s]+)>?\)|(\S+)[ \t]*$)"
)
_MAX_NAV_DEPTH = 8


def literate_nav(
    docs_dir: Path, entries: list[tuple[str, str]], options: dict[str, Any]
) -> list[tuple[str, str]]:
    """The nav with mkdocs-literate-nav's folders expanded into their pages.

    The plugin reads a folder's nav from the Markdown lists of its nav file (`nav_file`,
    default `SUMMARY.md`); a folder named in the nav (`guide/`) stands for that folder's nav, and
    a folder without a nav file for all its pages. With no `nav` in mkdocs.yml, the docs folder's
    own nav file is the nav. `implicit_index` puts a folder's index page first.
    """
    nav_file = str(options.get("nav_file") or "SUMMARY.md")
    implicit = options.get("implicit_index") is True
    if not entries:
        if not (docs_dir / nav_file).is_file():
            return entries
        entries = [("", "")]
    out: list[tuple[str, str]] = []
    for path, title in entries:
        if path == "" or path.endswith("/") or (docs_dir / path).is_dir():
            out.extend(_folder_nav(docs_dir, path.strip("/"), nav_file, implicit, 0))
        else:
            out.append((path, title))
    return list(dict.fromkeys(out))


def _folder_nav(
    docs_dir: Path, folder: str, nav_file: str, implicit: bool, depth: int
) -> list[tuple[str, str]]:
    """(page, title) of one folder's literate nav, its sub-folders expanded in place."""
    base = docs_dir / folder if folder else docs_dir
    prefix = f"{folder}/" if folder else ""
    out: list[tuple[str, str]] = []
    if depth > _MAX_NAV_DEPTH or not base.is_dir():
        return out
    index = next((n for n in ("index.md", "README.md") if (base / n).is_file()), None)
    if implicit and index:
        out.append((prefix + index, ""))
    if not (base / nav_file).is_file():
        pages = sorted(p.relative_to(docs_dir).as_posix() for p in base.rglob("*.md"))
        return out + [(p, "") for p in pages]
    text = (base / nav_file).read_text("utf-8", errors="replace")
    for line in text.splitlines():
        m = _LIST_ITEM_RE.match(line)
        if not m:
            continue
        target = (m.group(2) or m.group(3) or "").split("#")[0]
        if not target or "://" in target or target.startswith(("/", "mailto:")):
            continue
        rel = posixpath.normpath(prefix + target.removeprefix("./"))
        if target.endswith("/") or (docs_dir / rel).is_dir():
            out.extend(_folder_nav(docs_dir, rel, nav_file, implicit, depth + 1))
        elif rel.endswith(".md") and (docs_dir / rel).is_file():
            out.append((rel, (m.group(1) or "").strip()))
    return out
