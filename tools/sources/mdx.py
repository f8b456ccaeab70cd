"""Reader of Markdown (CommonMark + GFM) and MDX (Mintlify, Docusaurus): frontmatter, headings, code, JSX.

Pages are kept whole, with their heading hierarchy, because an assistant that reads the whole
page answers better than one that sees 500-token chunks. Anything that cannot be parsed is kept
as plain text (with a warning) rather than dropped.

`Page` and `Section` are the records every reader produces (tools/sources/contract.py): the
search index, the renderer and the citation check read only those. What a generator adds on top
of Markdown (MkDocs extensions: tools/sources/mkdocs.py) is rewritten to plain Markdown before
this parser runs; what several generators share is read here: explicit heading ids
(`## Title {#id}`, attr_list and Docusaurus), `:::tip` admonitions (Docusaurus), reference links
whose target is a name, not a URL (`[BaseModel][pkg.BaseModel]`, autorefs), shown as their text.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from tools.sources.hidden import HEADING_ID_COMMENT_RE, mask_code, scan_tag
from tools.sources.slugs import Anchors, github, mintlify

log = logging.getLogger(__name__)

_FRONTMATTER_RE = re.compile(
    r"\A\ufeff?\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL
)
_FENCE_RE = re.compile(r"^(\s*)(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
# Where a component tag starts (`<Tabs`, `</Tabs`); `scan_tag` reads to its end, through
# attribute values that are JSX expressions holding tags and braces (`code={{ a: {…} }}`).
_JSX_TAG_START_RE = re.compile(r"<(/?)[A-Z][A-Za-z0-9.]*(?=[\s/>])")
_HTML_COMMENT_RE = re.compile(r"<!--.*?-->|\{/\*.*?\*/\}", re.DOTALL)
_LANGUAGE_BLOCK_RE = re.compile(r":::(python|js|ts|javascript|typescript)")
# A Docusaurus admonition's opening line (`:::tip`, `:::note Title`, `:::info[Title]`, `::::`
# when nested) and its closing line (`:::`).
_ADMONITION_OPEN_RE = re.compile(r"^(:{3,})([A-Za-z][\w-]*)(?:\[(.*?)\]|\s+(.*?))?\s*(\{.*\})?$")
_ADMONITION_CLOSE_RE = re.compile(r"^:{3,}$")
# An attribute list at a heading's end (`## Title {#id}`, `{ #id .class }`, `{: id="x" }`):
# Python-Markdown attr_list's `HEADER_RE`; its content is read by `parse_attr_list`. The space
# before the brace may go when the list starts with `#` (Docusaurus writes `## Title{#id}`).
_HEADING_ATTRS_RE = re.compile(r"(?:[ \t]+\{:?[ ]*([^}\n ][^\n]*)|\{:?[ ]*(#[^\n]*))\}[ \t]*$")
# attr_list's `_scanner`: `key="value"`, `key='value'`, `key=value`, a word (`#id`, `.class`,
# a bare attribute), spaces between.
_ATTR_TOKEN_RE = re.compile(
    r"""([^ =}]+)="(.*?)"|([^ =}]+)='(.*?)'|([^ =}]+)=([^ =}]+)|([^ =}]+)| """
)
# `[text][ref]` / `[text][]` (reference links; autorefs name a Python object), and a reference
# definition line `[ref]: url`.
_REF_LINK_RE = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\[([^\[\]]*)\]")
# A shortcut reference `[ref]` (no `[…]`, `(…)` or `:` after it): a link only when defined.
_SHORTCUT_REF_RE = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])+)\](?![\[(:])")
_REF_DEF_RE = re.compile(r"^ {0,3}\[([^\]]+)\]:\s+(\S+)")
_REF_DEF_LINE_RE = re.compile(r"^ {0,3}\[([^\]\n]+)\]: +(\S+)", re.M)
# A footnote's definition `[^note]: text` and reference `[^note]` (footnotes extension, GFM).
_FOOTNOTE_DEF_RE = re.compile(r"^([ \t]*)\[\^([^\]\s]+)\]:[ \t]*", re.M)
_FOOTNOTE_REF_RE = re.compile(r"\[\^([^\]\s]+)\]")
# Inline markup dropped from a heading's text before its slug is taken.
_INLINE_LINK_RE = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
_HTML_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
# `*text*` / `_text_` emphasis: the mark neither beside a space inside nor escaped, and an
# underscore not inside a word (`snake_case` is text), as CommonMark and Python-Markdown read it.
_EMPHASIS_RE = re.compile(r"(?<!\\)(\*|(?<!\w)_)(?![\s*_])(.+?)(?<![\s\\*_])\1(?![*_])(?!(?<=_)\w)")
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
# libyaml's parser when installed (same objects, several times faster), else PyYAML's own.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TITLE_ATTR_RE = re.compile(
    r"""\b(?:title|label)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{["']([^"']*)["']\})"""
)


@dataclass
class CodeBlock:
    """A fenced code block of a section: its language (`""` when the fence names none) and code."""

    language: str
    code: str


_CODE_FENCE_RE = re.compile(
    r"^([ \t]*)(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(.*?)^\1\2[`~]*[ \t]*$", re.M | re.S
)


@dataclass
class Section:
    """One heading and the text under it (up to the next heading of any level).

    `anchor` is the id the site gives the heading (cited as `url#anchor`); `ids` are the other
    ids the site serves for the same section (explicit targets, labels), which open it too.
    """

    heading: str
    level: int
    text: str
    anchor: str
    ids: tuple[str, ...] = ()

    @property
    def anchors(self) -> tuple[str, ...]:
        """Every id that opens this section on the site, the cited one first."""
        return tuple(dict.fromkeys(a for a in (self.anchor, *self.ids) if a))

    @property
    def code_blocks(self) -> list[CodeBlock]:
        """The fenced code blocks of the section's text, each with its language."""
        return [
            CodeBlock(m.group(3).lower(), m.group(4).rstrip("\n"))
            for m in _CODE_FENCE_RE.finditer(self.text)
        ]


