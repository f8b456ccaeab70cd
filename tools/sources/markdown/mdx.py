"""MDX's own syntax: imports of other Markdown files inlined, comments and embedded media dropped.

Mintlify and Docusaurus pages import shared snippets and place them with a component tag; an
imported file's text becomes part of the page (`inline_imports`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tools.sources.hidden.strip import mask_code
from tools.sources.markdown.frontmatter import split_frontmatter

_HTML_COMMENT_RE = re.compile(r"<!--.*?-->|\{/\*.*?\*/\}", re.DOTALL)
# Elements whose content is no text of the page (embedded media, drawings, scripts), and a
# page's `<head>` (Docusaurus moves it, with its `<title>` and `<meta>`, into the HTML head;
# browsers show none of it).
_HTML_EMBED_RE = re.compile(
    r"<(svg|iframe|script|style|object|video|audio|head)\b[^<>]*?(?:/>|>.*?</\1\s*>)", re.I | re.S
)


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
