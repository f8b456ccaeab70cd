"""Reader of MkDocs / Material pages: their Markdown extensions rewritten to plain Markdown, then parsed.

MkDocs pages are Markdown plus Python-Markdown and pymdownx extensions that a CommonMark
reader shows as raw text, each handled here the way the built site shows it:

- admonitions and collapsibles (`!!! note "Title"`, `??? tip`, `???+`) and content tabs
  (`=== "Tab"`): the marker line becomes the title in bold, the indented body is dedented;
- pymdownx blocks (`/// tip | Title` … `///`) and mkdocstrings (`::: pkg.Obj` + options): the
  same, the object's name kept as code and its id (the name, which mkdocstrings gives the
  object whether or not it shows its heading) an extra id of the section; `## ::: pkg.Obj` is
  the object's heading, its id the name;
- `--8<--` snippets, inline and as blocks, with line ranges and named sections, resolved from the
  snippet folders (mkdocs.yml `base_path`, else the project and docs folders), so the code
  examples that live in included files reach the index; nested up to a small depth;
- the include extensions a site lists in `markdown_extensions`, resolved from their `base_path`
  (default: the folder MkDocs runs in, the one holding mkdocs.yml): `mdx_include` /
  `markdown_include` (`{! file !}`, anywhere, code fences too) and `markdown_include_variants`
  (`{* file ln[1:9] hl[3] *}`: the file, or its lines, as a code block of its language);
- attribute lists: a heading's `{ #id }` is its anchor (the Markdown reader keeps it), empty
  anchors `[](){#id}` and standalone `{#id}` lines become extra ids of their section,
  `{ .class }` anywhere is dropped, a fence's `{ .python title="x" }` keeps its language;
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
  `*[HTML]: Hyper Text Markup Language` definitions go; pymdownx.snippets' `auto_append` files
  end every page.

This is a line rewriter, not Python-Markdown itself: running the real extensions needs the
site's own plugins and hooks installed (Material, mkdocstrings, project hooks), which a docs
folder does not bring along, and their output is HTML that would then have to be read back.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import replace
from pathlib import Path

from tools.sources.generators.mkdocs.syntax import MarkdownSyntax
from tools.sources.hidden import strip_hidden
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.markdown.inline import attr_list_id, outside_code, parse_attr_list
from tools.sources.markdown.parse import parse_markdown
from tools.sources.mkdocs_keys import KEY_ALIASES, KEY_LABELS
from tools.sources.reading import may_include, note_read
from tools.sources.records import Page, Section

log = logging.getLogger(__name__)

MAX_SNIPPET_DEPTH = 4
MAX_SNIPPET_BYTES = 1 << 20

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
# `--8<-- "file"` (inline) and a bare `--8<--` line opening/closing a block of file names.
_SNIPPET_LINE_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<escape>;?)-{1,}8<-{1,}[ \t]+(?P<q>['\"])(?P<path>.*?)(?P=q)[ \t]*$"
)
_SNIPPET_BLOCK_RE = re.compile(r"^[ \t]*-{1,}8<-{1,}[ \t]*$")
_SNIPPET_SECTION_RE = re.compile(r"-{1,}8<-{1,}[ \t]*\[(start|end):([\w-]+)\]")
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
_ID_MARK = "\u2063id:"
_ID_MARK_RE = re.compile("\u2063id:([\\w:.-]+)\u2063")


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


class SnippetFiles:
    """Where `--8<--` names are looked up, and the folder no included file may come from outside of.

    `includes` names the include extensions the site turns on (`mdx_include`, `include_variants`)
    and `include_base` the folder their relative names start from.
    """

    def __init__(
        self,
        dirs: tuple[str, ...],
        confine: str,
        includes: tuple[str, ...] = (),
        include_base: str = "",
    ) -> None:
        """Keep the lookup folders and the confining root (both absolute)."""
        self.dirs = tuple(Path(d) for d in dirs)
        self.confine = Path(confine).resolve() if confine else None
        self._configured = tuple(d.resolve() for d in self.dirs)
        self.includes = includes
        self.include_base = Path(include_base) if include_base else None

    def read_included(self, name: str) -> str | None:
        """A file an include extension names, from its base folder.

        As the extension reads it first; when the docs were copied away from the code they
        include (`../../src/x.py` no longer leads there), the same path without its leading
        `../` is looked up from the base folder and each folder above it inside the confining
        root, so the example still reaches the page.
        """
        name = name.strip()
        if not name or "://" in name or self.include_base is None:
            return None
        base = self.include_base
        found = self._read(base / name)
        if found is not None:
            return found
        parts = Path(name).parts
        tail = Path(*[p for p in parts if p not in ("..", ".")]) if parts else None
        if tail is None or tail == Path(name) or not str(tail):
            return None
        for folder in (base, *base.parents):
            if self.confine is not None and not folder.resolve().is_relative_to(self.confine):
                break
            found = self._read(folder / tail)
            if found is not None:
                return found
        return None

    def _read(self, path: Path) -> str | None:
        try:
            real = path.resolve()
            if self.confine is not None and not may_include(real, self.confine, self._configured):
                return None
            note_read(real)  # found or not: a file that appears there later is read then
            if real.is_file() and real.stat().st_size <= MAX_SNIPPET_BYTES:
                return real.read_text("utf-8", errors="replace")
        except OSError:
            return None
        return None

    def read(self, name: str, page_dir: Path | None) -> str | None:
        """The included file's text, or None when it is not found inside the confining root."""
        name = name.strip()
        if not name or "://" in name:
            return None  # a URL snippet would need the network: not at index time
        candidates = [d / name for d in self.dirs]
        if page_dir is not None:
            candidates.append(page_dir / name)
        for path in candidates:
            try:
                real = path.resolve()
                if self.confine is not None and not may_include(
                    real, self.confine, self._configured
                ):
                    continue
                note_read(real)  # found or not: a file that appears there later is read then
                if real.is_file() and real.stat().st_size <= MAX_SNIPPET_BYTES:
                    return real.read_text("utf-8", errors="replace")
            except OSError:
                continue
        return None


