"""Reader of Markdown (CommonMark + GFM) and MDX (Mintlify, Docusaurus): frontmatter, headings, code, JSX.

Pages are kept whole, with their heading hierarchy, because an assistant that reads the whole
page answers better than one that sees 500-token chunks. Anything that cannot be parsed is kept
as plain text (with a warning) rather than dropped. What a generator adds on top of Markdown
(MkDocs extensions: tools/sources/generators/mkdocs/) is rewritten to plain Markdown before this
parser runs; `:::tip` admonitions (Docusaurus) and `:::python` language blocks are read here.
"""

from __future__ import annotations

import logging
import re

from tools.sources.hidden.strip import HEADING_ID_COMMENT_RE
from tools.sources.markdown.frontmatter import read_frontmatters
from tools.sources.markdown.inline import (
    clean_prose,
    decode_entities,
    plain_heading,
    resolve_footnotes,
    resolve_reference_links,
    slugify,
    split_heading_attrs,
)
from tools.sources.markdown.mdx import (
    PART_END,
    PART_START,
    ImportLoader,
    drop_comments,
    drop_embedded_html,
    inline_imports,
)
from tools.sources.records import Page, Section, plain_page
from tools.sources.slugs import Anchors

log = logging.getLogger(__name__)


_FENCE_RE = re.compile(r"^(\s*)(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_LANGUAGE_BLOCK_RE = re.compile(r":::(python|js|ts|javascript|typescript)")
# A Docusaurus admonition's opening line (`:::tip`, `:::note Title`, `:::info[Title]`, `::::`
# when nested) and its closing line (`:::`).
_ADMONITION_OPEN_RE = re.compile(r"^(:{3,})([A-Za-z][\w-]*)(?:\[(.*?)\]|\s+(.*?))?\s*(\{.*\})?$")
_ADMONITION_CLOSE_RE = re.compile(r"^:{3,}$")
_IMPORT_EXPORT_RE = re.compile(r"^\s*(import|export)\s")
# How an import statement's last line ends (its module's name, `;`, or a side-effect import).
_IMPORT_END_RE = re.compile(r"""(?:['"]\s*;?|;)\s*$""")
# An MDX `import` / `export` is JavaScript up to where its brackets close (`export default
# function X() {` … `}`): none of it is text. Followed over at most this many lines.
_MAX_ESM_LINES = 400
_BRACKET_DELTA = {"{": 1, "(": 1, "[": 1, "}": -1, ")": -1, "]": -1}


def _bracket_depth(line: str, depth: int) -> int:
    """The bracket depth after a line of JavaScript, strings skipped.

    An apostrophe after a word character is JSX text (`Don't`), not a string.
    """
    quote = ""
    prev = " "
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in '"`' or (c == "'" and not (prev.isalnum() or prev == "_")):
            quote = c
        elif c == "/" and line.startswith("//", i):
            break
        else:
            depth += _BRACKET_DELTA.get(c, 0)
        prev = c
        i += 1
    return depth


_BLANK_RUN_RE = re.compile(r"\n{3,}")


def resolve_language_blocks(body: str, language: str) -> str:
    """Keep `:::python` … `:::` blocks for the configured language and drop the others.

    Other `:::name` blocks are admonitions (Docusaurus `:::tip Title` … `:::`): their fences go,
    their title stays as a bold line, their body as text. Lines inside code fences are left alone.
    """
    out: list[str] = []
    keep = True
    in_block = False
    admonitions = 0
    fence: str | None = None
    for line in body.splitlines():
        stripped = line.strip()
        m = _FENCE_RE.match(line)
        if fence is not None:
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence):
                fence = None
            if keep:
                out.append(line)
            continue
        if m:
            fence = m.group(2)
        elif stripped.startswith(":::"):
            if _LANGUAGE_BLOCK_RE.fullmatch(stripped):
                block_lang = stripped[3:]
                block_lang = (
                    "js" if block_lang in {"ts", "javascript", "typescript"} else block_lang
                )
                in_block, keep = True, block_lang == language
                continue
            if _ADMONITION_CLOSE_RE.match(stripped):
                if admonitions:
                    admonitions -= 1
                elif in_block:
                    in_block, keep = False, True
                continue
            opened = _ADMONITION_OPEN_RE.match(stripped)
            if opened:
                admonitions += 1
                title = (opened.group(3) or opened.group(4) or "").strip()
                if keep and title:
                    out.extend((f"**{title}**", ""))
                continue
        if admonitions and stripped.endswith(" :::"):
            admonitions -= 1  # an admonition closed at the end of its last line
            line = line.rstrip()[:-4]
        if keep:
            out.append(line)
    return "\n".join(out)