@dataclass
class Page:
    """A parsed page: metadata plus sections in document order."""

    path: str
    title: str
    description: str
    sections: list[Section]
    meta: dict[str, Any] = field(default_factory=dict)

    def heading_paths(self) -> list[tuple[str, ...]]:
        """Each section's heading trail, page title first (`("Models", "Fields", "Aliases")`)."""
        trail: list[tuple[int, str]] = []
        out: list[tuple[str, ...]] = []
        for s in self.sections:
            while trail and trail[-1][0] >= s.level > 0:
                trail.pop()
            if s.level > 0:
                trail.append((s.level, s.heading))
            heads = [h for _, h in trail]
            out.append(tuple([self.title, *(h for h in heads if h != self.title)]))
        return out

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


def plain_page(path: str, text: str, problem: str = "", anchor: str = "") -> Page:
    """A file as one section of its text, titled by its file name: what a failed reader leaves."""
    title = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    meta: dict[str, Any] = {"plain": True}
    if problem:
        meta["warnings"] = [problem]
    return Page(path, title, "", [Section(title, 1, text, anchor)], meta)


def slugify(heading: str) -> str:
    """GitHub/Mintlify-style anchor for a heading (the default rule; others: tools/sources/slugs.py)."""
    return mintlify(plain_heading(heading))


def plain_heading(heading: str, collapse: bool = True) -> str:
    """A heading's text as the site shows it: links and autorefs as their text, no tags or ids.

    Inline code keeps its backticks (it reads as code); slug rules drop them with the rest of
    the punctuation, as the generators do. A code span shows what it says: its `__init__` and
    `<name>` are no emphasis or tag, and stay in the text and the id. `collapse=False` keeps
    runs of spaces, which some slug rules turn into one hyphen each (github-slugger).
    """
    text = split_heading_attrs(heading)[0]
    text = _REF_LINK_RE.sub(lambda m: m.group(2), text)
    text = _INLINE_LINK_RE.sub(lambda m: m.group(1), text)
    codes: list[str] = []  # code spans set aside (emphasis may run over one: `_a `b` c_`)

    def stash(m: re.Match[str]) -> str:
        codes.append(m.group(0))
        return f"\x00{len(codes) - 1}\x00"

    text = _heading_prose(_INLINE_CODE_SPLIT_RE.sub(stash, text))
    text = re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], text)
    return re.sub(r"\s+", " ", text).strip() if collapse else text.strip()


