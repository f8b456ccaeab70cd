"""Remove text a reader of the rendered page never sees, before a page or article is indexed.

A page can carry text that no browser shows but a model reads: elements hidden by `hidden`,
`display:none`, `visibility:hidden` or `aria-hidden="true"`, `<script>`/`<style>`/`<template>`,
HTML and MDX comments, Markdown's `[//]: # (…)` comment idiom, Unicode tag characters, zero-width
and bidi controls, and front matter no reader can parse. `strip_hidden` drops all of that once, at
ingestion (tools/sources/corpus.py for folders and llms.txt mirrors, tools/sources/kb_http.py for
help-center articles), so every consumer — tools, snippets, the offline answer, the researchers —
reads the same clean text. Visible text is left byte for byte as it was; code (fenced blocks,
inline code spans) only loses invisible characters.

HTML is tokenised with the standard library's `html.parser.HTMLParser` rather than lxml or
html5lib: those build a tree and serialise it again, which would rewrite the Markdown around the
tags, while this module must delete exact source ranges and leave everything else unchanged, and
only the stdlib tokenizer reports where each tag starts. Attributes are read by `_scan_tag`, which
also understands JSX values (`style={{display: "none"}}`, `onClick={() => x}`) that an HTML
tokenizer would cut at the first `>`.
"""

from __future__ import annotations

import bisect
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

import yaml

log = logging.getLogger(__name__)

# -- invisible characters ------------------------------------------------------------------------

# Format characters (Unicode category Cf) and the other code points that render as nothing:
# C0/C1 controls but tab and newlines, soft hyphen, the combining grapheme joiner, Hangul and
# Khmer fillers, Mongolian vowel separator, zero-width space/joiners and LRM/RLM, bidi embeddings,
# overrides and isolates, word joiner and invisible operators, BOM, interlinear annotations,
# shorthand format controls, musical format controls, tag characters and the supplementary
# variation selectors (enough of them encode any text after one emoji). Cf characters that are
# visible (the Arabic number signs U+0600–0605, U+06DD, U+070F, U+0890–0891, U+08E2 and their
# Kaithi twins) are not listed; tests check the list against `unicodedata`.
_INVISIBLE_BMP = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
)
_INVISIBLE_ASTRAL = (
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
_INVISIBLE = _INVISIBLE_BMP + _INVISIBLE_ASTRAL
_VARIATION_SELECTORS = "\ufe00-\ufe0f"
# One character class (a search with alternatives is several times slower on a page).
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}{_VARIATION_SELECTORS}\u2028\u2029]")
# The same test, quicker: the basic plane's part of the class, and "any astral character".
_INVISIBLE_BMP_RE = re.compile(f"[{_INVISIBLE_BMP}{_VARIATION_SELECTORS}\u2028\u2029]")
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
_JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ: needed between letters of some scripts and in emoji


def _keeps_joiner(text: str, i: int) -> bool:
    """A lone ZWNJ/ZWJ between two non-ASCII letters, marks or symbols (Persian, Indic, emoji)."""
    if i == 0 or i + 1 >= len(text):
        return False
    before, after = text[i - 1], text[i + 1]
    if before.isascii() or after.isascii() or before in _JOINERS or after in _JOINERS:
        return False
    return unicodedata.category(before)[0] in "LMS" and unicodedata.category(after)[0] in "LMS"


def strip_invisible(text: str) -> str:
    """Drop characters that render as nothing (see `_INVISIBLE`); newlines and tabs stay.

    A run of variation selectors keeps its first (emoji presentation needs one); line and
    paragraph separators become newlines.
    """
    if not _INVISIBLE_BMP_RE.search(text) and not _ASTRAL_RE.search(text):
        return text  # the common case

    def repl(m: re.Match[str]) -> str:
        ch = m.group(0)
        if ch in "\u2028\u2029":
            return "\n"
        if "\ufe00" <= ch <= "\ufe0f":  # keep the first of a run
            i = m.start()
            return "" if i and "\ufe00" <= m.string[i - 1] <= "\ufe0f" else ch
        if ch in _JOINERS and _keeps_joiner(m.string, m.start()):
            return ch
        return ""

    return _INVISIBLE_RE.sub(repl, text)


# -- front matter --------------------------------------------------------------------------------