# Characters of a heading's id that its text does not show, between these marks (private-use
# characters: no page writes them); see `mark_heading_comments`.
SLUG_ONLY_START, SLUG_ONLY_END = "\ue001", "\ue002"
SLUG_ONLY_RE = re.compile(f"{SLUG_ONLY_START}([^{SLUG_ONLY_END}]*){SLUG_ONLY_END}")


def without_slug_marks(text: str) -> str:
    """The text as it shows, without the id characters `mark_heading_comments` wrote."""
    return SLUG_ONLY_RE.sub("", text) if SLUG_ONLY_START in text else text


def parse_markdown(
    path: str,
    text: str,
    language: str = "python",
    slug: str = "mintlify",
    load_import: ImportLoader | None = None,
    separate_parts: bool = False,
) -> Page:
    """Parse Markdown/MDX into a `Page`; never raises on malformed input.

    `slug` names the generator's heading-anchor rule (tools/sources/slugs.py); `load_import`
    reads the Markdown files MDX imports name (`inline_imports`), None leaves them out.
    `separate_parts`: each imported file's headings are made unique among themselves only
    (Docusaurus compiles an imported file as a document of its own).
    """
    try:
        if load_import is not None and "import " in text:
            text = inline_imports(text, load_import, mark=separate_parts)
        return _parse(path, text, language, slug)
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not parse %s (%s); indexing it as plain text", path, exc)
        name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return plain_page(path, without_slug_marks(text), anchor=slugify(name))


def _parse(path: str, text: str, language: str, slug: str = "mintlify") -> Page:
    meta, body = read_frontmatters(text.replace("\r\n", "\n"))
    if "{/*" in body:  # `## Title {/* #id */}`: the heading's id (Docusaurus 3), not a comment
        body = HEADING_ID_COMMENT_RE.sub(lambda m: f"{m.group(1)} {{#{m.group(2)}}}", body)
    body = drop_comments(body)
    body = drop_embedded_html(body)
    body = resolve_language_blocks(body, language)
    body = resolve_reference_links(resolve_footnotes(body))
    anchors = Anchors(slug)
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

    outer: list[Anchors] = []
    esm_lines = esm_depth = 0
    esm_import = False
    for raw in body.split("\n"):
        marked, raw = raw, without_slug_marks(raw)  # `marked`: with its heading's id characters
        if raw == PART_START:
            outer.append(anchors)
            anchors = Anchors(slug)
            continue
        if raw == PART_END:
            anchors = outer.pop() if outer else anchors
            continue
        m = _FENCE_RE.match(raw)
        if fence is not None:
            lead = len(raw) - len(raw.lstrip(" "))
            buf.append(raw[min(lead, fence_indent) :] if raw.strip() else "")
            if (
                m
                and m.group(2)[0] == fence[0]
                and len(m.group(2)) >= len(fence)
                and not raw.strip()[len(m.group(2)) :].strip()
                and lead < fence_indent + 4  # deeper, it is a line of the code
            ):
                fence = None
            continue
        if m:
            fence = m.group(2)
            fence_indent = len(m.group(1))
            buf.append(raw.strip())
            continue
        if esm_lines:
            esm_lines -= 1
            esm_depth = _bracket_depth(raw, esm_depth)
            if esm_depth <= 0 and (not esm_import or _IMPORT_END_RE.search(raw)):
                esm_lines = 0
            continue
        if _IMPORT_EXPORT_RE.match(raw):
            # MDX's ESM (at the line's start) may run on over lines (`import\nName from
            # './x.md';`, a function); an indented one is the line alone, as before.
            esm_depth = _bracket_depth(raw, 0)
            esm_import = raw.startswith("import") and not _IMPORT_END_RE.search(raw)
            if raw[:1] in ("i", "e") and (esm_depth > 0 or esm_import):
                esm_lines = _MAX_ESM_LINES
            continue
        h = _HEADING_RE.match(raw.strip()) if not raw.startswith("    ") else None
        if h:
            flush()
            source, explicit = split_heading_attrs(h.group(2))
            source = clean_prose(source)
            slug_source = source
            if marked is not raw:  # comments that count in the id (`mark_heading_comments`)
                whole = _HEADING_RE.match(SLUG_ONLY_RE.sub(r"\1", marked).strip())
                slug_source = clean_prose(whole.group(2)) if whole else source
            # Character references are decoded before the slug, as every generator does.
            heading = decode_entities(plain_heading(source).strip("*").strip())
            slug_text = decode_entities(
                plain_heading(slug_source, collapse=False).strip("*").strip()
            )
            anchor = anchors.take(explicit) if explicit else anchors.heading(slug_text)
            current = Section(heading, len(h.group(1)), "", anchor)
            buf = []
            continue
        cleaned = decode_entities(clean_prose(raw))
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
