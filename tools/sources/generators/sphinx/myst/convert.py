"""MyST constructs rewritten, in place, to the plain Markdown the Markdown reader reads, so no text is lost.

- directive fences (```` ```{note} ````, ``:::{tip}``): admonitions as the rst reader labels
  them, code blocks with their language, other directives as their (MyST) body, converted
  again; `toctree`, `literalinclude`, `include` of rst, `csv-table` and `{eval-rst}` are handed
  to the rst reader (tools/sources/generators/sphinx/rst.py), which already reads them as Sphinx does;
- roles (`` {ref}`label` ``, `` {doc}`path` ``, `` {py:func}`x` ``) go to the rst reader too, all of
  a page's in one parse, so they read (as text or links) exactly as on rst pages;
- targets `(label)=` and `{#id}` attribute blocks become ids of the section they precede;
  `% comments`, `+++` breaks and front matter are dropped; `{{ name }}` substitutions take
  `myst_substitutions` or the front matter's values.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from docutils import nodes
from markdown_it.token import Token

from tools.sources.generators.sphinx.directives.content import _VERSION_LABELS
from tools.sources.generators.sphinx.directives.includes import include_root
from tools.sources.generators.sphinx.directives.registry import (
    METADATA_DIRECTIVES,
    describes_object,
    object_scope,
)
from tools.sources.generators.sphinx.ids import enter_scope, leave_scope
from tools.sources.generators.sphinx.myst.config import MystConfig
from tools.sources.generators.sphinx.myst.syntax import (
    ATTRS_LINE,
    CODE_DIRECTIVES,
    EXPLICIT,
    FENCE_LINE,
    FOOTNOTE_DEF,
    FOOTNOTE_REF,
    HEADING_MARK,
    INLINE_ATTRS,
    MARK,
    MAX_DEPTH,
    MD_LINK,
    PROJECT_LINK,
    ROLE,
    ROLE_OUT,
    RST_DIRECTIVES,
    SCHEME,
    SKIPPED,
    SPAN_ATTRS,
    SUBSTITUTION,
    TITLE_MARK,
    TITLED,
    UNLABELLED,
    HeadingMark,
    as_rst_directive,
    code_fence,
    code_span_end,
    directive_of,
    escape_headings,
    line_prefix,
    role_before,
    split_options,
    tokens_of,
    wide_links,
)
from tools.sources.generators.sphinx.options import REFUSED_INCLUDE, RefContext, RstOptions
from tools.sources.generators.sphinx.render import ADMONITION_LABELS, Renderer
from tools.sources.generators.sphinx.rst import parse_rst, relative_path
from tools.sources.generators.sphinx.targets import XrefTargets
from tools.sources.reading import may_include, note_read

log = logging.getLogger(__name__)


class Converter:
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
        # Link texts holding Markdown (code spans) by role: shown in place of `TITLE_MARK`.
        self.role_titles: dict[int, str] = {}
        self.headings: list[HeadingMark] = []
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
            return "\n".join(line for line in text.split("\n") if not FENCE_LINE.match(line))
        lines = text.split("\n")
        try:
            tokens = tokens_of(text)
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
                prefix = line_prefix(lines[start], token)
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
            elif not ATTRS_LINE.match(lines[i]) or lines[i].strip() == "{}":
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
        found = directive_of(token)
        if found is None and token.type == "colon_fence":  # no directive: MyST shows it as code
            return code_fence(token.info.strip(), token.content).split("\n")
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
        self.headings.append(HeadingMark(level, labels))
        return [f"{HEADING_MARK}{len(self.headings) - 1}\x00{text.strip()}"]

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
        if base in CODE_DIRECTIVES:
            language = arg.split()[0] if arg else self.options.highlight_language
            return code_fence(language, content)
        if base in RST_DIRECTIVES or (base == "include" and self._rst_include(arg)):
            return self.rst(as_rst_directive(base, arg, options, content))
        if base == "include":
            return self.include(arg, depth)
        if base in SKIPPED:
            return str(options.get("alt", ""))
        if base in METADATA_DIRECTIVES or name in METADATA_DIRECTIVES:
            if base in ("module", "currentmodule", "program"):
                self.rst(
                    as_rst_directive(name, arg, options, "")
                )  # the rst reader's rule, in `self.ref`
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
        if name in UNLABELLED or name.startswith(("auto", "py:")):
            return None
        title = arg or options.get("title", "")
        if name in TITLED or re.search(r"[^\W\d_]", title):
            return self.inline(title).strip() or None
        return None

    def described(
        self, name: str, arg: str, options: Mapping[str, str], content: str, depth: int
    ) -> str:
        """An object description (`{py:function}`, `{confval}`): a section with Sphinx's ids.

        Its signature goes to the rst reader (ids from the module and class in force), its
        body is MyST, read under it: a class's body in the class's scope, as Sphinx nests it.
        """
        head = self.rst(as_rst_directive(name, arg, options, ""))
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
                    HeadingMark(
                        self.level + section.level, [], section.anchor or "-", tuple(section.ids)
                    )
                )
                parts.append(f"{HEADING_MARK}{len(self.headings) - 1}\x00{section.heading}")
            if section.text:
                parts.append(escape_headings(section.text))
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
            for start, end, label, dest in reversed(wide_links(text)):
                shown = " ".join(label.split())
                text = text[:start] + self._link_to(shown, dest, text[start:end]) + text[end:]
        out: list[str] = []
        i = 0
        while i < len(text):
            tick = text.find("`", i)
            if tick < 0:
                out.append(self._substitute(text[i:]))
                break
            role = role_before(text, tick)
            if role is not None:
                m = ROLE.match(text, role)
                if m:
                    out.append(self._substitute(text[i:role]))
                    self._role(m.group(1), m.group(3))
                    out.append(f"{MARK}{len(self.roles) - 1}{MARK}")
                    i = m.end()
                    continue
            stop = code_span_end(text, tick)
            out.append(self._substitute(text[i:tick]) + text[tick:stop])  # a code span as written
            i = stop
        return "".join(out)

    def _substitute(self, text: str) -> str:
        """Prose outside code: MyST links and footnotes resolved, substitutions replaced."""
        if (
            "]{" in text or "){" in text
        ):  # attrs_inline: `[text]{.class}` spans, `[x](y){.external}`
            text = SPAN_ATTRS.sub(r"\1", text)
            text = INLINE_ATTRS.sub("", text)
        if "](" in text or "<project:" in text:
            text = PROJECT_LINK.sub(lambda m: f"[]({m.group(1)})", text)
            text = MD_LINK.sub(self._link, text)
        if "[^" in text:
            text = FOOTNOTE_DEF.sub(r"\1[\2] ", text)
            text = FOOTNOTE_REF.sub(r"[\1]", text)
        if "substitution" not in self.config.extensions or "{{" not in text:
            return text
        return SUBSTITUTION.sub(lambda m: self.substitutions.get(m.group(1), m.group(1)), text)

    def _link(self, m: re.Match[str]) -> str:
        """A MyST link to a label or a page (`[](label)`, `[x](page.md)`), read as Sphinx does.

        To a label: what `{ref}` shows; to a page: what `{doc}` shows (both through the rst
        reader's rendering); to an id on a page: a link to it; anything else as written.
        """
        return self._link_to(m.group(1).strip(), m.group(2), m.group(0))

    def _link_to(self, text: str, dest: str, written: str) -> str:
        """`_link` of a link's text (Markdown: may hold code spans) and destination."""
        if SCHEME.match(dest) or dest.startswith("/_"):
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
        title = f"{TITLE_MARK}{len(self.roles)}" if "`" in text else text
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
        return f"{MARK}{len(self.roles) - 1}{MARK}"

    def _fixed(self, markdown: str) -> str:
        """A mark that stands for Markdown already written (kept out of the inline pieces)."""
        self._role("", markdown)
        return f"{MARK}{len(self.roles) - 1}{MARK}"

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
                rst.append(f"{MARK}{n}{MARK} :{name}:`{content}`")
        if rst:
            page = parse_rst(self.rel, "\n\n".join(rst) + "\n", self.options, self.source_path)
            body = "\n\n".join(s.text for s in page.sections)
            pieces = ROLE_OUT.split(body)
            for k in range(1, len(pieces) - 1, 2):
                rendered[int(pieces[k])] = pieces[k + 1].strip()
        for n, (_, content) in enumerate(self.roles):
            rendered.setdefault(n, content)
        for n, title in self.role_titles.items():
            rendered[n] = rendered[n].replace(f"{TITLE_MARK}{n}", title)
        return re.sub(
            re.escape(MARK) + r"(\d+)" + re.escape(MARK),
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
        m = EXPLICIT.match(content)
        text, target = (m.group(1), m.group(2)) if m else ("", content)
        found = labels.get(nodes.fully_normalize_name(target))
        if found is None:
            return None
        anchor, title = found
        shown = text or title
        if xrefs is None or not shown:
            return shown or None
        return f"[{shown}]({xrefs.href(here, here, anchor)})"
