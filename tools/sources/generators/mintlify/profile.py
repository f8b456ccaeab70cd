"""The Mintlify site profile: URLs are paths without suffix; `navigation` lists the pages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tools.sources.generators.mintlify.rules import MintlifyRules
from tools.sources.site import PART_FOLDERS, Site


def _json_pages(node: Any) -> Iterator[str]:
    """Every page named under a `pages` list of a Mintlify navigation, in order."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pages" and isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        yield item
                    else:
                        yield from _json_pages(item)
            else:
                yield from _json_pages(value)
    elif isinstance(node, list):
        for item in node:
            yield from _json_pages(item)


def mintlify_site(root: Path, config_path: Path | None) -> Site:
    """Mintlify: URLs are paths without suffix; the pages of `navigation` are the site's pages."""
    nav: tuple[str, ...] | None = None
    prefix = ""
    if config_path is not None:
        data = json.loads(config_path.read_text("utf-8", errors="replace"))
        names = list(dict.fromkeys(_json_pages(data.get("navigation") or data)))
        if config_path.parent != root and config_path.parent.resolve() != root:
            prefix = ""
        pages: list[str] = []
        for name in names:
            stem = name.strip("/")
            for suffix in (".mdx", ".md"):
                if (config_path.parent / (stem + suffix)).is_file():
                    full = (config_path.parent / (stem + suffix)).resolve()
                    if full.is_relative_to(root):
                        pages.append(full.relative_to(root).as_posix())
                    break
        nav = tuple(pages) if pages else None
    return Site(
        rules=MintlifyRules(),
        url_style="plain",
        slug="mintlify",
        nav=nav,
        path_prefix=prefix,
        not_pages=PART_FOLDERS,
        config=str(config_path or ""),
    )
