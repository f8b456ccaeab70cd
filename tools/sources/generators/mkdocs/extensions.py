"""MkDocs / Material Markdown extensions rewritten, line by line, to the plain Markdown the site shows.

- admonitions and collapsibles (`!!! note "Title"`, `??? tip`, `???+`) and content tabs
  (`=== "Tab"`): the marker line becomes the title in bold, the indented body is dedented;
- pymdownx blocks (`/// tip | Title` … `///`) and mkdocstrings (`::: pkg.Obj` + options): the
  same, the object's name kept as code and its id (the name, which mkdocstrings gives the
  object whether or not it shows its heading) an extra id of the section; `## ::: pkg.Obj` is
  the object's heading, its id the name;
- attribute lists: empty anchors `[](){#id}` and standalone `{#id}` lines become extra ids of
  their section, `{ .class }` anywhere is dropped, a fence's `{ .python title="x" }` keeps its
  language;
- indented code blocks (four columns deeper than their text, after a blank line; under a list
  item, footnote or definition four more) are code, as Python-Markdown reads them: written as a
  fence, so no line of them is read as markup, Jinja or HTML;
- code annotations: the `# (1)!` markers go from the code, the numbered notes stay as text;
- Material's icon shortcodes (`:material-check:`) and, with pymdownx.emoji, emoji shortcodes
  (`:smile:`) go (the built page shows a picture; a heading's id is taken without it), as do
  `{{ placeholder }}`s of build hooks, Jinja statements of a macros plugin (`{% raw %}`) outside
  code spans (a code span shows them as written) and layout HTML (`<div markdown>`);
- the extensions mkdocs.yml turns on (`MarkdownSyntax`), only then, as Python-Markdown does:
  pymdownx.inlinehilite's `#!python x` / `:::python x` inline code reads as the code `x`;
  pymdownx.keys' `++ctrl+alt+del++` as the keys' labels ("Ctrl+Alt+Del"); abbr's
  `*[HTML]: Hyper Text Markup Language` definitions go.

This is a line rewriter, not Python-Markdown itself: running the real extensions needs the
site's own plugins and hooks installed (Material, mkdocstrings, project hooks), which a docs
folder does not bring along, and their output is HTML that would then have to be read back.
"""

from __future__ import annotations

import html
import re

from tools.sources.generators.mkdocs.keys import KEY_ALIASES, KEY_LABELS
from tools.sources.generators.mkdocs.snippets import indent_of
from tools.sources.generators.mkdocs.syntax import MarkdownSyntax
from tools.sources.markdown.inline import attr_list_id, outside_code, parse_attr_list

