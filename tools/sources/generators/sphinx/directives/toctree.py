"""The `toctree` directive: its entries are collected for the navigation, nothing is shown."""

from __future__ import annotations

import re

from docutils import nodes
from typing_extensions import override

from tools.sources.generators.sphinx.directives.base import SphinxDirective

_TOCTREE_ENTRY = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")


class TocTree(SphinxDirective):
    """`toctree`: entries collected as navigation (`ParseState.toctrees`), no text."""

    @override
    def run(self) -> list[nodes.Node]:
        entries: list[dict[str, str]] = []
        for line in self.content:
            line = line.strip()
            if not line or line.startswith(".. "):
                continue
            m = _TOCTREE_ENTRY.match(line)
            title, target = (m.group("title"), m.group("target")) if m else ("", line)
            entries.append({"title": title, "target": target.strip()})
        self.parse_state.toctrees.append(
            {
                "entries": entries,
                "glob": "glob" in self.options,
                "hidden": "hidden" in self.options,
                "caption": self.options.get("caption", ""),
            }
        )
        return []