def resolve_snippets(
    text: str, files: SnippetFiles, page_dir: Path | None = None, depth: int = 0
) -> str:
    """The text with every `--8<--` include replaced by the file (or lines, or section) it names.

    A name that cannot be found is dropped with a warning, as pymdownx does with `check_paths`
    off: the page must still read. `;--8<--` is an escaped marker and stays as the text `--8<--`.
    """
    if "8<" not in text:
        return text
    out: list[str] = []
    block: list[str] | None = None
    for line in text.split("\n"):
        if _SNIPPET_BLOCK_RE.match(line):
            if block is None:
                block = []
            else:
                for name in block:
                    out.extend(_include(name, "", files, page_dir, depth))
                block = None
            continue
        if block is not None:
            if line.strip() and not line.strip().startswith(";"):
                block.append(line.strip())
            continue
        m = _SNIPPET_LINE_RE.match(line)
        if m:
            if m.group("escape"):
                out.append(line.replace(";", "", 1))
                continue
            out.extend(_include(m.group("path"), m.group("indent"), files, page_dir, depth))
            continue
        if _SNIPPET_SECTION_RE.search(line):
            continue  # a section marker inside an included file
        out.append(line)
    return "\n".join(out)


def _include(
    spec: str, indent: str, files: SnippetFiles, page_dir: Path | None, depth: int
) -> list[str]:
    """The lines a snippet name stands for: the whole file, `file:3:9` lines, or `file:name` section."""
    name, start, end, section = spec, 0, 0, ""
    ranged = re.match(r"^(.*?):(-?\d*):?(-?\d*)$", spec)
    named = re.match(r"^(.*?):([A-Za-z_][\w-]*)$", spec)
    if ranged and (ranged.group(2) or ranged.group(3)) and not Path(spec).suffix.endswith(":"):
        name = ranged.group(1)
        start = int(ranged.group(2) or 0)
        end = int(ranged.group(3) or 0)
    elif named and "." in named.group(1):
        name, section = named.group(1), named.group(2)
    text = files.read(name, page_dir)
    if text is None:
        log.warning("snippet %r not found; left out", spec)
        return []
    lines = text.replace("\r\n", "\n").rstrip("\n").split("\n")
    if section:
        lines = _section_lines(lines, section)
    elif start or end:
        lines = lines[max(start - 1, 0) : end or None]
    if depth + 1 < MAX_SNIPPET_DEPTH:
        lines = resolve_snippets("\n".join(lines), files, page_dir, depth + 1).split("\n")
    return [indent + ln if ln else ln for ln in lines]