def _heading_prose(text: str) -> str:
    r"""A heading's text outside code: tags and emphasis marks gone, then escapes read.

    Emphasis goes before escapes are read, so an escaped `\_` stays a character.
    """
    text = _HTML_TAG_RE.sub("", text)
    text = text.replace("**", "").replace("__", "")
    text = _EMPHASIS_RE.sub(lambda m: m.group(2), text)
    return re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)  # Markdown escapes


def parse_attr_list(content: str) -> list[tuple[str, str | None]] | None:
    """An attribute list's pairs as Python-Markdown's attr_list reads them, or None if it is none.

    `#x` gives `("id", "x")`, `.x` gives `(".", "x")`, a bare word `(word, None)`. Text the
    grammar cannot read before a `}` makes it no attribute list (attr_list's strict mode: the
    braces then stay as text); other unreadable text is skipped, as attr_list does.
    """
    pairs: list[tuple[str, str | None]] = []
    pos = 0
    while pos < len(content):
        m = _ATTR_TOKEN_RE.match(content, pos)
        if m is None or m.end() == pos:
            return None if "}" in content[pos:] else pairs
        pos = m.end()
        if m.group(1) is not None:
            pairs.append((m.group(1), m.group(2)))
        elif m.group(3) is not None:
            pairs.append((m.group(3), m.group(4)))
        elif m.group(5) is not None:
            pairs.append((m.group(5), m.group(6)))
        elif m.group(7) is not None:
            word = m.group(7)
            if word.startswith("#"):
                pairs.append(("id", word[1:]))
            elif word.startswith("."):
                pairs.append((".", word[1:]))
            else:
                pairs.append((word, None))
    return pairs


def attr_list_id(pairs: list[tuple[str, str | None]]) -> str:
    """The id an attribute list sets (`#x` or `id=x`; the last one wins, as in attr_list), or ``."""
    ids = [v for k, v in pairs if k == "id" and v]
    return ids[-1] if ids else ""


def split_heading_attrs(heading: str) -> tuple[str, str]:
    """A heading's text and the explicit id of its attribute list (`## Title {#id}`), or ``."""
    m = _HEADING_ATTRS_RE.search(heading)
    if not m:
        return heading, ""
    pairs = parse_attr_list((m.group(1) or m.group(2)).rstrip(" "))
    if pairs is None:
        return heading, ""
    return heading[: m.start()].rstrip(), attr_list_id(pairs)


def resolve_reference_links(text: str) -> str:
    """Reference links read as links or text: `[x][ref]` with a definition becomes `[x](url)`.

    A shortcut reference `[ref]` with a definition is a link too (`[ref](url)`); without one
    it is the text `[ref]` as written (a checkbox, a placeholder).

    Without a definition the target names an object, not a URL (autorefs: `[BaseModel][pkg.Obj]`,
    `[pkg.Obj][]`); the site renders such a link as its text, and so does this reader. Lines that
    only define a reference are dropped. Code is left alone.
    """
    if "][" not in text and "]: " not in text:
        return text
    defs: dict[str, str] = {}
    if "]: " in text:
        for d in _REF_DEF_LINE_RE.finditer(text):
            defs[d.group(1).strip().lower()] = d.group(2).strip("<>")
        if not defs and "][" not in text:
            return text

    def repl(m: re.Match[str]) -> str:
        label, ref = m.group(2), m.group(3).strip() or m.group(2)
        url = defs.get(ref.lower())
        if url is None:
            return label
        return f"{m.group(1)}[{label}]({url})"

    def shortcut(m: re.Match[str]) -> str:
        url = defs.get(" ".join(m.group(2).lower().split()))
        return m.group(0) if url is None else f"{m.group(1)}[{m.group(2)}]({url})"

    out: list[str] = []
    for chunk, is_code in _split_code(text):
        if is_code:
            out.append(chunk)
            continue
        lines = [ln for ln in chunk.split("\n") if not (defs and _REF_DEF_RE.match(ln))]
        chunk = _REF_LINK_RE.sub(repl, "\n".join(lines))
        if defs and "[" in chunk:
            chunk = _SHORTCUT_REF_RE.sub(shortcut, chunk)
        out.append(chunk)
    return "".join(out)


