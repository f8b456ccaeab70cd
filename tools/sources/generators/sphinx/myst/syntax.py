"""MyST's syntax as markdown-it-py tokenises it: directive fences and options, roles, links, heading lines.

The parser and plugins myst-parser itself is built on (running myst-parser would need Sphinx).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_block_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin

from tools.sources.slugs import docutils_id

# Nested directives deeper than this are read as their plain text (hostile input stays cheap).
MAX_DEPTH = 12
# Directives the rst reader already reads as Sphinx does: handed to it in rst syntax.
RST_DIRECTIVES = frozenset({"toctree", "literalinclude", "csv-table", "math"})
CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell"})
# Directives whose argument is their title (shown as the label of their body).
TITLED = frozenset(
    "admonition dropdown card grid-item-card tab-item topic sidebar margin rubric tab "
    "hint-box exercise solution glossary-term".split()
)
# Directives with nothing to read (layout, metadata) beyond their body.
UNLABELLED = frozenset(
    "grid tab-set div container card-carousel list-table figure table only centered "
    "highlights epigraph pull-quote compound parsed-literal".split()
)
SKIPPED = frozenset({"raw", "image", "meta", "index", "tabularcolumns", "highlight"})
# Lines of pure MyST markup (fences, targets, comments), dropped from text read as it is.
FENCE_LINE = re.compile(r"^\s*(?:(?:`{3,}|~{3,}|:{3,})\s*(?:\{.*)?|\([^()\s]+\)=\s*|%.*)$")
OPTION_LINE = re.compile(r"^:([\w-]+):(.*)$")
ATTRS_LINE = re.compile(r"^\s*\{[^{}\n]*\}\s*$")
ROLE = re.compile(r"\{([A-Za-z0-9_\-+:]{1,36})\}(`+)(?!`)(.+?)(?<!`)\2(?!`)", re.S)
# `[text](dest)` (not an image), `<project:dest>`, footnotes `[^x]` and their `[^x]: ` lines.
MD_LINK = re.compile(r"(?<![!\\\]])\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*<?([^()\s<>]+)>?\s*\)")
INLINE_ATTRS = re.compile(r"(?<=\))\{\s*(?:[#.][\w:.-]+|[\w-]+=[^{}\s]+)(?:\s+[^{}\n]*)?\}")
SPAN_ATTRS = re.compile(
    r"(?<![\]!\\])\[([^\[\]\n]*)\]\{\s*(?:[#.][\w:.-]+|[\w-]+=[^{}\s]+)[^{}\n]*\}"
)
PROJECT_LINK = re.compile(r"<(project:[^<>\s]+)>")
SCHEME = re.compile(r"^(?:[A-Za-z][\w+.-]*://|(?:mailto|tel|data|javascript):)", re.I)
FOOTNOTE_DEF = re.compile(r"^([ \t]*)\[\^([^\]\s]+)\]:[ \t]*", re.M)
FOOTNOTE_REF = re.compile(r"\[\^([^\]\s]+)\]")
SUBSTITUTION = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")
BACKTICKS = re.compile(r"`+")
MARK = "\u2042"  # ⁂: numbers each role in the one rst document all of a page's roles go to
ROLE_OUT = re.compile(MARK + r"(\d+)" + MARK + " ?")
HEADING_MARK = "\x00H"
TITLE_MARK = "MystLinkTitle"  # a word for a link title rst cannot hold, its number after it
LINK_DEST = re.compile(r"\(\s*<?([^()\s<>]+)>?\s*\)")
EXPLICIT = re.compile(r"^(.+?)\s*<(.+)>$", re.S)
GITHUB_CLEAN = re.compile(r"[^\w\u4e00-\u9fff\- ]")


@lru_cache(maxsize=1)
def markdown_parser() -> MarkdownIt:
    """markdown-it-py with the plugins myst-parser uses (front matter, MyST blocks, colon fences, attrs)."""
    md = MarkdownIt("commonmark", {"maxNesting": 40})
    md.use(front_matter_plugin).use(myst_block_plugin).use(colon_fence_plugin)
    md.use(attrs_block_plugin).enable("table")
    return md


@lru_cache(maxsize=8)
def tokens_of(text: str) -> tuple[Token, ...]:
    """The block tokens of a text: one tokenisation per page for its read, labels and toctrees."""
    return tuple(markdown_parser().parse(text))


def heading_slug(title: str, rule: str) -> str:
    """myst-parser's heading slug (myst_parser/slugs.py): GitHub's rule unless set otherwise."""
    if rule == "docutils":
        return docutils_id(title)
    if rule == "gitlab":
        slug = re.sub(
            r"-{2,}", "-", re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        )
        return f"anchor-{slug}" if slug.isdigit() else slug
    return GITHUB_CLEAN.sub("", title.lower().replace(" ", "-"))


def directive_of(token: Token) -> tuple[str, str] | None:
    """(name, argument) of a directive fence (```` ```{name} arg ````), None for a code fence."""
    info = token.info.strip()
    if token.type not in ("fence", "colon_fence") or not info.startswith("{"):
        return None
    end = info.find("}")
    if end < 2:
        return None
    return info[1:end].strip().lower(), info[end + 1 :].strip()


def split_options(body: str) -> tuple[dict[str, str], str]:
    """A directive body's options (`:key: value` lines or a `---` YAML block) and its content."""
    lines = body.split("\n")
    options: dict[str, str] = {}
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            try:
                data = yaml.safe_load("\n".join(lines[1:end]))
            except yaml.YAMLError:
                data = None
            if isinstance(data, dict):
                options = {str(k): "" if v is None else str(v) for k, v in data.items()}
            return options, "\n".join(lines[end + 1 :])
    i = 0
    while i < len(lines):
        m = OPTION_LINE.match(lines[i].strip()) if lines[i].strip() else None
        if not m:
            break
        options[m.group(1)] = m.group(2).strip()
        i += 1
    return options, "\n".join(lines[i:])


def as_rst_directive(name: str, arg: str, options: Mapping[str, str], content: str) -> str:
    """A MyST directive written as the rst directive it is (for the rst reader)."""
    head = f".. {name}::" + (f" {arg}" if arg else "")
    opts = [f"   :{k}: {v}".rstrip() for k, v in options.items()]
    body = ["   " + line if line.strip() else "" for line in content.split("\n")]
    return "\n".join([head, *opts, "", *body]) + "\n"


@dataclass
class HeadingMark:
    """A heading met while converting: its level and the labels that target it."""

    level: int
    labels: list[str]
    anchor: str = ""  # fixed (a heading the rst reader gave its ids), else computed
    ids: tuple[str, ...] = ()


ATX_LINE = re.compile(r"^( {0,3})(#{1,6}(?:[ \t]|$))")
FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def escape_headings(markdown: str) -> str:
    """Text of the rst reader with its `#` lines escaped, so that they stay paragraphs.

    The rst reader's Markdown goes back into the page's Markdown stream, where a paragraph line
    starting with `#` (a comment after a code example) would become a heading and cut the
    section; in code blocks it stays as it is.
    """
    out: list[str] = []
    fence = ""
    for line in markdown.split("\n"):
        opened = FENCE_OPEN.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
        elif opened:
            fence = opened.group(1)
        else:
            line = ATX_LINE.sub(r"\1\\\2", line)
        out.append(line)
    return "\n".join(out)


def code_fence(language: str, code: str) -> str:
    """A fenced code block, its fence longer than any run of backticks in the code."""
    ticks = max(3, 1 + max((len(m) for m in BACKTICKS.findall(code)), default=0))
    return f"{'`' * ticks}{language}\n{code.strip(chr(10)).rstrip()}\n{'`' * ticks}"


def line_prefix(line: str, token: Token) -> str:
    """What stands before a block on its first line (list indentation, `> `), kept on each line."""
    marker = token.markup[:1] if token.markup else ""
    if token.type.startswith("heading") or token.type.startswith("myst") or not marker:
        return ""
    at = line.find(marker)
    return line[:at] if at > 0 and not line[:at].strip(" >\t") else ""


def code_span_end(text: str, tick: int) -> int:
    """Where the code span opened by the backticks at `tick` ends (CommonMark: a run of as many)."""
    run = BACKTICKS.match(text, tick)
    assert run is not None
    ticks = run.group(0)
    close = text.find(ticks, run.end())
    while close >= 0 and text[close + len(ticks) : close + len(ticks) + 1] == "`":
        close = text.find(ticks, close + len(ticks) + 1)
    return run.end() if close < 0 else close + len(ticks)


def wide_links(text: str) -> list[tuple[int, int, str, str]]:
    """Each link `[text](dest)` whose text holds a code span or a line break, outside code spans.

    (start, end, text, destination): Markdown links all the same, a blank line ends the text.
    """
    found: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "`":
            i = code_span_end(text, i)
            continue
        if c != "[" or (i and text[i - 1] in "!\\]"):
            i += 1
            continue
        j, depth, wide = i + 1, 0, False
        while j < len(text):
            if text[j] == "`":
                j, wide = code_span_end(text, j), True
                continue
            if text[j] == "\n":
                if not text[j + 1 :].split("\n", 1)[0].strip():
                    break  # a blank line ends the paragraph
                wide = True
            elif text[j] == "[":
                depth += 1
            elif text[j] == "]":
                if depth == 0:
                    break
                depth -= 1
            j += 1
        dest = LINK_DEST.match(text, j + 1) if j < len(text) and text[j] == "]" else None
        if dest is None or not wide:
            i += 1
            continue
        found.append((i, dest.end(), text[i + 1 : j], dest.group(1)))
        i = dest.end()
    return found


def role_before(text: str, tick: int) -> int | None:
    """Where a role's `{name}` starts if it stands right before the backticks at `tick`."""
    if tick < 3 or text[tick - 1] != "}":
        return None
    start = text.rfind("{", max(0, tick - 40), tick)
    return start if start >= 0 else None
