"""Reader of MyST Markdown pages in a Sphinx site (myst-parser / myst-nb), read as Sphinx builds them.

MyST is Markdown with reStructuredText's directives and roles in Markdown syntax. The page is
tokenised with markdown-it-py and mdit-py-plugins (the parser and plugins myst-parser itself is
built on; running myst-parser would need Sphinx), and every MyST construct is rewritten to the
plain Markdown the Markdown reader (tools/sources/mdx.py) reads, in place, so no text is lost:

- directive fences (```` ```{note} ````, ``:::{tip}``): admonitions as the rst reader labels
  them, code blocks with their language, other directives as their (MyST) body, converted
  again; `toctree`, `literalinclude`, `include` of rst, `csv-table` and `{eval-rst}` are handed
  to the rst reader (tools/sources/rst.py), which already reads them as Sphinx does;
- roles (`` {ref}`label` ``, `` {doc}`path` ``, `` {py:func}`x` ``) go to the rst reader too, all of
  a page's in one parse, so they read (as text or links) exactly as on rst pages;
- targets `(label)=` and `{#id}` attribute blocks become ids of the section they precede;
  headings keep docutils' ids (the `make_id` rule of rst), plus the `myst_heading_anchors` slug
  myst-parser adds as a second id; `% comments`, `+++` breaks and front matter are dropped;
  `{{ name }}` substitutions take `myst_substitutions` or the front matter's values.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from docutils import nodes
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_block_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin

from tools.sources.generators.sphinx.directives.content import _VERSION_LABELS
from tools.sources.generators.sphinx.directives.includes import include_root
from tools.sources.generators.sphinx.directives.registry import (
    METADATA_DIRECTIVES,
    describes_object,
    object_scope,
)
from tools.sources.generators.sphinx.ids import enter_scope, leave_scope
from tools.sources.generators.sphinx.options import REFUSED_INCLUDE, RefContext, RstOptions
from tools.sources.generators.sphinx.render import ADMONITION_LABELS, Renderer
from tools.sources.generators.sphinx.rst import parse_rst, relative_path
from tools.sources.generators.sphinx.targets import Label, PageTargets, XrefTargets
from tools.sources.generators.sphinx.xref_scan import scan_page
from tools.sources.hidden import strip_hidden
from tools.sources.markdown.parse import parse_markdown
from tools.sources.reading import may_include, note_read
from tools.sources.records import Page
from tools.sources.slugs import docutils_id

log = logging.getLogger(__name__)

# Extensions whose presence in conf.py `extensions` makes `.md` pages MyST.
MYST_EXTENSIONS = ("myst_parser", "myst_nb")
# Nested directives deeper than this are read as their plain text (hostile input stays cheap).
MAX_DEPTH = 12
# Directives the rst reader already reads as Sphinx does: handed to it in rst syntax.
_RST_DIRECTIVES = frozenset({"toctree", "literalinclude", "csv-table", "math"})
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell"})
# Directives whose argument is their title (shown as the label of their body).
_TITLED = frozenset(
    "admonition dropdown card grid-item-card tab-item topic sidebar margin rubric tab "
    "hint-box exercise solution glossary-term".split()
)
# Directives with nothing to read (layout, metadata) beyond their body.
_UNLABELLED = frozenset(
    "grid tab-set div container card-carousel list-table figure table only centered "
    "highlights epigraph pull-quote compound parsed-literal".split()
)
_SKIPPED = frozenset({"raw", "image", "meta", "index", "tabularcolumns", "highlight"})
# Lines of pure MyST markup (fences, targets, comments), dropped from text read as it is.
_FENCE_LINE = re.compile(r"^\s*(?:(?:`{3,}|~{3,}|:{3,})\s*(?:\{.*)?|\([^()\s]+\)=\s*|%.*)$")
_OPTION_LINE = re.compile(r"^:([\w-]+):(.*)$")
_ATTRS_LINE = re.compile(r"^\s*\{[^{}\n]*\}\s*$")
_ROLE = re.compile(r"\{([A-Za-z0-9_\-+:]{1,36})\}(`+)(?!`)(.+?)(?<!`)\2(?!`)", re.S)
# `[text](dest)` (not an image), `<project:dest>`, footnotes `[^x]` and their `[^x]: ` lines.
_MD_LINK = re.compile(r"(?<![!\\\]])\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*<?([^()\s<>]+)>?\s*\)")
_INLINE_ATTRS = re.compile(r"(?<=\))\{\s*(?:[#.][\w:.-]+|[\w-]+=[^{}\s]+)(?:\s+[^{}\n]*)?\}")
_SPAN_ATTRS = re.compile(
    r"(?<![\]!\\])\[([^\[\]\n]*)\]\{\s*(?:[#.][\w:.-]+|[\w-]+=[^{}\s]+)[^{}\n]*\}"
)
_PROJECT_LINK = re.compile(r"<(project:[^<>\s]+)>")
_SCHEME = re.compile(r"^(?:[A-Za-z][\w+.-]*://|(?:mailto|tel|data|javascript):)", re.I)
_FOOTNOTE_DEF = re.compile(r"^([ \t]*)\[\^([^\]\s]+)\]:[ \t]*", re.M)
_FOOTNOTE_REF = re.compile(r"\[\^([^\]\s]+)\]")
_SUBSTITUTION = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")
_BACKTICKS = re.compile(r"`+")
_MARK = "\u2042"  # ⁂: numbers each role in the one rst document all of a page's roles go to
_ROLE_OUT = re.compile(_MARK + r"(\d+)" + _MARK + " ?")
_HEADING_MARK = "\x00H"
_TITLE_MARK = "MystLinkTitle"  # a word for a link title rst cannot hold, its number after it
_LINK_DEST = re.compile(r"\(\s*<?([^()\s<>]+)>?\s*\)")
_EXPLICIT = re.compile(r"^(.+?)\s*<(.+)>$", re.S)
_GITHUB_CLEAN = re.compile(r"[^\w\u4e00-\u9fff\- ]")


@dataclass(frozen=True)
class MystConfig:
    """The conf.py settings (`myst_*`) that change what a MyST page shows or which ids it has."""

    heading_anchors: int = 0
    heading_ids: bool = True
    slug_func: str = "github"
    extensions: frozenset[str] = frozenset()
    substitutions: Mapping[str, str] = field(default_factory=dict)


def enables_myst(extensions: Sequence[str]) -> bool:
    """Whether a Sphinx project reads Markdown as MyST (myst-parser or myst-nb is an extension)."""
    return any(ext.split(".", 1)[0] in MYST_EXTENSIONS for ext in extensions)


def myst_config(values: Mapping[str, Any]) -> MystConfig:
    """The MyST settings of a conf.py's literal `myst_*` values (others: myst-parser's defaults)."""
    anchors = values.get("myst_heading_anchors")
    slug = values.get("myst_heading_slug_func")
    subs = values.get("myst_substitutions")
    return MystConfig(
        heading_anchors=anchors
        if isinstance(anchors, int) and not isinstance(anchors, bool)
        else 0,
        heading_ids=values.get("myst_heading_anchors_html_ids", True) is not False,
        slug_func=slug if slug in ("github", "gitlab", "docutils") else "github",
        extensions=frozenset(
            e for e in values.get("myst_enable_extensions") or () if isinstance(e, str)
        ),
        substitutions={str(k): str(v) for k, v in subs.items()} if isinstance(subs, dict) else {},
    )


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": 40})
    md.use(front_matter_plugin).use(myst_block_plugin).use(colon_fence_plugin)
    md.use(attrs_block_plugin).enable("table")
    return md


@lru_cache(maxsize=8)
def _tokens(text: str) -> tuple[Token, ...]:
    """The block tokens of a text: one tokenisation per page for its read, labels and toctrees."""
    return tuple(_parser().parse(text))


def _slug(title: str, rule: str) -> str:
    """myst-parser's heading slug (myst_parser/slugs.py): GitHub's rule unless set otherwise."""
    if rule == "docutils":
        return docutils_id(title)
    if rule == "gitlab":
        slug = re.sub(
            r"-{2,}", "-", re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        )
        return f"anchor-{slug}" if slug.isdigit() else slug
    return _GITHUB_CLEAN.sub("", title.lower().replace(" ", "-"))


def _directive(token: Token) -> tuple[str, str] | None:
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
        m = _OPTION_LINE.match(lines[i].strip()) if lines[i].strip() else None
        if not m:
            break
        options[m.group(1)] = m.group(2).strip()
        i += 1
    return options, "\n".join(lines[i:])


def _as_rst(name: str, arg: str, options: Mapping[str, str], content: str) -> str:
    """A MyST directive written as the rst directive it is (for the rst reader)."""
    head = f".. {name}::" + (f" {arg}" if arg else "")
    opts = [f"   :{k}: {v}".rstrip() for k, v in options.items()]
    body = ["   " + line if line.strip() else "" for line in content.split("\n")]
    return "\n".join([head, *opts, "", *body]) + "\n"


@dataclass
class _Heading:
    level: int
    labels: list[str]
    anchor: str = ""  # fixed (a heading the rst reader gave its ids), else computed
    ids: tuple[str, ...] = ()


class _Converter:
    """One MyST page → plain Markdown, with the ids, toctrees and includes it carries."""

    def __init__(
        self, rel: str, options: RstOptions, config: MystConfig, source_path: Path | None
    ) -> None:
        self.rel = rel
        self.options = options
        self.config = config
        self.source_path = source_path
        self.substitutions = dict(config.substitutions)
        self.roles: list[tuple[str, str]] = []
        # The module and program in force where each role was written (its short names).
        self.role_scopes: list[tuple[str, str]] = []
        # Link texts holding Markdown (code spans) by role: shown in place of `_TITLE_MARK`.
        self.role_titles: dict[int, str] = {}
        self.headings: list[_Heading] = []
        self.labels: list[str] = []  # waiting for the next heading
        self.meta: dict[str, Any] = {}
        # Sphinx's `env.ref_context` (module, program, class) in force: set by `{module}`,
        # `{currentmodule}`, `{program}` and by the `{eval-rst}` blocks, each parsed on its
        # own, and carried from one to the next as Sphinx carries it through the page.
        self.ref = RefContext()
        # What prose roles are read in: the context after the blocks before them (`convert`
        # reads blocks first, prose after); None: the context in force now.
        self.prose_scope: tuple[str, str] | None = None
        # The level sections of rst parts and object descriptions sit under (the last heading's).
        self.level = 0

    # -- blocks ---------------------------------------------------------------------------

    def convert(self, text: str, depth: int = 0) -> str:
        """The Markdown of a MyST text (a page, or a directive's body at `depth`)."""
        if depth > MAX_DEPTH:  # its words as they are, the fences' lines dropped
            return "\n".join(line for line in text.split("\n") if not _FENCE_LINE.match(line))
        lines = text.split("\n")
        try:
            tokens = _tokens(text)
        except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
            log.warning("%s: cannot tokenise MyST (%s); read as plain Markdown", self.rel, exc)
            return text
        edits: dict[int, tuple[int, list[str]]] = {}
        scopes: dict[int, tuple[str, str]] = {}  # the context in force after each edit
        code: set[int] = set()
        covered = 0  # lines before this belong to a block already rewritten
        entry_scope = self._scope()
        for n, token in enumerate(tokens):
            if token.map is None or token.map[0] < covered:
                continue
            start, end = token.map
            replacement = self.block(n, tokens, depth)
            if replacement is not None:
                prefix = _prefix(lines[start], token)
                edits[start] = (end, [prefix + r if r else prefix.rstrip() for r in replacement])
                scopes[start] = self._scope()
                covered = max(end, start + 1)
            elif token.type in ("fence", "code_block", "html_block"):
                code.update(range(start, end))
        out: list[str] = []
        run: list[str] = []  # prose lines, read inline together (a code span may span lines)
        # Blocks are read first, prose after: its roles take the context of where they stand.
        outer, self.prose_scope = self.prose_scope, entry_scope

        def flush() -> None:
            if run:
                out.append(self.inline("\n".join(run)))
                run.clear()

        i = 0
        while i < len(lines):
            if i in edits:
                flush()
                end, replacement = edits[i]
                out.extend(replacement)
                self.prose_scope = scopes[i]
                i = max(end, i + 1)
                continue
            if i in code:
                flush()
                out.append(lines[i])
            elif not _ATTRS_LINE.match(lines[i]) or lines[i].strip() == "{}":
                run.append(lines[i])  # an attribute block line (`{#id}`) is no text
            i += 1
        flush()
        self.prose_scope = outer
        return "\n".join(out)

    def _scope(self) -> tuple[str, str]:
        """The module and program in force now (what a short object name is read in)."""
        return self.ref.module, self.ref.program

    def block(self, n: int, tokens: Sequence[Token], depth: int) -> list[str] | None:
        """The lines that replace block token `n`, or None to keep its source lines."""
        token = tokens[n]
        if token.type == "front_matter":
            self._front_matter(token.content)
            return []
        if token.type in ("myst_line_comment", "myst_block_break"):
            return []
        if token.type == "myst_target":
            self.labels.append(token.content.strip())
            return []
        if token.type == "heading_open":
            return self.heading(token, tokens[n + 1].content if n + 1 < len(tokens) else "", depth)
        found = _directive(token)
        if found is None and token.type == "colon_fence":  # no directive: MyST shows it as code
            return _code_fence(token.info.strip(), token.content).split("\n")
        if found is None:
            return None
        return self.directive(found[0], found[1], token.content, depth).split("\n")

    def heading(self, token: Token, inline: str, depth: int) -> list[str]:
        """A heading as a mark `_finish_headings` gives its ids (labels before it collected)."""
        text = self.inline(inline)
        if depth > 0:  # a heading inside a directive is no section in Sphinx: bold text
            return [f"**{text.strip()}**"] if text.strip() else []
        level = int(token.tag[1:]) if token.tag[1:].isdigit() else 1
        explicit = token.attrs.get("id")
        labels = [*self.labels, *([str(explicit)] if explicit else [])]
        self.labels = []
        self.level = level
        self.headings.append(_Heading(level, labels))
        return [f"{_HEADING_MARK}{len(self.headings) - 1}\x00{text.strip()}"]

    def directive(self, name: str, arg: str, body: str, depth: int) -> str:
        """The Markdown of one directive (its body converted as MyST where it is MyST)."""
        base = name.split(":", 1)[1] if name.startswith(("std:", "py:")) else name
        options, content = split_options(body)
        if name == "eval-rst":
            return self.rst(content)
        if arg and (base in ADMONITION_LABELS or base == "seealso"):
            # No argument in docutils: myst-parser reads the first line's text as content.
            content, arg = f"{arg}\n{content}", ""
        content = content.lstrip("\n")
        if base in _CODE_DIRECTIVES:
            language = arg.split()[0] if arg else self.options.highlight_language
            return _code_fence(language, content)
        if base in _RST_DIRECTIVES or (base == "include" and self._rst_include(arg)):
            return self.rst(_as_rst(base, arg, options, content))
        if base == "include":
            return self.include(arg, depth)
        if base in _SKIPPED:
            return str(options.get("alt", ""))
        if base in METADATA_DIRECTIVES or name in METADATA_DIRECTIVES:
            if base in ("module", "currentmodule", "program"):
                self.rst(_as_rst(name, arg, options, ""))  # the rst reader's rule, in `self.ref`
            return ""
        if describes_object(name, self.options):
            return self.described(name, arg, options, content, depth)
        inner = self.convert(content, depth + 1).strip("\n") if content.strip() else ""
        label = self.label(base, arg, options)
        if label is None:
            return inner
        blocks = [b for b in re.split(r"\n[ \t]*\n", inner) if b.strip()]
        if base in _VERSION_LABELS:
            version, _, rest = arg.partition(" ")
            label = f"{_VERSION_LABELS[base]} {version}".strip()
            if rest.strip():
                blocks.insert(0, self.inline(rest.strip()))
            if not blocks:
                return f"**{label}.**"
        if blocks and blocks[0].startswith((">", "* ", "+ ", "<")):  # a quote, list, HTML: own line
            return "\n\n".join([f"**{label}:**", *blocks])
        return "\n\n".join(Renderer.labelled(label, blocks))

    def label(self, name: str, arg: str, options: Mapping[str, str]) -> str | None:
        """The label a directive's body is shown under (None: its body alone)."""
        if name in ADMONITION_LABELS:
            return ADMONITION_LABELS[name] + (f": {self.inline(arg)}" if arg else "")
        if name == "seealso":
            return "See also"
        if name in _VERSION_LABELS:
            return ""
        if name in _UNLABELLED or name.startswith(("auto", "py:")):
            return None
        title = arg or options.get("title", "")
        if name in _TITLED or re.search(r"[^\W\d_]", title):
            return self.inline(title).strip() or None
        return None

    def described(
        self, name: str, arg: str, options: Mapping[str, str], content: str, depth: int
    ) -> str:
        """An object description (`{py:function}`, `{confval}`): a section with Sphinx's ids.

        Its signature goes to the rst reader (ids from the module and class in force), its
        body is MyST, read under it: a class's body in the class's scope, as Sphinx nests it.
        """
        head = self.rst(_as_rst(name, arg, options, ""))
        ref = self.ref
        current = ref.classes[-1] if ref.classes else ""
        scope = object_scope(
            name, arg, self.options, ref.module, current, str(options.get("module") or "")
        )
        level, outer = self.level, enter_scope(scope, ref)
        self.level += 1
        try:
            inner = self.convert(content, depth + 1).strip("\n") if content.strip() else ""
        finally:
            self.level = level
            leave_scope(outer, ref)
        return "\n\n".join(part for part in (head, inner) if part)

    def rst(self, text: str) -> str:
        """The Markdown of rst text read by the rst reader; its toctrees, includes and ids kept.

        It is read in the page's context (`self.ref`), which it updates; its sections sit
        under the MyST heading before it.
        """
        page = parse_rst(self.rel, text, self.options, self.source_path, self.ref)
        for key in ("toctrees", "includes", "warnings"):
            if page.meta.get(key):
                self.meta.setdefault(key, []).extend(page.meta[key])
        parts: list[str] = []
        for section in page.sections:
            if section.level > 0:
                self.headings.append(
                    _Heading(
                        self.level + section.level, [], section.anchor or "-", tuple(section.ids)
                    )
                )
                parts.append(f"{_HEADING_MARK}{len(self.headings) - 1}\x00{section.heading}")
            if section.text:
                parts.append(_escape_headings(section.text))
        return "\n\n".join(parts)

    @staticmethod
    def _rst_include(arg: str) -> bool:
        """An `{include}` of an rst file (read by the rst reader; Markdown ones here)."""
        return arg.endswith((".rst", ".rest"))

    def include(self, arg: str, depth: int) -> str:
        """`{include}` of a Markdown file: its text read as MyST here (confined to the repository)."""
        root, allowed = self.options.root, include_root(self.options)
        if root is None or allowed is None or self.source_path is None or not arg:
            return ""
        target = (root / arg.lstrip("/")) if arg.startswith("/") else self.source_path.parent / arg
        try:
            real = target.resolve()
            if not may_include(real, allowed):
                raise OSError(REFUSED_INCLUDE)
            note_read(real)  # found or not: a file that appears there later is read then
            if not real.is_file():
                raise OSError("not found")
            text = real.read_text("utf-8", errors="replace")
        except OSError as exc:
            self.meta.setdefault("warnings", []).append(f"include {arg}: {exc}")
            return ""
        self.meta.setdefault("includes", []).append(relative_path(str(real), root))
        return self.convert(text, depth + 1)

    def _front_matter(self, text: str) -> None:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            return
        if not isinstance(data, dict):
            return
        if data.get("orphan"):
            self.meta["orphan"] = True
        myst = data.get("myst")
        subs = myst.get("substitutions") if isinstance(myst, dict) else None
        if isinstance(subs, dict):
            self.substitutions.update({str(k): str(v) for k, v in subs.items()})
        for key in ("title", "description"):
            if isinstance(data.get(key), str):
                self.meta[key] = data[key]

    # -- inline ---------------------------------------------------------------------------

    def inline(self, text: str) -> str:
        """Roles become numbered marks (read later, all at once); links, substitutions resolved."""
        if "{" not in text and "[" not in text and "<project:" not in text:
            return text
        if "[" in text and ("`" in text or "\n" in text):
            # Links whose text holds a code span or a line break, which the prose pieces
            # between code spans (`_substitute`) cannot see whole.
            for start, end, label, dest in reversed(_wide_links(text)):
                shown = " ".join(label.split())
                text = text[:start] + self._link_to(shown, dest, text[start:end]) + text[end:]
        out: list[str] = []
        i = 0
        while i < len(text):
            tick = text.find("`", i)
            if tick < 0:
                out.append(self._substitute(text[i:]))
                break
            role = _role_before(text, tick)
            if role is not None:
                m = _ROLE.match(text, role)
                if m:
                    out.append(self._substitute(text[i:role]))
                    self._role(m.group(1), m.group(3))
                    out.append(f"{_MARK}{len(self.roles) - 1}{_MARK}")
                    i = m.end()
                    continue
            stop = _code_span_end(text, tick)
            out.append(self._substitute(text[i:tick]) + text[tick:stop])  # a code span as written
            i = stop
        return "".join(out)

    def _substitute(self, text: str) -> str:
        """Prose outside code: MyST links and footnotes resolved, substitutions replaced."""
        if (
            "]{" in text or "){" in text
        ):  # attrs_inline: `[text]{.class}` spans, `[x](y){.external}`
            text = _SPAN_ATTRS.sub(r"\1", text)
            text = _INLINE_ATTRS.sub("", text)
        if "](" in text or "<project:" in text:
            text = _PROJECT_LINK.sub(lambda m: f"[]({m.group(1)})", text)
            text = _MD_LINK.sub(self._link, text)
        if "[^" in text:
            text = _FOOTNOTE_DEF.sub(r"\1[\2] ", text)
            text = _FOOTNOTE_REF.sub(r"[\1]", text)
        if "substitution" not in self.config.extensions or "{{" not in text:
            return text
        return _SUBSTITUTION.sub(lambda m: self.substitutions.get(m.group(1), m.group(1)), text)

    def _link(self, m: re.Match[str]) -> str:
        """A MyST link to a label or a page (`[](label)`, `[x](page.md)`), read as Sphinx does.

        To a label: what `{ref}` shows; to a page: what `{doc}` shows (both through the rst
        reader's rendering); to an id on a page: a link to it; anything else as written.
        """
        return self._link_to(m.group(1).strip(), m.group(2), m.group(0))

    def _link_to(self, text: str, dest: str, written: str) -> str:
        """`_link` of a link's text (Markdown: may hold code spans) and destination."""
        if _SCHEME.match(dest) or dest.startswith("/_"):
            return written if "`" not in text and "\n" not in written else f"[{text}]({dest})"
        path, _, fragment = dest.removeprefix("project:").partition("#")
        here = self.rel.rsplit(".", 1)[0]
        xrefs = self.options.xrefs
        stem = re.sub(r"\.(md|rst|ipynb|txt)$", "", path)
        doc = xrefs.doc(here, stem) if xrefs is not None and path else None
        if xrefs is not None and doc is not None and fragment:
            shown = text or xrefs.doc_title(doc) or doc
            return self._fixed(f"[{shown}]({xrefs.href(here, doc, fragment)})")
        # A title with code spans cannot go into an rst role: a word stands for it there.
        title = f"{_TITLE_MARK}{len(self.roles)}" if "`" in text else text
        if doc is not None:
            role = ("doc", f"{title} <{stem}>" if text else stem)
        elif path and ("/" in path or path.endswith((".md", ".rst", ".html"))):
            return written if "\n" not in written else f"[{text}]({dest})"  # a file: as written
        else:
            label = fragment if not path else path
            if not label:
                return written if "\n" not in written else text
            role = ("ref", f"{title} <{label}>" if text else label)
        if title != text:
            self.role_titles[len(self.roles)] = text
        self._role(*role)
        return f"{_MARK}{len(self.roles) - 1}{_MARK}"

    def _fixed(self, markdown: str) -> str:
        """A mark that stands for Markdown already written (kept out of the inline pieces)."""
        self._role("", markdown)
        return f"{_MARK}{len(self.roles) - 1}{_MARK}"

    def _role(self, name: str, content: str) -> None:
        """Note a role to read later, with the context it is written in."""
        self.roles.append((name, content))
        self.role_scopes.append(self.prose_scope or self._scope())

    def resolve_roles(self, text: str, labels: Mapping[str, tuple[str, str]]) -> str:
        """Every role mark as the rst reader reads the same role (one rst parse for the page)."""
        if not self.roles:
            return text
        rendered: dict[int, str] = {}
        here = self.rel.rsplit(".", 1)[0]
        xrefs = self.options.xrefs
        rst: list[str] = []
        scope = ("", "")
        for n, (name, content) in enumerate(self.roles):
            if not name:  # Markdown written already (`_fixed`)
                rendered[n] = content
                continue
            content = " ".join(content.split())
            same_page = self._same_page(name, content, labels, here, xrefs)
            if same_page is not None:
                rendered[n] = same_page
            elif "`" in content or not content:
                rendered[n] = f"`{content}`" if content else ""
            else:
                if self.role_scopes[n] != scope:  # read in the module/program it stands in
                    scope = self.role_scopes[n]
                    rst.append(f".. currentmodule:: {scope[0] or 'None'}")
                    rst.append(f".. program:: {scope[1] or 'None'}")
                rst.append(f"{_MARK}{n}{_MARK} :{name}:`{content}`")
        if rst:
            page = parse_rst(self.rel, "\n\n".join(rst) + "\n", self.options, self.source_path)
            body = "\n\n".join(s.text for s in page.sections)
            pieces = _ROLE_OUT.split(body)
            for k in range(1, len(pieces) - 1, 2):
                rendered[int(pieces[k])] = pieces[k + 1].strip()
        for n, (_, content) in enumerate(self.roles):
            rendered.setdefault(n, content)
        for n, title in self.role_titles.items():
            rendered[n] = rendered[n].replace(f"{_TITLE_MARK}{n}", title)
        return re.sub(
            re.escape(_MARK) + r"(\d+)" + re.escape(_MARK),
            lambda m: rendered.get(int(m.group(1)), ""),
            text,
        )

    @staticmethod
    def _same_page(
        name: str,
        content: str,
        labels: Mapping[str, tuple[str, str]],
        here: str,
        xrefs: XrefTargets | None,
    ) -> str | None:
        """A `{ref}` to a label of this page, linked as Sphinx links it (the rst reader's rule).

        The one rst document of the roles has no sections, so same-page labels are read here.
        """
        if name not in ("ref", "std:ref"):
            return None
        m = _EXPLICIT.match(content)
        text, target = (m.group(1), m.group(2)) if m else ("", content)
        found = labels.get(nodes.fully_normalize_name(target))
        if found is None:
            return None
        anchor, title = found
        shown = text or title
        if xrefs is None or not shown:
            return shown or None
        return f"[{shown}]({xrefs.href(here, here, anchor)})"


_ATX_LINE = re.compile(r"^( {0,3})(#{1,6}(?:[ \t]|$))")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _escape_headings(markdown: str) -> str:
    """Text of the rst reader with its `#` lines escaped, so that they stay paragraphs.

    The rst reader's Markdown goes back into the page's Markdown stream, where a paragraph line
    starting with `#` (a comment after a code example) would become a heading and cut the
    section; in code blocks it stays as it is.
    """
    out: list[str] = []
    fence = ""
    for line in markdown.split("\n"):
        opened = _FENCE_OPEN.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
        elif opened:
            fence = opened.group(1)
        else:
            line = _ATX_LINE.sub(r"\1\\\2", line)
        out.append(line)
    return "\n".join(out)


def _code_fence(language: str, code: str) -> str:
    """A fenced code block, its fence longer than any run of backticks in the code."""
    ticks = max(3, 1 + max((len(m) for m in _BACKTICKS.findall(code)), default=0))
    return f"{'`' * ticks}{language}\n{code.strip(chr(10)).rstrip()}\n{'`' * ticks}"


def _prefix(line: str, token: Token) -> str:
    """What stands before a block on its first line (list indentation, `> `), kept on each line."""
    marker = token.markup[:1] if token.markup else ""
    if token.type.startswith("heading") or token.type.startswith("myst") or not marker:
        return ""
    at = line.find(marker)
    return line[:at] if at > 0 and not line[:at].strip(" >\t") else ""


def _code_span_end(text: str, tick: int) -> int:
    """Where the code span opened by the backticks at `tick` ends (CommonMark: a run of as many)."""
    run = _BACKTICKS.match(text, tick)
    assert run is not None
    ticks = run.group(0)
    close = text.find(ticks, run.end())
    while close >= 0 and text[close + len(ticks) : close + len(ticks) + 1] == "`":
        close = text.find(ticks, close + len(ticks) + 1)
    return run.end() if close < 0 else close + len(ticks)


def _wide_links(text: str) -> list[tuple[int, int, str, str]]:
    """Each link `[text](dest)` whose text holds a code span or a line break, outside code spans.

    (start, end, text, destination): Markdown links all the same, a blank line ends the text.
    """
    found: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "`":
            i = _code_span_end(text, i)
            continue
        if c != "[" or (i and text[i - 1] in "!\\]"):
            i += 1
            continue
        j, depth, wide = i + 1, 0, False
        while j < len(text):
            if text[j] == "`":
                j, wide = _code_span_end(text, j), True
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
        dest = _LINK_DEST.match(text, j + 1) if j < len(text) and text[j] == "]" else None
        if dest is None or not wide:
            i += 1
            continue
        found.append((i, dest.end(), text[i + 1 : j], dest.group(1)))
        i = dest.end()
    return found


def _role_before(text: str, tick: int) -> int | None:
    """Where a role's `{name}` starts if it stands right before the backticks at `tick`."""
    if tick < 3 or text[tick - 1] != "}":
        return None
    start = text.rfind("{", max(0, tick - 40), tick)
    return start if start >= 0 else None


def _finish_headings(
    text: str, converter: _Converter, config: MystConfig
) -> tuple[str, dict[str, tuple[str, ...]]]:
    """Heading marks → ATX headings with their docutils id; the other ids each section has."""
    taken: set[str] = set()
    slugs: set[str] = set()
    extra: dict[str, tuple[str, ...]] = {}
    counter = 0
    out: list[str] = []
    for line in text.split("\n"):
        if not line.startswith(_HEADING_MARK):
            out.append(line)
            continue
        number, _, heading = line[len(_HEADING_MARK) :].partition("\x00")
        head = converter.headings[int(number)]
        plain = _plain(heading)
        if head.anchor:  # read by the rst reader: its ids as they are
            anchor, ids = head.anchor.strip("-"), list(head.ids)
        else:
            own = docutils_id(plain)
            if own in taken or not own:
                counter += 1
                own = f"id{counter}"  # docutils' id for a repeated (or id-less) title
            ids = [docutils_id(label) for label in head.labels]
            ids = [i for i in ids if i] + [own]
            if head.level <= config.heading_anchors and config.heading_ids:
                slug = _slug(plain, config.slug_func)
                base, n = slug, 0
                while slug in slugs:
                    n += 1
                    slug = f"{base}-{n}"
                if slug:
                    slugs.add(slug)
                    if not re.search(r"\s", slug) and slug not in taken:
                        ids.append(slug)
            anchor = ids[0]
        taken.update(ids)
        extra[anchor] = tuple(dict.fromkeys(i for i in ids if i and i != anchor))
        out.append("#" * min(head.level, 6) + f" {heading.strip()} {{#{anchor}}}")
    return "\n".join(out), extra


def _plain(markdown: str) -> str:
    """A heading's words (what docutils' `astext` gives): code spans' text, links' text."""
    tokens = _parser().parseInline(markdown)
    words: list[str] = []
    for token in tokens:
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
    return " ".join("".join(words).split())


def page_labels(text: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """A MyST page's title and its labels (`(label)=`, `{#id}`) → (id served, section title)."""
    try:
        tokens = _tokens(text)
    except Exception:  # noqa: BLE001 — targets of an unreadable page are just unknown
        return "", {}
    title = ""
    pending: list[str] = []
    labels: dict[str, tuple[str, str]] = {}
    for n, token in enumerate(tokens):
        if token.type == "myst_target":
            pending.append(token.content.strip())
        elif token.type == "heading_open" and token.level == 0:
            words = _plain(tokens[n + 1].content) if n + 1 < len(tokens) else ""
            title = title or words
            explicit = token.attrs.get("id")
            for name in [*pending, *([str(explicit)] if explicit else [])]:
                key = nodes.fully_normalize_name(name)
                labels.setdefault(key, (docutils_id(name), words))
            pending = []
        elif token.level == 0 and token.type not in ("myst_line_comment", "myst_block_break"):
            for name in pending:  # a label before another block: Sphinx links it only explicitly
                labels.setdefault(nodes.fully_normalize_name(name), (docutils_id(name), ""))
            pending = []
    return title, labels


def scan_myst_page(docname: str, text: str, options: RstOptions | None = None) -> PageTargets:
    """The cross-reference targets a MyST page defines, without a full read.

    Its title and labels, and (given the site's `options`) the objects its `{eval-rst}` blocks
    and object directives describe, read by the rst scanner in page order (`_rst_outline`), so
    a `currentmodule` of one block names the objects of the next.
    """
    title, labels = page_labels(text)
    page = PageTargets(docname, title)
    if options is not None:
        outline = _rst_outline(text, options, 0)
        if outline:
            page.objects.update(scan_page(docname, outline, options).objects)
    for name, (anchor, section) in labels.items():
        page.labels[name] = Label(docname, anchor, section)
    return page


def _rst_outline(text: str, options: RstOptions, depth: int) -> str:
    """A MyST text's object directives and `{eval-rst}` blocks as rst, in page order.

    Bodies are left out, except the object directives nested in them (indented under theirs).
    """
    if depth > MAX_DEPTH:
        return ""
    try:
        tokens = _tokens(text)
    except Exception:  # noqa: BLE001 — no targets from an unreadable page
        return ""
    parts: list[str] = []
    for token in tokens:
        found = _directive(token)
        if found is None:
            continue
        name, arg = found
        if name == "eval-rst":
            parts.append(token.content)
            continue
        options_, content = split_options(token.content)
        base = name.split(":", 1)[1] if name.startswith(("std:", "py:")) else name
        if base in ("module", "currentmodule", "program") or describes_object(name, options):
            parts.append(_as_rst(name, arg, options_, _rst_outline(content, options, depth + 1)))
        elif "{" in token.content:  # an admonition, tab or card may hold some
            parts.append(_rst_outline(content, options, depth + 1))
    return "\n\n".join(p for p in parts if p.strip())


def myst_toctree_blocks(text: str) -> list[str]:
    """The page's `{toctree}` directives (and those of its `{eval-rst}` blocks) as rst blocks."""
    from tools.sources.sphinx_site import toctree_blocks

    try:
        tokens = _tokens(text)
    except Exception:  # noqa: BLE001 — no navigation from an unreadable page
        return []
    blocks: list[str] = []
    for token in tokens:
        found = _directive(token)
        if found is None:
            continue
        name, arg = found
        if name == "toctree":
            options, content = split_options(token.content)
            blocks.append(_as_rst("toctree", arg, options, content))
        elif name == "eval-rst":
            blocks.extend(toctree_blocks(token.content))
        elif token.content.count("{toctree}"):
            blocks.extend(myst_toctree_blocks(split_options(token.content)[1]))
    return blocks


def parse_myst(
    rel: str,
    text: str,
    options: RstOptions,
    config: MystConfig,
    source_path: Path | None = None,
    language: str = "python",
) -> Page:
    """Parse a MyST page into a `Page` with the sections and ids Sphinx builds; never raises."""
    converter = _Converter(rel, options, config, source_path)
    text = text.replace("\r\n", "\n")
    try:
        markdown = converter.convert(text)
        _, labels = page_labels(text)
        markdown = converter.resolve_roles(markdown, labels)
        markdown, extra = _finish_headings(markdown, converter, config)
    except RecursionError as exc:
        log.warning("%s: MyST nested too deep (%s); read as plain Markdown", rel, exc)
        markdown, extra = text, {}
    front = ""
    if converter.meta.get("description"):
        front = "---\n" + yaml.safe_dump({"description": converter.meta["description"]}) + "---\n"
    # Hidden text (HTML comments, hidden elements, reference definitions) goes as on Markdown
    # pages, after the MyST read: a footnote line `[^n]: text` would read as a definition.
    page = parse_markdown(rel, front + strip_hidden(markdown), language, "docutils")
    for section in page.sections:
        if section.anchor in extra:
            section.ids = tuple(dict.fromkeys((*extra[section.anchor], *section.ids)))
    first = next((s.heading for s in page.sections if s.level > 0), "")
    if first:
        page.title = first  # Sphinx's title is the first heading, never the front matter's
    for key in ("toctrees", "includes", "warnings", "orphan"):
        if converter.meta.get(key):
            page.meta[key] = converter.meta[key]
    return page


def with_xrefs(options: RstOptions, xrefs: XrefTargets | None) -> RstOptions:
    """The reader options with the site's cross-reference targets (links), when known."""
    return options if xrefs is None else replace(options, xrefs=xrefs)