_YAML_BLOCK_RE = re.compile(r"\A\s*---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_TOML_BLOCK_RE = re.compile(r"\A\s*\+\+\+[ \t]*\n(.*?)\n\+\+\+[ \t]*(?:\n|\Z)", re.DOTALL)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FRONT_MATTERS = 2  # what the Markdown reader reads: a KB article may wrap its page's block


def _yaml_kind(block: str) -> str:
    """`mapping`, `prose` (a plain string or nothing) or `other` (a YAML error, a list, a number)."""
    try:
        data = yaml.load(block, Loader=_YAML_LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        return "other"
    if isinstance(data, dict):
        return "mapping"
    return "prose" if isinstance(data, str) or data is None else "other"


def split_front_matter(text: str) -> tuple[str, str]:
    """(front matter the reader parses, the rest); a leading block nobody can read is dropped.

    A leading YAML block that parses to a mapping is metadata the Markdown reader reads (title,
    slug, id) and is kept as it is, as is a second one stacked under it (a KB article wrapping its
    page). A first block that does not parse, or parses to a list or number, would be indexed as
    page text, so it goes, as does TOML (`+++`) front matter, which no reader here parses. One that
    reads as a plain sentence is prose between two rules and stays.
    """
    kept: list[str] = []
    rest = text
    for n in range(MAX_FRONT_MATTERS):
        m = _YAML_BLOCK_RE.match(rest) or (_TOML_BLOCK_RE.match(rest) if n == 0 else None)
        if m is None:
            break
        kind = _yaml_kind(m.group(1)) if m.re is _YAML_BLOCK_RE else "toml"
        if kind == "mapping":
            kept.append(m.group(0))
        elif n == 0 and kind != "prose":
            # A warning: the page's metadata (title, slug) is lost, which its author should fix.
            log.warning("unreadable frontmatter dropped, not indexed as text: %.60r", m.group(1))
        else:
            break
        rest = rest[m.end() :]
    return "".join(kept), rest


# -- code: masked so that nothing in it is read as markup ----------------------------------------

# Any indent, as the MDX reader allows: fences inside JSX components are indented.
_FENCE_OPEN_RE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
_TICKS_RE = re.compile(r"`+")
_TAG_START_RE = re.compile(r"<[A-Za-z]")
_STRICT_ATTR_RE = re.compile(r"[A-Za-z_:@][\w.:-]*")
_PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t]*\n")
_ESCAPED_RE = re.compile(r"\\+[<\[{]")
# CommonMark autolinks (`<https://x.org/a>`, `<me@x.org>`): a link, never a tag.
_AUTOLINK_RE = re.compile(
    r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>"
    r"|<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>"
)
FILL = "x"  # what code and comments look like to the tokenizer: no markup character, same length


def _fenced_ranges(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks, each closed by a fence of its kind and length or by the end of text."""
    ranges: list[tuple[int, int]] = []
    pos = 0
    start: int | None = None
    fence = ""
    indent = 0
    for line in text.splitlines(keepends=True):
        if ("`" not in line and "~" not in line) or (start is not None and fence[0] not in line):
            pos += len(line)  # no fence can open or close here: most lines
            continue
        body = line.rstrip("\n")
        if start is None:
            m = _FENCE_OPEN_RE.match(body)
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                start, fence, indent = pos, m.group(1), len(body) - len(body.lstrip())
        else:
            stripped = body.strip()
            run = len(stripped) - len(stripped.lstrip(fence[0]))
            deeper = len(body) - len(body.lstrip()) >= indent + 4  # a line of the code
            if run >= len(fence) and not stripped[run:].strip() and not deeper:
                ranges.append((start, pos + len(line)))
                start = None
        pos += len(line)
    if start is not None:
        ranges.append((start, len(text)))
    return ranges


def _code_span_ranges(text: str) -> list[tuple[int, int]]:
    """Inline code spans: a backtick run closed by the next run as long in the same paragraph.

    Read left to right as CommonMark reads them: a tag that starts first wins over a backtick
    inside it (`<span title="`" hidden>` is a tag, not the start of a span), and a span that starts
    first wins over a tag inside it. `text` has its fenced blocks masked already.
    """
    if "`" not in text:
        return []
    runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    breaks = [m.start() for m in _PARAGRAPH_BREAK_RE.finditer(text)]
    tag_starts = [m.start() for m in _TAG_START_RE.finditer(text)] if "<" in text else []
    ranges: list[tuple[int, int]] = []
    pos = t = i = 0
    while i < len(runs):
        start, end = runs[i]
        while t < len(tag_starts) and tag_starts[t] < start:
            if tag_starts[t] >= pos:
                pos = max(pos, _tag_end(text, tag_starts[t], breaks))
            t += 1
        if start < pos:  # inside a tag
            i += 1
            continue
        same = by_length[end - start]
        k = bisect.bisect_right(same, i)
        if k < len(same):
            close = runs[same[k]]
            b = bisect.bisect_left(breaks, end)
            if b == len(breaks) or breaks[b] >= close[0]:
                ranges.append((start, close[1]))
                pos = close[1]
                i = same[k]
        i += 1
    return ranges


def mask_code(text: str) -> str:
    """Markdown `text` with its fenced code and inline code spans masked (same length, FILL).

    Where a Markdown pattern may match only outside code, it is searched in this text and its
    positions used on the original.
    """
    masked = _mask(text, _fenced_ranges(text))
    return _mask(masked, _code_span_ranges(masked))


def _tag_end(text: str, start: int, breaks: list[int]) -> int:
    """Where the tag at `start` ends; `start` when it is none (unclosed, or odd attribute names)."""
    tag = _scan_tag(text, start)
    if not tag.closed or any(not _STRICT_ATTR_RE.fullmatch(k) for k, _ in tag.written):
        return start
    b = bisect.bisect_left(breaks, start)
    return tag.end if b == len(breaks) or breaks[b] >= tag.end else start


def _mask_escaped(m: re.Match[str]) -> str:
    """An odd run of backslashes escapes the character after it."""
    run = m.group(0)
    return run[:-1] + FILL if (len(run) - 1) % 2 else run


def _mask(text: str, ranges: list[tuple[int, int]]) -> str:
    """`text` with each range replaced by FILL of the same length, newlines kept."""
    if not ranges:
        return text
    out: list[str] = []
    pos = 0
    for start, end in ranges:
        out.append(text[pos:start])
        out.append("\n".join(FILL * len(line) for line in text[start:end].split("\n")))
        pos = end
    out.append(text[pos:])
    return "".join(out)


# -- comments ------------------------------------------------------------------------------------

# HTML comments as browsers read them (`-->` or `--!>` ends one; `<!-->` and `<!--->` are empty;
# an unclosed one runs to the end), bogus comments (`<?…>`, `<!…>`: doctype, CDATA), and MDX
# comments `{/* … */}`.
_COMMENT_RE = re.compile(r"<!--(?:-?>|.*?(?:--!?>|\Z))|<\?[^>]*(?:>|\Z)|<![^>]*(?:>|\Z)", re.DOTALL)
_MDX_COMMENT_RE = re.compile(
    r"<!--(?:-?>|.*?(?:--!?>|\Z))|<\?[^>]*(?:>|\Z)|<![^>]*(?:>|\Z)|\{/\*.*?\*/\}", re.DOTALL
)


# An MDX comment that ends a heading and starts with `#` is the heading's explicit id in
# Docusaurus 3 (`## Title {/* #my-id */}`; its first word is the id): it is kept as the `{#id}`
# the readers understand, not dropped as a comment.
HEADING_ID_COMMENT_RE = re.compile(
    r"^([ \t]{0,3}#{1,6}[ \t].*?)[ \t]*\{/\*\s*#([^\s*]+)(?:[^*]|\*(?!/))*\*/\}[ \t]*$", re.M
)


def _heading_id_edits(masked: str) -> list[tuple[int, int, str]]:
    """The `{/* #id */}` heading ids of the text, each to be written `{#id}`."""
    if "{/*" not in masked:
        return []
    return [
        (m.end(1), m.end(0), f" {{#{m.group(2)}}}") for m in HEADING_ID_COMMENT_RE.finditer(masked)
    ]


def _comment_ranges(masked: str, markdown: bool) -> list[tuple[int, int]]:
    pattern = _MDX_COMMENT_RE if markdown else _COMMENT_RE
    return [(m.start(), m.end()) for m in pattern.finditer(masked)]


# -- Markdown link reference definitions -----------------------------------------------------------

_REF_DEF_RE = re.compile(
    r"^ {0,3}\[((?:[^\]\\\n]|\\.)+)\]:[ \t]*(<[^>\n]*>|\S*)[ \t]*(.*)$", re.MULTILINE
)
# CommonMark lets the destination follow on the next line (`[foo]:` ⏎ `/url "title"`). That
# line is a definition's only when nothing but a title follows the destination: otherwise it
# is a paragraph's (`[foo]:` ⏎ `- an item` defines nothing).
_REF_DEF_NEXT_LINE_RE = re.compile(
    r"^ {0,3}\[((?:[^\]\\\n]|\\.)+)\]:[ \t]*\n[ \t]*(<[^>\n]*>|[^\s<]\S*)"
    r"[ \t]*((?<=[ \t])(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$",
    re.MULTILINE,
)
_EMPTY_DESTINATIONS = frozenset({"#", "<>", "<#>"})


def _label(text: str) -> str:
    return " ".join(text.lower().split())


# An inline link's or image's title: `[text](url "title")` shows "title" only as a tooltip.
_LINK_TITLE_RE = re.compile(
    r"(\]\([ \t]*(?:<[^>\n]*>|[^\s()]+))[ \t\n]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))[ \t]*\)"
)


def _link_title_edits(masked: str) -> list[tuple[int, int, str]]:
    """Edits that drop inline link and image titles, keeping text and URL."""
    return [(m.start(), m.end(), m.group(1) + ")") for m in _LINK_TITLE_RE.finditer(masked)]


def _may_start_definition(text: str, m: re.Match[str], before: re.Match[str] | None) -> bool:
    """A definition cannot interrupt a paragraph: the line before it is blank, a heading or one."""
    start = text.rfind("\n", 0, max(m.start() - 1, 0)) + 1 if m.start() else 0
    previous = text[start : max(m.start() - 1, 0)] if m.start() else ""
    if not previous.strip() or previous.lstrip().startswith("#"):
        return True
    return before is not None and before.end() >= m.start() - 1


def _ref_def_edits(masked: str, text: str) -> list[tuple[int, int, str]]:
    """Edits for reference definitions, which a renderer never shows (`text`: `masked` unmasked).

    `[//]: # (…)` (any label, an empty `<>` or `#` destination) is the Markdown comment idiom:
    removed. A definition no link uses is removed whole; a used one keeps its label and URL but
    loses its title (shown only as a tooltip). As in CommonMark, a line without a destination
    (`[label]:`, on that line and the next) or one that would interrupt a paragraph is no
    definition: it is text, and so is a footnote (`[^1]: text`). A used definition written
    over two lines is put on one (`[label]: url`), the form the Markdown reader reads.
    """
    edits: list[tuple[int, int, str]] = []
    found = [*_REF_DEF_RE.finditer(masked), *_REF_DEF_NEXT_LINE_RE.finditer(masked)]
    # `[^x]: text` is a footnote (its text is shown), not a link reference definition.
    defs = sorted(
        (m for m in found if m.group(2) and m.group(1)[0] != "^"), key=lambda m: m.start()
    )
    defs = [
        m
        for i, m in enumerate(defs)
        if _may_start_definition(masked, m, defs[i - 1] if i else None)
    ]
    if not defs:
        return edits
    kept = [0, *(i for m in defs for i in m.span()), len(masked)]
    outside = "".join(masked[kept[i] : kept[i + 1]] for i in range(0, len(kept), 2)).lower()
    for m in defs:
        label, title = m.group(1), (m.group(3) or "").strip()
        dest = text[m.start(2) : m.end(2)]  # an autolink destination is masked in `masked`
        end = m.end() + 1 if masked[m.end() : m.end() + 1] == "\n" else m.end()
        if dest in _EMPTY_DESTINATIONS or f"[{_label(label)}]" not in " ".join(outside.split()):
            edits.append((m.start(), end, ""))
        elif title or "\n" in m.group(0):
            edits.append((m.start(), m.end(), f"[{text[m.start(1) : m.end(1)]}]: {dest}"))
    return edits


# -- elements --------------------------------------------------------------------------------------

VOID = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr".split()
)
# SVG's <desc> is read by screen readers only, like an aria label.
ALWAYS_HIDDEN = frozenset({"script", "style", "template", "desc"})
# Attributes of an HTML element whose text a reader sees (alt, value, placeholder) or that readers
# need (links, class names the code language, ids and names are anchors). Every other attribute
# of an HTML tag that stays (title tooltips, data-*, event handlers, styling) is text no reader
# sees. JSX components keep all their props: which ones a component shows (a Card's title) is
# the Markdown reader's business.
KEPT_ATTRIBUTES = frozenset(
    "alt href src id name class open lang dir colspan rowspan start type value placeholder".split()
)
# A start tag closes an open <p> (HTML's implied end tags), as far as Markdown pages need it.
_CLOSES_P = frozenset(
    "address article aside blockquote details div dl fieldset figure footer form h1 h2 h3 h4 h5 h6 "
    "header hr main nav ol p pre section table ul".split()
)
_ATTR_NAME_RE = re.compile(r"[^\s\"'<>/={}]+")
_CSS_COMMENT_RE = re.compile(r"/\*.*?\*/", re.DOTALL)
_CAMEL_RE = re.compile(r"(?<=[a-z])([A-Z])")
_OFFSCREEN_RE = re.compile(r"^-\d{3,}")


@dataclass
class _Tag:
    """A start tag as `_scan_tag` reads it: where it ends and its attributes (raw values)."""

    end: int
    attrs: dict[str, str | None] = field(default_factory=dict)  # names in lower case
    written: list[tuple[str, str | None]] = field(default_factory=list)  # as written
    self_closing: bool = False
    multiline: bool = False
    closed: bool = False  # its `>` was found


def _scan_value(text: str, i: int) -> int:
    """End of an attribute value starting at `i`: quoted, a balanced `{…}` (JSX), or bare."""
    if i >= len(text):
        return i
    quote = text[i]
    if quote in "\"'":
        j = text.find(quote, i + 1)
        return len(text) if j < 0 else j + 1
    if quote == "{":
        return _scan_braces(text, i)
    j = i
    while j < len(text) and not text[j].isspace() and text[j] != ">":
        j += 1
    return j


# After one of these (or at an expression's start) a quote opens a JS string; after a word
# character it is text (an apostrophe in JSX children: `{<>the item's note</>}`).
_JS_STRING_AFTER = frozenset("{([,:=?!&|+-*/%<~^;")


def _js_string_end(text: str, j: int) -> int:
    """End of the JS string literal whose quote is at `j` (backslash escapes skipped)."""
    quote = text[j]
    k = j + 1
    while k < len(text):
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == quote:
            return k + 1
        if c == "\n" and quote != "`":
            return k  # a quote and string cannot span lines: it was text after all
        k += 1
    return len(text)


def _scan_braces(text: str, i: int) -> int:
    """End of a balanced JSX expression `{…}` at `i`: braces nest, JS strings are skipped.

    A quote opens a string only where a JS string can start (not after a word character), so an
    apostrophe in JSX text inside the expression does not swallow the rest of the page.
    """
    depth = 0
    j = i
    prev = "{"
    while j < len(text):
        c = text[j]
        if c == "`" or (c in "\"'" and prev in _JS_STRING_AFTER):
            j = _js_string_end(text, j)
            prev = "a"
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        if not c.isspace():
            prev = c
        j += 1
    return len(text)


def _scan_tag(text: str, start: int) -> _Tag:
    """Read the start tag at `start` (`<name …>`): attributes with quoted, bare or JSX values."""
    m = _ATTR_NAME_RE.match(text, start + 1)
    i = m.end() if m else start + 1
    tag = _Tag(end=len(text))
    while i < len(text):
        c = text[i]
        if c == ">":
            tag.end, tag.closed = i + 1, True
            break
        if c == "/" and text.startswith("/>", i):
            tag.end, tag.self_closing, tag.closed = i + 2, True, True
            break
        if c.isspace() or c == "/":
            i += 1
            continue
        name = _ATTR_NAME_RE.match(text, i)
        if name is None:  # a stray quote or brace: read it as a value so the scan moves on
            i = _scan_value(text, i)
            continue
        i = name.end()
        j = i
        while j < len(text) and text[j] in " \t\n":
            j += 1
        value: str | None = None
        if j < len(text) and text[j] == "=":
            j += 1
            while j < len(text) and text[j] in " \t\n":
                j += 1
            end = _scan_value(text, j)
            value, i = text[j:end], end
        tag.attrs[name.group(0).lower()] = value
        tag.written.append((name.group(0), value))
    tag.multiline = "\n" in text[start : tag.end]
    return tag


def scan_tag(text: str, start: int) -> _Tag:
    """The start tag at `start` as read with JSX values (its `end`, `closed`, attributes)."""
    return _scan_tag(text, start)


def _unquote(value: str | None) -> str:
    """An attribute value without its quotes or JSX braces, character references decoded, lower case."""
    v = unescape(value or "").strip()
    while len(v) >= 2 and (v[0] + v[-1]) in ('""', "''", "{}", "``"):
        v = v[1:-1].strip()
    return v.lower()


def _declarations(style: str) -> dict[str, str]:
    """`property: value` pairs of a CSS string or a JSX style object, properties in kebab case."""
    out: dict[str, str] = {}
    for part in re.split(r"[;,]", style):
        if ":" not in part:
            continue
        prop, value = part.split(":", 1)
        prop = _CAMEL_RE.sub(r"-\1", prop.strip().strip("\"'")).lower()
        value = value.replace("!important", "").strip().strip("\"'").strip().lower()
        out[prop] = value
    return out


def _zero(value: str) -> bool:
    return bool(re.fullmatch(r"[+-]?0*\.?0*(px|em|rem|%|pt|vh|vw)?", value)) and value != ""


def hidden_by_style(style: str | None) -> bool:
    """Whether an inline style keeps its element's text off the screen."""
    if not style:
        return False
    # Keep case for the camelCase JSX keys (fontSize), then compare values in lower case.
    raw = style.strip()
    while len(raw) >= 2 and (raw[0] + raw[-1]) in ('""', "''", "{}"):
        raw = raw[1:-1].strip()
    d = _declarations(_CSS_COMMENT_RE.sub("", unescape(raw)))
    if d.get("display") == "none" or d.get("visibility") in ("hidden", "collapse"):
        return True
    if _zero(d.get("opacity", "1")) or _zero(d.get("font-size", "1")):
        return True
    if d.get("color") == "transparent" or d.get("clip-path", "").startswith("inset(50%"):
        return True
    clipped = d.get("overflow") == "hidden" or d.get("clip", "").startswith("rect(0")
    if clipped and any(
        _zero(d.get(k, "1")) for k in ("height", "width", "max-height", "max-width")
    ):
        return True
    if d.get("position") in ("absolute", "fixed"):
        return any(_OFFSCREEN_RE.match(d.get(k, "")) for k in ("left", "top", "right"))
    return d.get("transform", "").replace(" ", "") in ("scale(0)", "scale(0,0)")


def is_hidden(name: str, attrs: dict[str, str | None]) -> bool:
    """Whether an element with these attributes renders none of its text."""
    if name in ALWAYS_HIDDEN:
        return True
    # A boolean attribute: present is hidden, whatever its value, but for JSX's hidden={false}.
    if "hidden" in attrs and (attrs["hidden"] or "").replace(" ", "") != "{false}":
        return True
    if _unquote(attrs.get("aria-hidden")) == "true":
        return True
    if name == "input" and _unquote(attrs.get("type")) == "hidden":
        return True
    return hidden_by_style(attrs.get("style"))


def _canonical_tag(text: str, start: int, tag: _Tag) -> str | None:
    """The tag on one line, an HTML element's with only `KEPT_ATTRIBUTES`; None if it is already.

    One line because the Markdown reader reads tags line by line.
    """
    m = _ATTR_NAME_RE.match(text, start + 1)
    name = m.group(0) if m else ""
    component = name[:1].isupper()
    kept = [(k, v) for k, v in tag.written if component or k.lower() in KEPT_ATTRIBUTES]
    if len(kept) == len(tag.written) and not tag.multiline:
        return None
    parts = [f"<{name}"]
    parts += [k if v is None else f"{k}={' '.join(v.split())}" for k, v in kept]
    return " ".join(parts) + (" />" if tag.self_closing else ">")


class _ElementScanner(HTMLParser):
    """Finds hidden elements (start of the start tag to the end of the end tag) and tags to tidy."""

    def __init__(self, masked: str) -> None:
        super().__init__(convert_charrefs=False)
        self.masked = masked
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", masked)]
        self.stack: list[tuple[str, int, bool]] = []
        self.removed: list[tuple[int, int]] = []
        self.rewritten: list[tuple[int, int, str]] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def _close(self, index: int, end: int) -> None:
        """Pop the stack down to `index`; hidden elements among the popped end at `end`."""
        for _name, start, hidden in self.stack[index:]:
            if hidden:
                self.removed.append((start, end))
        del self.stack[index:]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        scanned = _scan_tag(self.masked, start)
        hidden = is_hidden(tag, scanned.attrs)
        if self.stack and self.stack[-1][0] == "p" and tag in _CLOSES_P:
            self._close(len(self.stack) - 1, start)
        if tag == "li":
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][0] in ("ul", "ol"):
                    break
                if self.stack[i][0] == "li":
                    self._close(i, start)
                    break
        if scanned.self_closing or tag in VOID:
            if hidden:
                self.removed.append((start, scanned.end))
        else:
            self.stack.append((tag, start, hidden))
        if not hidden:
            canonical = _canonical_tag(self.masked, start, scanned)
            if canonical is not None:
                self.rewritten.append((start, scanned.end, canonical))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        scanned = _scan_tag(self.masked, start)
        if is_hidden(tag, scanned.attrs):
            self.removed.append((start, scanned.end))
        else:
            canonical = _canonical_tag(self.masked, start, scanned)
            if canonical is not None:
                self.rewritten.append((start, scanned.end, canonical))

    def handle_endtag(self, tag: str) -> None:
        start = self._offset()
        close = self.masked.find(">", start)
        end = len(self.masked) if close < 0 else close + 1
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                self._close(i, end)
                return

    def finish(self) -> None:
        """End of text: an element never closed is hidden to the end, as a browser hides it."""
        self.close()
        self._close(0, len(self.masked))


# -- putting it together ---------------------------------------------------------------------------


def _apply(text: str, removed: list[tuple[int, int]], edits: list[tuple[int, int, str]]) -> str:
    """Delete `removed` ranges and apply `edits` (start, end, replacement) lying outside them."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(removed):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    ops = [(s, e, "") for s, e in merged]

    def inside(s: int, e: int) -> bool:
        return any(ms <= s and e <= me for ms, me in merged)

    ops += [(s, e, r) for s, e, r in edits if not inside(s, e)]
    ops.sort()
    out: list[str] = []
    pos = 0
    for start, end, replacement in ops:
        if start < pos:  # overlaps an earlier operation: that one wins
            continue
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _strip_markup(body: str, markdown: bool) -> str:
    """Remove comments, hidden elements and (Markdown) comment definitions; tidy visible tags."""
    masked = body
    if markdown:
        masked = _mask(masked, _fenced_ranges(masked))
        masked = _mask(masked, _code_span_ranges(masked))
        # `\\<` and `\\[` are literal characters in Markdown: nothing they start is markup.
        if "\\" in masked:
            masked = _ESCAPED_RE.sub(_mask_escaped, masked)
        if "<" in masked:
            masked = _AUTOLINK_RE.sub(lambda m: FILL * len(m.group(0)), masked)
    if "<" not in masked and "{/*" not in masked and "]" not in masked:
        return body  # no markup outside code: most pages of most folders
    ids = _heading_id_edits(masked) if markdown else []
    masked = _mask(masked, [(s, e) for s, e, _ in ids])
    comments = _comment_ranges(masked, markdown)
    masked = _mask(masked, comments)
    edits = ids + (_ref_def_edits(masked, body) if markdown and "]:" in masked else [])
    if markdown and "](" in masked:
        edits += _link_title_edits(masked)
    scanner = _ElementScanner(masked)
    if "<" in masked:
        try:
            scanner.feed(masked)
            scanner.finish()
        except Exception:  # noqa: BLE001 — the stdlib tokenizer raises on nothing; belt and braces
            return re.sub(r"<[^>]*>", "", _apply(body, comments, []))
    removed = comments + scanner.removed + [(s, e) for s, e, r in edits if r == ""]
    return _apply(body, removed, [e for e in edits if e[2]] + scanner.rewritten)


def strip_hidden(text: str, *, html: bool = False) -> str:
    """The text without what a reader of the rendered page never sees.

    `text` is Markdown/MDX (front matter, code fences and inline code understood) or, with
    `html=True`, an HTML document or fragment (no Markdown code rules: backticks mean nothing
    there). Idempotent; visible text is unchanged.
    """
    text = strip_invisible(text)
    if html:
        return _strip_markup(text, markdown=False)
    front, body = split_front_matter(text)
    return front + _strip_markup(body, markdown=True)
