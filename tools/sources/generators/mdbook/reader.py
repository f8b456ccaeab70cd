"""Reader of mdBook chapters: its preprocessors' directives, hidden code lines, ids and titles.

A chapter is read as mdBook builds it: the `links` preprocessor's directives resolved
(links.py), hidden code lines left out (code.py), headings and terms given mdBook's ids
(structure.py), then the shared Markdown reader. The title is the chapter's SUMMARY name, or
what `{{#title}}` sets (the page's `<title>`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from tools.sources.generators.mdbook.code import hide_code_lines
from tools.sources.generators.mdbook.ids import mdbook_id
from tools.sources.generators.mdbook.links import IncludeFiles, expand_links
from tools.sources.generators.mdbook.rules import MdBookRules
from tools.sources.generators.mdbook.structure import chapter_structure
from tools.sources.markdown.parse import parse_markdown
from tools.sources.records import Page, Section
from tools.sources.site import Site
from tools.sources.slugs import slug_rule

log = logging.getLogger(__name__)


def _with_ids(sections: list[Section], extra: dict[str, list[str]]) -> list[Section]:
    """Each section with the ids that sit in it (terms, empty or quoted headings) added."""
    if not extra:
        return sections
    out: list[Section] = []
    for i, section in enumerate(sections):
        ids = list(extra.get(section.anchor, [])) if section.anchor else []
        if i == 0:
            ids = list(extra.get("", [])) + ids
        kept = tuple(a for a in dict.fromkeys(ids) if a != section.anchor and a not in section.ids)
        out.append(replace(section, ids=section.ids + kept) if kept else section)
    return out


def read_mdbook(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """An mdBook chapter as a `Page` (never raises on malformed input: the readers' promise)."""
    rules = site.rules if isinstance(site.rules, MdBookRules) else MdBookRules()
    files = IncludeFiles(Path(rules.files_root or site.project_root or root))
    expanded = expand_links(text, (root / rel).parent, files)
    body = hide_code_lines(expanded.text, dict(rules.hidelines))
    slug = mdbook_id if site.slug == "mdbook" else slug_rule(site.slug)
    structure = chapter_structure(
        body, slug, rules.smart_punctuation, rules.definition_lists, rules.admonitions
    )
    page = parse_markdown(rel, structure.text, language, site.slug)
    page.sections = _with_ids(page.sections, structure.extra_ids)
    inner = rel[len(site.page_dir) :] if rel.startswith(site.page_dir) else rel
    title = expanded.title or rules.chapter_name(inner)
    if title:
        page.title = title
        if page.sections and page.sections[0].level == 0:
            page.sections[0].heading = title
    for problem in expanded.problems:  # mdBook fails its build on these: said, not hidden
        log.warning("%s: %s", rel, problem)
        page.meta.setdefault("warnings", []).append(problem)
    return page