def _section_lines(lines: list[str], section: str) -> list[str]:
    out: list[str] = []
    inside = False
    for line in lines:
        m = _SNIPPET_SECTION_RE.search(line)
        if m and m.group(2) == section:
            inside = m.group(1) == "start"
            continue
        if inside:
            out.append(line)
    return out


# `{! file !}` (mdx_include; `{!+`/`{!-` set recursion, `| utf-8` an encoding; markdown-include
# writes `{!file!lines=1 3-5}`); `\{!` is an escaped, literal one.
_MDX_INCLUDE_RE = re.compile(
    r"(?P<escape>\\)?\{!(?P<flag>[+\->]?)\s*(?P<path>[^|!{}\n]+?)\s*(?:\|\s*[\w-]+\s*)?!"
    r"(?:\}|lines=(?P<lines>[\d \-]+)\})"
)
# `{* file ln[1:9] hl[3] title["x"] *}` (markdown_include_variants), alone on its line.
_VARIANTS_RE = re.compile(r"^(?P<indent>[ \t]*)\{\*\s*(?P<path>\S+)(?P<opts>.*?)\*\}[ \t]*$", re.M)
_VARIANT_LINES_RE = re.compile(r"\bln\[([\d:, ]+)\]")
# A file's language, by suffix, for the code block an included example becomes.
_SUFFIX_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".jsx": "jsx",
    ".tsx": "tsx",
    ".sh": "bash",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".toml": "toml",
    ".json": "json",
    ".html": "html",
    ".css": "css",
    ".md": "markdown",
    ".sql": "sql",
    ".rs": "rust",
    ".go": "go",
    ".java": "java",
    ".ini": "ini",
    ".dockerfile": "dockerfile",
}


def _line_ranges(spec: str, lines: list[str], sep: str) -> list[str]:
    """The lines a range list names (`1:9,12` or `1 3-5`, 1-based, inclusive), in its order."""
    out: list[str] = []
    for part in re.split(r"[,\s]+" if sep == ":" else r"\s+", spec.strip()):
        if not part:
            continue
        first, ranged, last = part.partition(sep)
        try:
            start = int(first) if first else 1
            end = int(last) if last else (len(lines) if ranged else start)
        except ValueError:
            continue
        out.extend(lines[max(start - 1, 0) : end])
    return out


def resolve_includes(text: str, files: SnippetFiles, depth: int = 0) -> str:
    """The text with the include extensions' directives the site turns on replaced by their files.

    A file that cannot be found is dropped with a warning (both extensions' default, "truncate
    on failure"): the page must still read.
    """
    if "include_variants" in files.includes and "{*" in text:
        text = _VARIANTS_RE.sub(lambda m: _variant_block(m, files), text)
    if "mdx_include" in files.includes and "{!" in text:
        text = _MDX_INCLUDE_RE.sub(lambda m: _mdx_include(m, files, depth), text)
    return text


def _mdx_include(m: re.Match[str], files: SnippetFiles, depth: int) -> str:
    if m.group("escape"):
        return m.group(0)[1:]
    included = files.read_included(m.group("path"))
    if included is None:
        log.warning("include %r not found; left out", m.group("path"))
        return ""
    included = included.replace("\r\n", "\n").rstrip("\n")
    if m.group("lines"):
        included = "\n".join(_line_ranges(m.group("lines"), included.split("\n"), "-"))
    if m.group("flag") != "-" and depth + 1 < MAX_SNIPPET_DEPTH:
        included = resolve_includes(included, files, depth + 1)
    return included