_FENCE_RE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
# `!!! note "Title"`, `??? tip`, `???+ example "T"`, `=== "Tab"`, `===! "Tab"`, `===+ "Tab"`.
_BLOCK_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<mark>!!!|\?\?\?\+?|===[!+]?)[ \t]*(?P<kind>[\w-]+(?:[ \t]+[\w-]+)*)?"
    r'(?:[ \t]*"(?P<title>.*)")?[ \t]*$'
)
# `/// type | Title` opens a pymdownx block, `///` closes it.
_SLASH_OPEN_RE = re.compile(
    r"^(?P<indent>[ \t]*)/{3,}[ \t]*(?P<kind>[\w-]+)[ \t]*(?:\|[ \t]*(?P<title>.*?))?[ \t]*$"
)
_SLASH_CLOSE_RE = re.compile(r"^[ \t]*/{3,}[ \t]*$")
# `::: package.module.Object` (mkdocstrings), then indented YAML options.
_AUTODOC_RE = re.compile(r"^(?P<indent>[ \t]*):::[ \t]+(?P<name>[\w.:-]+)[ \t]*$")
# `## ::: package.Object`: mkdocstrings renders the object with a heading of that level.
_AUTODOC_HEADING_RE = re.compile(r"^(?P<level>#{1,6})[ \t]+:::[ \t]+(?P<name>[\w.:-]+)[ \t]*$")
# Empty anchors `[](){#id}`, a standalone attribute line `{#id}` / `{: .class }`.
_EMPTY_ANCHOR_RE = re.compile(r"\[\]\(\)\{:?[ \t]*#([\w:.-]+)[^}]*\}")
_ATTR_LINE_RE = re.compile(r"^[ \t]*\{:?[ \t]*([^{}]*)\}[ \t]*$")
# A trailing or inline attribute list after a link, image, span or paragraph: `{ .md-button }`.
_INLINE_ATTRS_RE = re.compile(
    r"(?<=[)\]`*\w.!?:])\{:?[ \t]*(?:[.#][\w:.-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[\w.-]+))(?:[ \t]+(?:[.#][\w:.-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[\w.-]+)))*[ \t]*\}"
)
# A code annotation marker at a code line's end: `# (1)!`, `// (2)`, `<!-- (3) -->`.
_ANNOTATION_RE = re.compile(r"[ \t]*(?:#|//|--|;|/\*|<!--)[ \t]*\(\d+\)!?[ \t]*(?:\*/|-->)?[ \t]*$")
_ICON_RE = re.compile(r":(?:material|octicons|fontawesome|simple|twemoji)-[\w-]+:")
# pymdownx.emoji's `:name:` (its pattern is `:[+\-\w]+:`). Which names are emoji its index
# says, which this package does not ship: a name in lower case, with a letter (or one of the
# four without: `:+1:`, `:-1:`, `:100:`, `:1234:`), standing apart from words and colons (not
# `std::vector::x`, `a:b:c`, `10:30:00`).
_EMOJI_RE = re.compile(r"(?<![\w:]):(?:[a-z0-9_+-]*[a-z][a-z0-9_+-]*|\+1|-1|100|1234):(?![\w:])")
# pymdownx.keys' `++key+key++` (its early pattern, quoted keys included) and one key of it.
_KEYS_RE = re.compile(
    r"""(?<!\\)\+\+((?:(?:[\w-]+|"(?:\\.|[^\\"])+"|'(?:\\.|[^\\'])+')\+(?!\+))*?"""
    r"""(?:[\w-]+|"(?:\\.|[^\\"])+"|'(?:\\.|[^\\'])+'))\+\+"""
)
_KEY_TOKEN_RE = re.compile(r"""[\w-]+|"(?:\\.|[^\\"])+"|'(?:\\.|[^\\'])+'""")
# An inline code span, and pymdownx.inlinehilite's language marker at its start.
_CODE_SPAN_RE = re.compile(r"(?<![\\`])(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_INLINE_LANG_RE = re.compile(r"^(?::{3,}|#!)(?P<lang>[\w#.+-]*)\s+")
# Python-Markdown abbr's definition: `*[HTML]: Hyper Text Markup Language` at a line's start,
# its title on that line or the next.
_ABBR_RE = re.compile(r"^\*\[(?P<abbr>[^\\]*?)\] ?: *(?P<title>.*)$")
_PLACEHOLDER_RE = re.compile(r"\{\{[^{}\n]*\}\}")
# A Jinja statement (`{% raw %}`, `{% for x in y %}`) of a macros plugin: never text on the page.
_JINJA_TAG_RE = re.compile(r"\{%-?[^{}\n]*?-?%\}")
_LAYOUT_TAG_RE = re.compile(
    r"</?(?:div|span|p|br|center|section|article|figure|figcaption|small|sup|sub|details|summary|h[1-6])\b[^<>]*>",
    re.IGNORECASE,
)
# What opens a container of indented lines: a list item (`- `, `* `, `+ `, `1. `), a footnote's
# definition (`[^1]:`), a definition (`:   text`, def_list); and an ATX heading.
_CONTAINER_RE = re.compile(
    r"^[ \t]*(?:(?:[-*+]|\d+[.)]|:)(?:[ \t]+(?=\S)|[ \t]*$)|\[\^[^\]\s]+\]:)"
)
_HASH_HEADING_RE = re.compile(r"^#{1,6}[ \t]")
# A raw HTML block: one of Python-Markdown's block-level elements opened at a line's start.
_HTML_BLOCK_OPEN_RE = re.compile(r"^[ ]{0,3}<([A-Za-z][\w-]*)(?=[\s/>]|$)")
_HTML_BLOCK_ELEMENTS = frozenset(
    "address article aside blockquote details div dl fieldset figcaption figure footer form h1 h2 "
    "h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul canvas colgroup dd body "
    "dt group html iframe li legend math map noscript output object option progress script style "
    "summary tbody td textarea tfoot th thead tr video center".split()
)
_HTML_HEADING_RE = re.compile(r"^[ \t]*<h([1-6])\b[^<>]*>(.*?)</h\1>[ \t]*$", re.IGNORECASE)
# Where an id that is no heading is kept until the sections are known.
ID_MARK = "\u2063id:"
ID_MARK_RE = re.compile("\u2063id:([\\w:.-]+)\u2063")
NO_EXTENSIONS = MarkdownSyntax()


def rewrite_extensions(text: str, syntax: MarkdownSyntax = NO_EXTENSIONS) -> str:
    """MkDocs / Material block and inline syntax as plain Markdown (snippets already resolved).

    `syntax` says which optional extensions the site turns on (mkdocs.yml).
    """
    return "\n".join(_rewrite(text.split("\n"), syntax=syntax))


_ADMONITION_LINE_RE = re.compile(
    r'^[ \t]*(?:!!!|\?\?\?\+?)[ \t]*[\w-]+|^[ \t]*===[!+]?[ \t]*"', re.M
)


def rewrite_admonitions(text: str) -> str:
    """Only the admonition, collapsible and tab blocks as plain Markdown, everything else as is.

    For Markdown outside MkDocs, where these blocks still turn up (pages moved from an MkDocs
    site); the rest of MkDocs' syntax is not rewritten there, as it may mean something else.
    """
    if not _ADMONITION_LINE_RE.search(text):
        return text
    return "\n".join(_rewrite(text.split("\n"), blocks_only=True))


def _block_body(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The indented body of a block opened at `start - 1` (lines indented deeper, or blank)."""
    body: list[str] = []
    i = start
    while i < len(lines):
        line = lines[i]
        if line.strip() and indent_of(line) <= indent:
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
        i -= 1
    pad = min((indent_of(ln) for ln in body if ln.strip()), default=indent + 4)
    return [ln[pad:] if ln.strip() else "" for ln in body], i


# Admonition types (Material's, and the blocks' generic ones): their title is shown alone. A
# block of another type (`/// version-added | v2.10`) reads as "Version added: v2.10".
_PLAIN_KINDS = frozenset(
    "note abstract summary tldr info todo tip hint important success check done question help faq "
    "warning caution attention failure fail missing danger error bug example quote cite details "
    "admonition tab html caption api".split()
)


def _title_line(indent: str, kind: str | None, title: str | None) -> list[str]:
    """The bold title the built site shows for a block; the type's name when it has no title."""
    name = (kind or "").split()[0] if kind else ""
    label = name.replace("-", " ").replace("_", " ").capitalize()
    if title is not None and title.strip():
        text = title.strip() if not name or name.lower() in _PLAIN_KINDS else f"{label}: {title}"
    else:
        text = label
    return [f"{indent}**{text.strip()}**", ""] if text.strip() else []


def _rewrite(
    lines: list[str], blocks_only: bool = False, syntax: MarkdownSyntax = NO_EXTENSIONS
) -> list[str]:
    out: list[str] = []
    fence: str | None = None
    fence_indent = 0
    level = 0  # the indent of the container text the lines are in (0: none)
    html: tuple[str, int] | None = None  # the raw HTML block the lines are in, and its depth
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        f = _FENCE_RE.match(line)
        if fence is None and not blocks_only:
            html = _html_block(line, html)
            if html is None and _width(line) >= level + 4 and _starts_block(lines, i - 1):
                code, i = _indented_code(lines, i - 1, level + 4)
                out.extend(code)
                continue
            level = _container_level(line, lines[i - 2] if i > 1 else "", level)
        if fence is not None:
            if (
                f
                and f.group(2)[0] == fence[0]
                and len(f.group(2)) >= len(fence)
                and not f.group(3).strip()
                and indent_of(line) < fence_indent + 4  # deeper, it is a line of the code
            ):
                fence = None
                out.append(line)
            else:
                out.append(line if blocks_only else _ANNOTATION_RE.sub("", line))
            continue
        if f:
            fence, fence_indent = f.group(2), indent_of(line)
            out.append(
                line if blocks_only else f.group(1) + f.group(2) + _fence_language(f.group(3))
            )
            continue
        block = _BLOCK_RE.match(line)
        if block and (block.group("kind") or block.group("title") is not None):
            body, i = _block_body(lines, i, indent_of(line))
            # The body is flattened to the left margin, not re-indented under a list item it may
            # sit in: four spaces would read as a code block to every later reader of the text.
            out.extend(_title_line("", block.group("kind"), block.group("title")))
            out.extend(_rewrite(body, blocks_only, syntax))
            out.append("")
            continue
        if blocks_only:
            out.append(line)
            continue
        slash = _SLASH_OPEN_RE.match(line)
        if slash:
            out.extend(
                _title_line(slash.group("indent"), slash.group("kind"), slash.group("title"))
            )
            continue
        if _SLASH_CLOSE_RE.match(line):
            continue
        heading = _AUTODOC_HEADING_RE.match(line)
        if heading:  # `## ::: pkg.Obj`: the object's heading at that level, its id the name
            _, i = _block_body(lines, i, indent_of(line))  # its YAML options
            name = heading.group("name")
            out.append(f"{heading.group('level')} `{name}` {{#{name}}}")
            continue
        autodoc = _AUTODOC_RE.match(line)
        if autodoc:  # `::: pkg.Obj`: mkdocstrings gives the object the id of its name
            _, i = _block_body(lines, i, indent_of(line))  # its YAML options
            name = autodoc.group("name")
            out.append(f"{autodoc.group('indent')}`{name}`{ID_MARK}{name}\u2063")
            continue
        if syntax.abbr and line.startswith("*["):
            abbr = _ABBR_RE.match(line)
            if abbr and abbr.group("abbr").strip():
                if abbr.group("title").strip():
                    continue  # a definition: the page shows the word, its title on hover only
                if i < len(lines) and lines[i].strip():
                    i += 1  # the title on the next line
                    continue
        out.append(_rewrite_prose(line, syntax))
    return out


def _width(line: str) -> int:
    """A line's indent in columns, a tab to the next multiple of four (0 for a blank line)."""
    if not line.strip():
        return 0
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


def _container_level(line: str, prev: str, level: int) -> int:
    """The indent of the container text a line belongs to, after the `level` of the line before.

    A list item, footnote or definition (`- x`, `1. x`, `[^1]:`, `:   x`) holds the lines indented
    under it, as Python-Markdown reads them: its marker sets the level (the marker's indent
    rounded to a tab stop, plus one), a level deeper when its text opens a block (`:   !!! note`:
    the block's body is indented under it); an unindented line after a blank one ends it.
    """
    if not line.strip():
        return level
    marker = _CONTAINER_RE.match(line)
    if marker:
        opens = bool(_BLOCK_RE.match(line[marker.end() :].lstrip()))
        return _width(line) // 4 * 4 + (8 if opens else 4)
    if level and _width(line) < 4 and not prev.strip():
        return 0
    return level


def _html_block(line: str, html: tuple[str, int] | None) -> tuple[str, int] | None:
    """The raw HTML block still open after `line`, with its element's nesting depth.

    A block-level element opened at a line's start runs to its closing tag, blank and indented
    lines included: none of it is Markdown's code.
    """
    if html is None:
        m = _HTML_BLOCK_OPEN_RE.match(line)
        if not m or m.group(1).lower() not in _HTML_BLOCK_ELEMENTS:
            return None
        html = (m.group(1).lower(), 0)
    name, depth = html
    lowered = line.lower()
    depth += len(re.findall(rf"<{name}(?=[\s/>]|$)", lowered)) - lowered.count(f"</{name}")
    return (name, depth) if depth > 0 else None


def _starts_block(lines: list[str], i: int) -> bool:
    """Whether line `i` starts a block: the text's first line, or after a blank line or a heading.

    An indented line right under a paragraph continues it (a lazy line), never opens code.
    """
    if i == 0:
        return True
    prev = lines[i - 1]
    return not prev.strip() or bool(_HASH_HEADING_RE.match(prev))


def _indented_code(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """An indented code block (four spaces deeper than its text) as a fenced one, and where it ends.

    Python-Markdown reads such a block as code, as the built page shows it: none of its lines is
    markup, Jinja or HTML to render. Its end is the first line indented less (blank lines inside
    stay, trailing ones go); the fence is longer than any backtick run at a line's start inside.
    """
    end = start
    while end < len(lines) and (not lines[end].strip() or _width(lines[end]) >= indent):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    body = [ln.expandtabs(4)[indent:] if ln.strip() else "" for ln in lines[start:end]]
    runs = [len(m.group(1)) for ln in body if (m := re.match(r"[ \t]*(`{3,}|~{3,})", ln))]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return [fence, *body, fence], end


def _fence_language(info: str) -> str:
    """A fence's info string reduced to its language: `python {test="skip"}` / `{ .py .annotate }`."""
    info = info.strip()
    if not info:
        return ""
    if info.startswith("{"):
        classes = re.findall(r"\.([\w+#-]+)", info)
        langs = [c for c in classes if c not in ("annotate", "no-copy", "copy")]
        return langs[0] if langs else ""
    first = info.split()[0].split("{")[0]
    return "" if "=" in first else first  # `title="x"` alone: attributes, no language


def _rewrite_prose(line: str, syntax: MarkdownSyntax = NO_EXTENSIONS) -> str:
    """One prose line: ids kept as marks, attribute lists, emoji, placeholders and layout tags gone."""
    heading = _HTML_HEADING_RE.match(line)
    if heading:
        return "**" + _LAYOUT_TAG_RE.sub("", heading.group(2)).strip() + "**"
    line = _EMPTY_ANCHOR_RE.sub(lambda m: f"{ID_MARK}{m.group(1)}\u2063", line)
    attrs = _ATTR_LINE_RE.match(line)
    if attrs and (attrs.group(1).strip().startswith(("#", ".")) or "=" in attrs.group(1)):
        pairs = parse_attr_list(attrs.group(1))
        if pairs is not None:
            found = attr_list_id(pairs)
            return f"{ID_MARK}{found}\u2063" if found else ""
    if "{" in line and not line.lstrip().startswith("#"):
        line = _INLINE_ATTRS_RE.sub("", line)
    if "`" in line and syntax.inlinehilite:
        line = _CODE_SPAN_RE.sub(_inline_hilite, line)
    if ":" in line and (_ICON_RE.search(line) or (syntax.emoji and _EMOJI_RE.search(line))):
        line = outside_code(line, lambda part: _emoji(part, syntax.emoji))
    if "++" in line and syntax.keys:
        line = outside_code(line, lambda part: _KEYS_RE.sub(lambda m: _keys(m, syntax), part))
    if "{{" in line or "{%" in line:  # not in code: `{{ super() }}` in a code span is shown
        line = outside_code(line, lambda part: _JINJA_TAG_RE.sub("", _PLACEHOLDER_RE.sub("", part)))
    if "<" in line:
        line = _LAYOUT_TAG_RE.sub("", line)
    return line


def _inline_hilite(m: re.Match[str]) -> str:
    """An inline code span without pymdownx.inlinehilite's `#!lang ` / `:::lang ` marker.

    As the extension reads it: the marker opens the code as written (no space before it) and
    a space follows it; the code is then stripped, as every code span is.
    """
    ticks, content = m.group(1), m.group(2)
    lang = _INLINE_LANG_RE.match(content)
    if lang is None:
        return m.group(0)
    code = content[lang.end("lang") :].strip()
    if not code:
        return ""
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def _emoji(text: str, emoji: bool) -> str:
    """Text without Material's icon shortcodes and, with pymdownx.emoji, emoji shortcodes."""
    if "-" in text:
        text = _ICON_RE.sub("", text)
    return _EMOJI_RE.sub("", text) if emoji else text


def _keys(m: re.Match[str], syntax: MarkdownSyntax) -> str:
    """`++ctrl+alt+del++` as the page shows it ("Ctrl+Alt+Del"); as written if a key is unknown.

    pymdownx.keys makes `<kbd>` elements only when every key is a quoted string or in its
    keymap (`KEY_LABELS`, its aliases, the site's `key_map`), the separator between them.
    """
    own = dict(syntax.key_map)
    labels: list[str] = []
    for key in _KEY_TOKEN_RE.findall(m.group(1)):
        if key[0] in "\"'":
            labels.append(html.unescape(re.sub(r"\\(.)", r"\1", key[1:-1])).strip())
            continue
        if syntax.key_camel_case:
            key = re.sub(r"(?<=[^-])([A-Z])", r"-\1", key).lower()
        name = KEY_ALIASES.get(key, key)
        label = own.get(name) or KEY_LABELS.get(name)
        if not label:
            return m.group(0)
        labels.append(label)
    return syntax.key_separator.join(labels)