def resolve_footnotes(text: str) -> str:
    """Footnotes as text: `[^1]: The note` reads `[1] The note` and a reference `[^1]` reads `[1]`.

    A footnote is no reference definition: its text is shown (at the page's end), so it must not
    be dropped with the definitions. Code is left alone.
    """
    if "[^" not in text:
        return text
    out: list[str] = []
    for chunk, is_code in _split_code(text):
        if not is_code:
            chunk = _FOOTNOTE_DEF_RE.sub(r"\1[\2] ", chunk)
            chunk = _FOOTNOTE_REF_RE.sub(r"[\1]", chunk)
        out.append(chunk)
    return "".join(out)


def _split_code(text: str) -> list[tuple[str, bool]]:
    """The text cut into prose and fenced code, in order (inline code spans stay in the prose)."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in _CODE_FENCE_RE.finditer(text):
        out.append((text[pos : m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    out.append((text[pos:], False))
    return out


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


# HTML a page writes inline (Markdown passes it through; the site shows its text): a closed
# set of element names, so a placeholder in prose (`pip install <package>`) is never taken.
HTML_TEXT_TAGS = (
    "a abbr acronym b big blockquote br button center cite code dd del details dfn div dl dt em "
    "figcaption figure font form h1 h2 h3 h4 h5 h6 hr i img input ins kbd label li mark ol p "
    "picture pre q "
    "s samp section small source span strike strong sub summary sup table tbody td tfoot th "
    "thead tr tt u ul var video"
).split()
_HTML_INLINE_RE = re.compile(
    r"<(/?)(" + "|".join(HTML_TEXT_TAGS) + r")\b((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)/?>",
    re.IGNORECASE,
)
_HTML_LINK_RE = re.compile(
    r"<a\b[^<>]*?\bhref=(?:\"([^\"]*)\"|'([^']*)')[^<>]*>((?:(?!</a>).)*?)</a>", re.I
)
_HTML_ALT_RE = re.compile(r"\balt=(?:\"([^\"]*)\"|'([^']*)')", re.I)
_INLINE_CODE_SPLIT_RE = re.compile(r"(`+[^`]*`+)")
# Elements whose content is no text of the page (embedded media, drawings, scripts), and a
# page's `<head>` (Docusaurus moves it, with its `<title>` and `<meta>`, into the HTML head;
# browsers show none of it).
_HTML_EMBED_RE = re.compile(
    r"<(svg|iframe|script|style|object|video|audio|head)\b[^<>]*?(?:/>|>.*?</\1\s*>)", re.I | re.S
)


def _html_as_text(line: str) -> str:
    """A line's inline HTML as the site shows it (code spans untouched).

    Links stay links, images become their alt text, bold / italic / code become Markdown, and
    other tags are dropped with their text kept.
    """
    parts = _INLINE_CODE_SPLIT_RE.split(line)
    for i in range(0, len(parts), 2):
        part = parts[i]
        if "<" not in part:
            continue
        part = _HTML_LINK_RE.sub(
            lambda m: (
                f"[{m.group(3).strip()}]({m.group(1) or m.group(2) or ''})"
                if m.group(3).strip()
                else ""
            ),
            part,
        )
        parts[i] = _HTML_INLINE_RE.sub(_html_tag_text, part)
    return "".join(parts)


def _html_tag_text(m: re.Match[str]) -> str:
    name = m.group(2).lower()
    if name == "img":
        alt = _HTML_ALT_RE.search(m.group(3))
        return (alt.group(1) or alt.group(2) or "") if alt else ""
    if name in ("b", "strong"):
        return "**"
    if name in ("i", "em"):
        return "*"
    if name in ("code", "kbd", "samp", "tt", "var"):
        return "`"
    if name in ("br", "hr", "td", "th", "li", "dd", "dt"):
        return " "
    return ""


def drop_comments(body: str) -> str:
    """HTML and MDX comments removed outside code: in a code sample a comment is its text."""
    if "<!--" not in body and "{/*" not in body:
        return body
    out: list[str] = []
    pos = 0
    for m in _HTML_COMMENT_RE.finditer(mask_code(body)):
        out.append(body[pos : m.start()])
        pos = m.end()
    out.append(body[pos:])
    return "".join(out)


def drop_embedded_html(body: str) -> str:
    """Embedded media, drawings and scripts (`<svg>…</svg>`, `<iframe … />`) removed, outside code."""
    if "<" not in body:
        return body
    parts = re.split(
        r"(^[ \t]*(?:`{3,}|~{3,}).*?^[ \t]*(?:`{3,}|~{3,})[ \t]*$)", body, flags=re.M | re.S
    )
    return "".join(p if i % 2 else _HTML_EMBED_RE.sub("", p) for i, p in enumerate(parts))


def _clean_prose(line: str) -> str:
    """Unwrap JSX components to their text, keeping a component's title/label attribute."""
    if "<" not in line:  # no tag: most lines
        return line
    line = _html_as_text(line)

    # Code spans keep their `<placeholder>`: a tag starting inside one is code.
    code = [c.span() for c in _INLINE_CODE_SPLIT_RE.finditer(line)] if "`" in line else []
    out: list[str] = []
    pos = 0
    for m in _JSX_TAG_START_RE.finditer(line):
        if m.start() < pos or any(start <= m.start() < end for start, end in code):
            continue
        if m.group(1):  # a closing tag: `</Name>`
            end = line.find(">", m.end())
            if end < 0 or line[m.end() : end].strip():
                continue
            end += 1
        else:
            tag = scan_tag(line, m.start())
            if not tag.closed:
                continue
            end = tag.end
        out.append(line[pos : m.start()])
        attr = None if m.group(1) else _TITLE_ATTR_RE.search(line, m.start(), end)
        if attr:
            title = next(g for g in attr.groups() if g is not None)
            out.append(f"**{title}** " if title else "")
        pos = end
    out.append(line[pos:])
    return "".join(out)


