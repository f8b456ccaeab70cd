"""Markdown rendering of retrieved pages and articles: the one place that decides what the model reads."""

from __future__ import annotations

from collections.abc import Callable

from tools.artifacts import SectionArtifact
from tools.search import Document, Hit
from tools.sources.records import Section
from tools.text import strip_bold, strip_controls

PAGE_LIMIT = 12_000

# What a shown section's text passes through first: its links as the site's URLs
# (tools/presentation/site_links.py), bound to the page it is from.
LinkRewrite = Callable[[str], str]


def clean_text(text: str) -> str:
    """Retrieved prose as the model should see it: no bold (it reads as emphasis/orders), no controls."""
    return strip_controls(strip_bold(text))


def section_subtree(sections: list[Section], name: str) -> list[Section] | None:
    """The section whose heading or one of its ids matches `name`, with its subsections."""
    wanted = name.strip().lstrip("#").strip().lower()
    for i, s in enumerate(sections):
        if s.heading.lower() == wanted or wanted in s.anchors:
            end = i + 1
            while end < len(sections) and sections[end].level > s.level:
                end += 1
            return sections[i:end]
    for i, s in enumerate(sections):  # then a looser match
        if wanted and wanted in s.heading.lower():
            end = i + 1
            while end < len(sections) and sections[end].level > s.level:
                end += 1
            return sections[i:end]
    return None


def _render_sections(
    sections: list[Section], limit: int, links: LinkRewrite | None = None
) -> tuple[str, list[str], list[SectionArtifact]]:
    """Markdown, headings left out, and the sections shown (as the model sees their text)."""
    parts: list[str] = []
    shown: list[SectionArtifact] = []
    size = 0
    left_out: list[str] = []
    for s in sections:
        head = "#" * s.level + " " + s.heading + "\n\n" if s.level > 0 else ""
        block = head + clean_text(s.text)
        if size + len(block) > limit and parts:
            if s.level > 0:
                left_out.append(s.heading)
            continue
        # Which sections are shown is decided on their text as written (the budget is a
        # guide, and a link's site URL is longer than its written target); only they are
        # rewritten.
        written = len(_cut(block, limit))
        if links is not None:
            block = head + clean_text(links(s.text))
        block = _cut(block, limit)
        parts.append(block.strip())
        size += written + 2
        shown.append(
            {
                "heading": s.heading if s.level > 0 else "",
                "level": s.level,
                "anchor": s.anchor if s.level > 0 else "",
                "text": block[len(head) :].strip() if block.startswith(head) else "",
            }
        )
    return "\n\n".join(p for p in parts if p), left_out, shown


def _cut(block: str, limit: int) -> str:
    """A block longer than `limit` cut at its last line break before it, marked as cut."""
    return block[:limit].rsplit("\n", 1)[0] + "\n…" if len(block) > limit else block


def render_document(doc: Document, section: str | None = None, limit: int = PAGE_LIMIT) -> str:
    """A page (or one section of it) as markdown with a header naming its citation."""
    return render_document_parts(doc, section, limit)[0]


def render_document_parts(
    doc: Document,
    section: str | None = None,
    limit: int = PAGE_LIMIT,
    links: LinkRewrite | None = None,
) -> tuple[str, list[SectionArtifact]]:
    """`render_document`'s text and the sections it shows, for the tool's artifact.

    An unknown `section` gives the error text and no sections. `links` rewrites each shown
    section's links (only those shown: a long page's other sections cost nothing).
    """
    sections = doc.sections
    header = f"# {doc.title}\nSource: {doc.url}\n"
    if section:
        sub = section_subtree(sections, section)
        if sub is None:
            names = ", ".join(s.heading for s in sections if s.level in (2, 3))
            return f"No section {section!r} in {doc.url}. Sections: {names or '(none)'}.", []
        sections = sub
        anchor = sub[0].anchor
        header = (
            f"# {doc.title} — {sub[0].heading}\nSource: {doc.url}{'#' + anchor if anchor else ''}\n"
        )
    elif sections and sections[0].level == 0:
        sections = [Section("", 0, sections[0].text, "")] + sections[1:]
    if doc.description:
        description = links(doc.description) if links is not None else doc.description
        header += f"Description: {clean_text(description)}\n"
    body, left_out, shown = _render_sections(sections, limit, links)
    text = header + "\n" + body
    if left_out:
        text += (
            f"\n\n[Page cut at {limit} characters. Sections left out: {'; '.join(left_out)}. "
            "Call again with `section` set to one of them to read it.]"
        )
    return text, shown


def render_hits(hits: list[Hit], query: str, what: str = "pages") -> str:
    """A numbered markdown list of search hits: title, URL, best section, snippet."""
    if not hits:
        return f"No {what} found for {query!r}. Try other keywords or a synonym."
    lines = [f"{len(hits)} {what} for {query!r}:"]
    for n, h in enumerate(hits, 1):
        url = h.url + (f"#{h.anchor}" if h.anchor else "")
        lines.append(f"{n}. {h.title} — {url}")
        if h.section:
            lines.append(f"   Section: {h.section}")
        if h.snippet:
            lines.append(f"   > {h.snippet}")
    return "\n".join(lines)
