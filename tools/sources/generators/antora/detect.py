"""How Antora is recognised: its built pages name it, its sources by their playbook or component file.

Antora's default UI writes `<meta name="generator" content="Antora 3.1.15">` on every page; the
redirect pages Antora itself writes (a start page at the site's root, page aliases) are titled
"Redirect Notice" and move the reader with a `location=` script and a refresh, whatever the UI.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tools.sources.html.built import home_pages, meta_generator

_REDIRECT_NOTICE = re.compile(r"<title>Redirect Notice</title>\s*<h1>Redirect Notice</h1>", re.I)


def is_antora_build(root: Path) -> bool:
    """Whether the folder is a site Antora built (its pages or its start-page redirect say so)."""
    for _, head in home_pages(root):
        if meta_generator(head).lower().startswith("antora") or _REDIRECT_NOTICE.search(head):
            return True
    return False


def config_files(folder: Path) -> Iterable[Path]:
    """An Antora playbook (`antora-playbook.yml`) or component descriptor (`antora.yml`) of a folder."""
    names = ("antora-playbook.yml", "antora-playbook.yaml", "antora.yml")
    return [p for p in (folder / n for n in names) if p.is_file()][:1]