def outside_code(line: str, rewrite: Callable[[str], str]) -> str:
    """A line with `rewrite` applied to its text outside inline code spans.

    Code shows what it says: inline syntax of a generator (entities, emoji, keys) inside a code
    span stays as written.
    """
    if "`" not in line:
        return rewrite(line)
    parts = _INLINE_CODE_SPLIT_RE.split(line)
    for i in range(0, len(parts), 2):
        if parts[i]:
            parts[i] = rewrite(parts[i])
    return "".join(parts)


def decode_entities(line: str) -> str:
    """Character references (`&lt;`, `&mdash;`, `&#8212;`) as the characters the site shows.

    Run after tags are read, so `&lt;div&gt;` stays text; code spans keep theirs (code shows
    `&amp;` as written).
    """
    if "&" not in line:
        return line
    return outside_code(line, lambda part: html.unescape(part) if "&" in part else part)


# `import Name from '/snippets/x.mdx'` (MDX), and where `<Name />` puts that file's content.
# A line may hold several import statements (`import A from './a.mdx'; import B from …`), and
# the path is a JS string literal, so it may carry escapes (`'./\\_part.md'`).
# The statement is found by its keyword (a literal the regex engine scans for fast); it must then
# start a line or follow another statement's `;` (`_starts_statement`).
_MDX_IMPORT_RE = re.compile(
    r"""import\s+([A-Za-z_$][\w$]*)\s+from\s+(['"])((?:\\.|(?!\2)[^\\\n])+)\2[ \t]*;?"""
)
_JS_ESCAPE_RE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r?\n|.)", re.S)
_JS_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
MAX_IMPORT_DEPTH = 3
# Lines that mark where an imported file's text starts and ends in the page (private-use
# characters: no page writes them). Docusaurus compiles each imported file on its own, so its
# headings get ids of their own, not suffixed against the page's (`Anchors` per part).
PART_START = "\ue000part\ue000"
PART_END = "\ue000/part\ue000"

