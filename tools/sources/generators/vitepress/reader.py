"""Reader of VitePress pages: includes and snippet imports resolved, extensions rewritten, parsed.

What VitePress does before markdown-it sees a page comes first: `<!--@include: …-->` (a comment,
so before hidden text is dropped: `VitePressRules.reads_raw`) and the page's `<script setup>`
constants (which `{{ }}` may name); then `<<<` imports, hidden text, the containers, code groups,
alerts and interpolation (syntax.py); a home page's hero and features open it (home.py).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from tools.sources.generators.vitepress.home import home_text, home_title
from tools.sources.generators.vitepress.rules import VitePressRules
from tools.sources.generators.vitepress.snippets import resolve_includes, resolve_snippet_imports
from tools.sources.generators.vitepress.syntax import PageValues, rewrite_vitepress
from tools.sources.hidden.strip import strip_hidden
from tools.sources.jsconfig import literal_bindings
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.markdown.parse import parse_markdown
from tools.sources.records import Page
from tools.sources.site import Site

log = logging.getLogger(__name__)

_SCRIPT_SETUP_RE = re.compile(r"<script\b[^>]*\bsetup\b[^>]*>(.*?)</script>", re.S | re.I)


def read_vitepress(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A VitePress page as the site shows it (see the module docstring); never raises."""
    rules = site.rules if isinstance(site.rules, VitePressRules) else VitePressRules()
    page = (root / rel).resolve()
    src_dir = Path(rules.src_dir) if rules.src_dir else (root / site.page_dir).resolve()
    confine = Path(rules.files_root or site.project_root or root).resolve()
    text = text.replace("\r\n", "\n")
    meta, body = split_frontmatter(text)
    head = text[: len(text) - len(body)]
    try:
        script: dict[str, object] = {}
        for block in _SCRIPT_SETUP_RE.findall(body):
            script.update(literal_bindings(block))
        body = resolve_includes(body, page, src_dir, confine)
        body = resolve_snippet_imports(body, page, src_dir, confine)
        cleaned = strip_hidden(head + body)
        _, body = split_frontmatter(cleaned)
        head = cleaned[: len(cleaned) - len(body)]
        body = rewrite_vitepress(body, rules.labels_for(site.locale), PageValues(meta, script))
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not read the VitePress syntax of %s (%s); read as Markdown", rel, exc)
        cleaned = strip_hidden(text)
        _, body = split_frontmatter(cleaned)
        head = cleaned[: len(cleaned) - len(body)]
    home = meta.get("layout") == "home"
    if home:
        body = home_text(meta) + "\n\n" + body
    out = parse_markdown(rel, head + body, language, site.slug)
    if home and not meta.get("title"):
        out.title = home_title(meta) or rules.site_title or out.title
        if out.sections and out.sections[0].level == 0:
            out.sections[0].heading = out.title
    return out
