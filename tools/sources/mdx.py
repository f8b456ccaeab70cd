"""Loader for real-world Markdown and Mintlify MDX: frontmatter, headings, code fences, JSX.

Pages are kept whole, with their heading hierarchy, because an assistant that reads the whole
page answers better than one that sees 500-token chunks. Anything that cannot be parsed is kept
as plain text (with a warning) rather than dropped.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

log = logging.getLogger(__name__)

_FRONTMATTER_RE = re.compile(
    r"\A\ufeff?\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL
)
_FENCE_RE = re.compile(r"^(\s*)(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_JSX_TAG_RE = re.compile(r"</?[A-Z][A-Za-z0-9.]*(?:\s+[^<>]*?)?/?>")
_HTML_COMMENT_RE = re.compile(r"<!--.*?-->|\{/\*.*?\*/\}", re.DOTALL)
_LANGUAGE_BLOCK_RE = re.compile(r":::(python|js|ts|javascript|typescript)")
_IMPORT_EXPORT_RE = re.compile(r"^\s*(import|export)\s")
_BLANK_RUN_RE = re.compile(r"\n{3,}")
# libyaml's parser when installed (same objects, several times faster), else PyYAML's own.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TITLE_ATTR_RE = re.compile(
    r"""\b(?:title|label)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{["']([^"']*)["']\})"""
)


@dataclass
class Section:
    """One heading and the text under it (up to the next heading of any level)."""

    heading: str
    level: int
    text: str
    anchor: str
    ids: tuple[str, ...] = ()


@dataclass
class Page:
    """A parsed page: metadata plus sections in document order."""

    path: str
    title: str
    description: str
    sections: list[Section]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def body(self) -> str:
        """The page as markdown, headings included."""
        parts: list[str] = []
        for s in self.sections:
            if s.level > 0:
                parts.append("#" * s.level + " " + s.heading)
            if s.text:
                parts.append(s.text)
        return "\n\n".join(parts).strip()


def slugify(heading: str) -> str:
    """GitHub/Mintlify-style anchor for a heading."""
    slug = re.sub(r"[^\w\s-]", "", heading.lower()).strip()
    return re.sub(r"[\s]+", "-", slug)


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """Split YAML frontmatter off the text; a broken block is left in the body and logged."""
    m = _FRONTMATTER_RE.match(text)
    if not m:
        return {}, text
    try:
        data = yaml.load(m.group(1), Loader=_YAML_LOADER) or {}  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        log.warning("unparseable frontmatter kept as text: %s", exc)
        return {}, text
    if not isinstance(data, dict):
        return {}, text
    return data, text[m.end() :]


def read_frontmatters(text: str) -> tuple[dict[str, Any], str]:
    """Frontmatter that may come in two stacked blocks (a KB article wrapping an original page).

    The first block wins on conflicts: it is the article's own metadata.
    """
    meta, body = split_frontmatter(text)
    if meta:
        inner, rest = split_frontmatter(body.lstrip())
        if inner:
            merged = dict(inner)
            merged.update(meta)
            merged.setdefault("original", inner)
            return merged, rest
    return meta, body


def resolve_language_blocks(body: str, language: str) -> str:
    """Keep `:::python` … `:::` blocks for the configured language and drop the others."""
    out: list[str] = []
    keep = True
    in_block = False
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith(":::") and _LANGUAGE_BLOCK_RE.fullmatch(stripped):
            block_lang = stripped[3:]
            block_lang = "js" if block_lang in {"ts", "javascript", "typescript"} else block_lang
            in_block, keep = True, block_lang == language
            continue
        if stripped == ":::" and in_block:
            in_block, keep = False, True
            continue
        if keep:
            out.append(line)
    return "\n".join(out)


def _clean_prose(line: str) -> str:
    """Unwrap JSX components to their text, keeping a component's title/label attribute."""
    if "<" not in line:  # no tag: most lines
        return line

    def repl(m: re.Match[str]) -> str:
        attr = _TITLE_ATTR_RE.search(m.group(0))
        if attr and not m.group(0).startswith("</"):
            title = next(g for g in attr.groups() if g is not None)
            return f"**{title}** " if title else ""
        return ""

    line = _JSX_TAG_RE.sub(repl, line)
    return line


def parse_markdown(path: str, text: str, language: str = "python") -> Page:
    """Parse Markdown/MDX into a `Page`; never raises on malformed input."""
    try:
        return _parse(path, text, language)
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not parse %s (%s); indexing it as plain text", path, exc)
        title = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return Page(path, title, "", [Section(title, 1, text, slugify(title))], {"plain": True})


def _parse(path: str, text: str, language: str) -> Page:
    meta, body = read_frontmatters(text.replace("\r\n", "\n"))
    body = _HTML_COMMENT_RE.sub("", body)
    body = resolve_language_blocks(body, language)
    title = str(meta.get("title") or "").strip()
    description = str(meta.get("description") or "").strip()

    sections: list[Section] = []
    current = Section("", 0, "", "")
    buf: list[str] = []
    fence: str | None = None
    fence_indent = 0

    def flush() -> None:
        current.text = _BLANK_RUN_RE.sub("\n\n", "\n".join(buf)).strip()
        if current.level > 0 or current.text:
            sections.append(current)

    for raw in body.split("\n"):
        m = _FENCE_RE.match(raw)
        if fence is not None:
            lead = len(raw) - len(raw.lstrip(" "))
            buf.append(raw[min(lead, fence_indent) :] if raw.strip() else "")
            if (
                m
                and m.group(2)[0] == fence[0]
                and len(m.group(2)) >= len(fence)
                and not raw.strip()[len(m.group(2)) :].strip()
            ):
                fence = None
            continue
        if m:
            fence = m.group(2)
            fence_indent = len(m.group(1))
            buf.append(raw.strip())
            continue
        if _IMPORT_EXPORT_RE.match(raw):
            continue
        h = _HEADING_RE.match(raw.strip()) if not raw.startswith("    ") else None
        if h:
            flush()
            heading = _clean_prose(h.group(2)).strip().strip("*").strip()
            current = Section(heading, len(h.group(1)), "", slugify(heading))
            buf = []
            continue
        cleaned = _clean_prose(raw)
        if raw.strip() and not cleaned.strip():
            continue  # a line that held only JSX tags
        buf.append(
            cleaned.strip()
            if cleaned.strip().startswith(("-", "*", "|", ">"))
            else cleaned.rstrip()
        )
    flush()

    if not title:
        first = next((s for s in sections if s.level == 1), None)
        title = first.heading if first else path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if sections and sections[0].level == 0:
        sections[0].heading = title
        sections[0].anchor = ""
    return Page(path, title, description, sections, meta)