ImportLoader = Callable[[str], str | None]


def js_unescape(literal: str) -> str:
    r"""The value of a JS string literal's body: `\_` is `_`, `\n` a newline, `\u0041` `A`."""

    def repl(m: re.Match[str]) -> str:
        esc = m.group(1)
        if esc.startswith("u{"):
            return chr(min(int(esc[2:-1], 16), 0x10FFFF))
        if esc[0] in "ux" and len(esc) > 1:
            return chr(int(esc[1:], 16))
        if esc in ("\n", "\r\n"):
            return ""  # a line continuation
        return _JS_SIMPLE_ESCAPES.get(esc, esc)

    return _JS_ESCAPE_RE.sub(repl, literal) if "\\" in literal else literal


def _starts_statement(text: str, i: int) -> bool:
    """Whether only spaces or tabs stand between `i` and the line's start or a `;` before it."""
    j = i
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    return j == 0 or text[j - 1] in "\n;"


def mdx_imports(body: str) -> dict[str, str]:
    """The Markdown files a page imports, by the name it imports them as (the path unescaped)."""
    out: dict[str, str] = {}
    for m in _MDX_IMPORT_RE.finditer(body):
        if not _starts_statement(body, m.start()):
            continue
        spec = js_unescape(m.group(3))
        if spec.endswith((".md", ".mdx")):
            out[m.group(1)] = spec
    return out


def inline_imports(body: str, load: ImportLoader, depth: int = 0, mark: bool = False) -> str:
    """MDX imports of Markdown files resolved: each `<Name />` replaced by the imported file's body.

    Mintlify and Docusaurus pages import shared snippets (code samples, tabs of examples) and
    place them with a component tag; without this the page would lose them. `load(spec)` gives
    the imported file's text, or None (the tag is then dropped, as before). `mark` puts each
    imported text between `PART_START` / `PART_END` lines (its headings get their own ids).
    """
    names = mdx_imports(body)
    if not names:
        return body
    tag = re.compile(r"<(" + "|".join(map(re.escape, names)) + r")\b[^<>]*/>")

    def repl(m: re.Match[str]) -> str:
        text = load(names[m.group(1)])
        if text is None:
            return ""
        _, inner = split_frontmatter(text.replace("\r\n", "\n"))
        if depth + 1 < MAX_IMPORT_DEPTH:
            inner = inline_imports(inner, load, depth + 1, mark)
        inner = inner.strip("\n")
        if mark:
            inner = f"{PART_START}\n{inner}\n{PART_END}"
        return "\n" + inner + "\n"

    return tag.sub(repl, body)


# -- what Docusaurus' MDX loader does to a file before MDX reads it ---------------------------

# A fence of exactly 3 or 4 backticks whose info is `mdx-code-block` holds MDX of the page, not
# code (@docusaurus/utils `unwrapMdxCodeBlocks`: the same patterns, run over the whole file).
_MDX_CODE_BLOCK_RES = tuple(
    re.compile(
        rf"(?P<begin>\A|\r?\n)(?P<indent> *){ticks}(?P<spaces> *)mdx-code-block\r?\n"
        rf"(?P<children>.*?)\r?\n(?P<indent_end> *){ticks}(?P<end>\r?\n|\Z)",
        re.S,
    )
    for ticks in ("```", "````")
)
# Characters of a heading's id that its text does not show, between these marks (private-use
# characters: no page writes them); see `mark_heading_comments`.
_SLUG_ONLY_START, _SLUG_ONLY_END = "\ue001", "\ue002"
_SLUG_ONLY_RE = re.compile(f"{_SLUG_ONLY_START}([^{_SLUG_ONLY_END}]*){_SLUG_ONLY_END}")
_ATX_LINE_RE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t][^\n]*", re.M)
# A comment in a heading line, with the spaces before it: an MDX expression of comments only
# (`{/* note */}`, `{ /* a */ /* b */ }`) or an HTML comment.
_HEADING_COMMENT_RE = re.compile(
    r"([ \t]*)(?<!\\)(?:\{(\s*/\*.*?\*/(?:\s*/\*.*?\*/)*\s*)\}|<!--.*?-->)"
)