def _variant_block(m: re.Match[str], files: SnippetFiles) -> str:
    """The example file a `{* ... *}` names, as the fenced block the site shows (variants aside)."""
    name = m.group("path")
    included = files.read_included(name)
    if included is None:
        log.warning("include %r not found; left out", name)
        return ""
    lines = included.replace("\r\n", "\n").rstrip("\n").split("\n")
    ranges = _VARIANT_LINES_RE.search(m.group("opts"))
    if ranges:
        lines = _line_ranges(ranges.group(1), lines, ":")
    language = _SUFFIX_LANGUAGES.get(Path(name).suffix.lower(), "")
    indent = m.group("indent")
    body = [indent + ln if ln else ln for ln in lines]
    return "\n".join([f"{indent}```{language}", *body, f"{indent}```"])


_NO_EXTENSIONS = MarkdownSyntax()


def rewrite_extensions(text: str, syntax: MarkdownSyntax = _NO_EXTENSIONS) -> str:
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
        if line.strip() and _indent_of(line) <= indent:
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
        i -= 1
    pad = min((_indent_of(ln) for ln in body if ln.strip()), default=indent + 4)
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
    lines: list[str], blocks_only: bool = False, syntax: MarkdownSyntax = _NO_EXTENSIONS
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
                and _indent_of(line) < fence_indent + 4  # deeper, it is a line of the code
            ):
                fence = None
                out.append(line)
            else:
                out.append(line if blocks_only else _ANNOTATION_RE.sub("", line))
            continue
        if f:
            fence, fence_indent = f.group(2), _indent_of(line)
            out.append(
                line if blocks_only else f.group(1) + f.group(2) + _fence_language(f.group(3))
            )
            continue
        block = _BLOCK_RE.match(line)
        if block and (block.group("kind") or block.group("title") is not None):
            body, i = _block_body(lines, i, _indent_of(line))
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
            _, i = _block_body(lines, i, _indent_of(line))  # its YAML options
            name = heading.group("name")
            out.append(f"{heading.group('level')} `{name}` {{#{name}}}")
            continue
        autodoc = _AUTODOC_RE.match(line)
        if autodoc:  # `::: pkg.Obj`: mkdocstrings gives the object the id of its name
            _, i = _block_body(lines, i, _indent_of(line))  # its YAML options
            name = autodoc.group("name")
            out.append(f"{autodoc.group('indent')}`{name}`{_ID_MARK}{name}\u2063")
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


def _rewrite_prose(line: str, syntax: MarkdownSyntax = _NO_EXTENSIONS) -> str:
    """One prose line: ids kept as marks, attribute lists, emoji, placeholders and layout tags gone."""
    heading = _HTML_HEADING_RE.match(line)
    if heading:
        return "**" + _LAYOUT_TAG_RE.sub("", heading.group(2)).strip() + "**"
    line = _EMPTY_ANCHOR_RE.sub(lambda m: f"{_ID_MARK}{m.group(1)}\u2063", line)
    attrs = _ATTR_LINE_RE.match(line)
    if attrs and (attrs.group(1).strip().startswith(("#", ".")) or "=" in attrs.group(1)):
        pairs = parse_attr_list(attrs.group(1))
        if pairs is not None:
            found = attr_list_id(pairs)
            return f"{_ID_MARK}{found}\u2063" if found else ""
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
        if _ID_MARK in text:
            tail = text.rstrip()
            trailing: list[str] = []
            while (m := re.search("\u2063id:([\\w:.-]+)\u2063\\s*$", tail)) is not None:
                trailing.insert(0, m.group(1))
                tail = tail[: m.start()].rstrip()
            ids.extend(_ID_MARK_RE.findall(tail))
            carry = trailing
            text = re.sub(r"\n{3,}", "\n\n", _ID_MARK_RE.sub("", tail)).strip()
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
    syntax: MarkdownSyntax = _NO_EXTENSIONS,
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
