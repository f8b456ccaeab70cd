"""Reader of MkDocs / Material pages: snippets and includes resolved, extensions rewritten, then parsed.

pymdownx.snippets' `auto_append` files end every page; the section ids the extensions mark
(mkdocstrings objects, empty anchors) are put on their sections.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path

from tools.sources.generators.mkdocs.extensions import (
    ID_MARK,
    ID_MARK_RE,
    NO_EXTENSIONS,
    rewrite_extensions,
)
from tools.sources.generators.mkdocs.rules import MkDocsRules
from tools.sources.generators.mkdocs.snippets import (
    SnippetFiles,
    resolve_includes,
    resolve_snippets,
)
from tools.sources.generators.mkdocs.syntax import MarkdownSyntax
from tools.sources.hidden.strip import strip_hidden
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.markdown.parse import parse_markdown
from tools.sources.records import Page, Section
from tools.sources.site import Site

log = logging.getLogger(__name__)


def _attach_ids(sections: list[Section]) -> list[Section]:
    """Move the kept id marks out of the text: each becomes an extra id of the section it opens.

    A mark at the very end of a section (nothing after it but blank space) stands just before the
    next heading, so it opens the next section, as the browser scrolls there.
    """
    out: list[Section] = []
    carry: list[str] = []
    for s in sections:
        text = s.text
        ids = list(carry)
        carry = []
        if ID_MARK in text:
            tail = text.rstrip()
            trailing: list[str] = []
            while (m := re.search("\u2063id:([\\w:.-]+)\u2063\\s*$", tail)) is not None:
                trailing.insert(0, m.group(1))
                tail = tail[: m.start()].rstrip()
            ids.extend(ID_MARK_RE.findall(tail))
            carry = trailing
            text = re.sub(r"\n{3,}", "\n\n", ID_MARK_RE.sub("", tail)).strip()
        kept = tuple(i for i in dict.fromkeys(ids) if i != s.anchor)
        out.append(replace(s, text=text, ids=s.ids + kept) if (kept or text != s.text) else s)
    if carry and out:
        last = out[-1]
        out[-1] = replace(last, ids=last.ids + tuple(i for i in carry if i not in last.ids))
    return out


def parse_mkdocs(
    path: str,
    text: str,
    language: str = "python",
    slug: str = "python-markdown",
    snippets: SnippetFiles | None = None,
    page_dir: Path | None = None,
    syntax: MarkdownSyntax = NO_EXTENSIONS,
) -> Page:
    """An MkDocs page as a `Page`; never raises on malformed input (the Markdown reader's promise).

    `syntax`: the optional extensions the site turns on; their `auto_append` snippets end the
    page, as pymdownx.snippets appends them (a block of names after the page's last line).
    """
    try:
        meta_text = text.replace("\r\n", "\n")
        _, body = split_frontmatter(meta_text)
        head = meta_text[: len(meta_text) - len(body)]
        if snippets is not None:
            own = body
            body = resolve_includes(body, snippets)
            if syntax.auto_append:
                body += "\n\n-8<-\n" + "\n\n".join(syntax.auto_append) + "\n-8<-\n"
            body = resolve_snippets(body, snippets, page_dir)
            if body != own:
                # Included files are page text too: their hidden text goes as the page's did
                # (`read_page` cleaned the page alone). Cleaned in place, so a file's code
                # lands in the page's fences and keeps what looks like markup there.
                body = strip_hidden(body)
        body = rewrite_extensions(body, syntax)
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not read the MkDocs syntax of %s (%s); read as Markdown", path, exc)
        head, body = "", text
    page = parse_markdown(path, head + body, language, slug)
    page.sections = _attach_ids(page.sections)
    return page


def read_mkdocs(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """MkDocs / Material Markdown: its extensions rewritten, snippets resolved."""
    rules = site.rules if isinstance(site.rules, MkDocsRules) else MkDocsRules()
    dirs = rules.snippet_dirs or (site.project_root or str(root), str(root))
    files = SnippetFiles(
        tuple(dirs),
        rules.files_root or site.project_root or str(root),
        rules.includes,
        rules.include_base,
    )
    page_dir = (root / rel).parent
    page = parse_mkdocs(rel, text, language, site.slug, files, page_dir, rules.syntax)
    stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if page.title == stem:  # no nav title, front matter title or H1: MkDocs' name from the file
        folder = rel.rsplit("/", 2)[-2] if "/" in rel else ""
        name = folder if stem.lower() in ("index", "readme") and folder else stem
        page.title = name.replace("-", " ").replace("_", " ").strip().capitalize() or page.title
        if page.sections and page.sections[0].level == 0:
            page.sections[0].heading = page.title
    return page
