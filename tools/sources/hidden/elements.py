"""HTML and JSX elements no browser shows: `hidden`, `display:none`, `aria-hidden`, `<script>`, off-screen.

HTML is tokenised with the standard library's `html.parser.HTMLParser` rather than lxml or
html5lib: those build a tree and serialise it again, which would rewrite the Markdown around the
tags, while hidden text must be deleted as exact source ranges with everything else unchanged,
and only the stdlib tokenizer reports where each tag starts. Attributes are read by `scan_tag`,
which also understands JSX values (`style={{display: "none"}}`, `onClick={() => x}`) that an
HTML tokenizer would cut at the first `>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

VOID = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr".split()
)
# SVG's <desc> is read by screen readers only, like an aria label.
ALWAYS_HIDDEN = frozenset({"script", "style", "template", "desc"})
# Attributes of an HTML element whose text a reader sees (alt, value, placeholder) or that readers
# need (links, class names the code language, ids and names are anchors, `role` and
# `aria-labelledby` say which box is the page's main content and which tab names a panel: the
# built-page reader reads pages by them, tools/sources/html/). Every other attribute
# of an HTML tag that stays (title tooltips, data-*, event handlers, styling) is text no reader
# sees. JSX components keep all their props: which ones a component shows (a Card's title) is
# the Markdown reader's business.
KEPT_ATTRIBUTES = frozenset(
    "alt href src id name class open lang dir colspan rowspan start type value placeholder "
    "role aria-labelledby".split()
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


class HiddenElements(HTMLParser):
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
        """A start tag: a hidden element starts here (or is whole, when void); `<p>` closes as HTML does."""
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
        """A self-closing tag: hidden whole, or kept (its canonical form noted)."""
        start = self._offset()
        scanned = _scan_tag(self.masked, start)
        if is_hidden(tag, scanned.attrs):
            self.removed.append((start, scanned.end))
        else:
            canonical = _canonical_tag(self.masked, start, scanned)
            if canonical is not None:
                self.rewritten.append((start, scanned.end, canonical))

    def handle_endtag(self, tag: str) -> None:
        """An end tag closes the nearest open element of its name and those opened after it."""
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