def unwrap_mdx_code_blocks(text: str) -> str:
    """The text with each `mdx-code-block` fence replaced by its content, as Docusaurus does."""
    if "mdx-code-block" not in text:
        return text
    for pattern in _MDX_CODE_BLOCK_RES:
        text = pattern.sub(lambda m: m["begin"] + m["children"] + m["end"], text)
    return text


def mark_heading_comments(text: str) -> str:
    """A heading's comments as the characters they add to its Docusaurus id, marked unshown.

    Docusaurus takes a heading's id from the text of all its parts, and an MDX comment's text
    is what its braces hold (an HTML comment's is none, but the spaces before it stay):
    `## Title {/* note */}` is `title--note-` (its TOC even shows `Title /* note */`), while the
    page shows `Title`. Comments are hidden text, dropped before a reader sees the page, so each
    becomes here the github-slugger characters it adds (no word of it survives the slug rule
    in another form) between marks the reader counts in the id and never shows. A last comment
    `{/* #id */}` is the heading's explicit id instead (tools/sources/hidden.py).
    """
    if "{/*" not in text and "<!--" not in text:
        return text
    front = _FRONTMATTER_RE.match(text)
    start = front.end() if front else 0
    masked = mask_code(text[start:])
    edits: list[tuple[int, int, str]] = []
    for line in _ATX_LINE_RE.finditer(masked):
        if HEADING_ID_COMMENT_RE.fullmatch(line.group(0)):
            continue
        for m in _HEADING_COMMENT_RE.finditer(line.group(0)):
            added = (m.group(1) + (m.group(2) or "")).replace(" ", "-")
            mark = f"{_SLUG_ONLY_START}{github(added)}{_SLUG_ONLY_END}"
            edits.append((start + line.start() + m.start(), start + line.start() + m.end(), mark))
    for begin, end, mark in reversed(edits):
        text = text[:begin] + mark + text[end:]
    return text


def without_slug_marks(text: str) -> str:
    """The text as it shows, without the id characters `mark_heading_comments` wrote."""
    return _SLUG_ONLY_RE.sub("", text) if _SLUG_ONLY_START in text else text


def docusaurus_source(text: str) -> str:
    """A Docusaurus page's text as its MDX loader reads it (before hidden text is dropped).

    `mdx-code-block` fences unwrapped (their content is MDX: its hidden text must go too) and
    heading comments kept as the id characters they add (`mark_heading_comments`).
    """
    return mark_heading_comments(unwrap_mdx_code_blocks(text))


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
            source = _clean_prose(source)
            slug_source = source
            if marked is not raw:  # comments that count in the id (`mark_heading_comments`)
                whole = _HEADING_RE.match(_SLUG_ONLY_RE.sub(r"\1", marked).strip())
                slug_source = _clean_prose(whole.group(2)) if whole else source
            # Character references are decoded before the slug, as every generator does.
            heading = decode_entities(plain_heading(source).strip("*").strip())
            slug_text = decode_entities(
                plain_heading(slug_source, collapse=False).strip("*").strip()
            )
            anchor = anchors.take(explicit) if explicit else anchors.heading(slug_text)
            current = Section(heading, len(h.group(1)), "", anchor)
            buf = []
            continue
        cleaned = decode_entities(_clean_prose(raw))
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
