"""A line of Markdown prose as the site shows it: headings' plain text, attribute lists, links, HTML and JSX.

What several generators share is read here: explicit heading ids (`## Title {#id}`, attr_list
and Docusaurus), reference links whose target is a name, not a URL (`[BaseModel][pkg.BaseModel]`,
autorefs), shown as their text, footnotes, inline HTML and JSX components unwrapped to their text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from tools.sources.hidden.elements import scan_tag
from tools.sources.records import CODE_FENCE_RE
from tools.sources.slugs import mintlify

# Where a component tag starts (`<Tabs`, `</Tabs`); `scan_tag` reads to its end, through
# attribute values that are JSX expressions holding tags and braces (`code={{ a: {…} }}`).
_JSX_TAG_START_RE = re.compile(r"<(/?)[A-Z][A-Za-z0-9.]*(?=[\s/>])")
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
# The destination may be written in angle brackets, which may hold `)` (CommonMark).
_INLINE_LINK_RE = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\((?:\s*<[^<>\n]*>[^)]*|[^)]*)\)")
_HTML_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
# `*text*` / `_text_` emphasis: the mark neither beside a space inside nor escaped, and an
# underscore not inside a word (`snake_case` is text), as CommonMark and Python-Markdown read it.
_EMPHASIS_RE = re.compile(r"(?<!\\)(\*|(?<!\w)_)(?![\s*_])(.+?)(?<![\s\\*_])\1(?![*_])(?!(?<=_)\w)")
_TITLE_ATTR_RE = re.compile(
    r"""\b(?:title|label)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{["']([^"']*)["']\})"""
)


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
    for m in CODE_FENCE_RE.finditer(text):
        out.append((text[pos : m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    out.append((text[pos:], False))
    return out


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


def clean_prose(line: str) -> str:
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
