"""reStructuredText (Sphinx) pages as `Page` records: docutils' parser, clean Markdown out.

Parsed with docutils (the reference parser, not regexes); Sphinx's directives and roles come from
tools/sources/generators/sphinx/directives/ and roles.py. Section ids are the ones the built site
serves: docutils assigns them while parsing exactly as under Sphinx (`make_id` of the title, `idN`
when taken), and internal targets (`.. _label:`) are moved onto the next element by docutils' own
`PropagateTargets`, so a section's ids are its title id followed by its labels. The doctree
becomes Markdown in render.py. A file docutils cannot parse is kept as plain text with a warning,
never dropped.

Limits (no Sphinx build): autodoc docstrings are not in the source (the object's ids are kept);
the content of a false `only` branch is not parsed, so ids it would have consumed are not counted.
"""

from __future__ import annotations

import copy
import gc
import logging
import re
from pathlib import Path
from typing import Any

from docutils import frontend, nodes, utils
from docutils.parsers.rst import Parser
from docutils.transforms.references import PropagateTargets

from tools.sources.generators.sphinx import docutils_fast
from tools.sources.generators.sphinx.directives.registry import register_directives
from tools.sources.generators.sphinx.options import (
    AUTO_ID_PREFIX,
    ParseState,
    RefContext,
    RstOptions,
)
from tools.sources.generators.sphinx.render import Renderer
from tools.sources.generators.sphinx.roles import sphinx_inliner
from tools.sources.records import Page, plain_page

log = logging.getLogger(__name__)


docutils_fast.install()  # exact ASCII shortcuts for docutils' width helpers (speed only)
_DOCINFO = re.compile(r":\w+:")  # Sphinx's own test for a file-wide field line
_settings_template: Any = None


def _settings(source_path: str, state: ParseState) -> Any:
    """Docutils settings as Sphinx sets them (ids `idN`), quiet, files confined to the docs root."""
    global _settings_template
    if _settings_template is None:
        template = frontend.get_default_settings(Parser)
        template.report_level = 5  # messages stay in the tree (dropped there), not on stderr
        template.halt_level = 5
        template.warning_stream = False
        template.auto_id_prefix = AUTO_ID_PREFIX
        template.id_prefix = ""
        template.syntax_highlight = "none"
        template.raw_enabled = False
        template.character_level_inline_markup = False
        template.pep_references = False
        template.rfc_references = False
        template.tab_width = 8
        _settings_template = template
    settings = copy.copy(_settings_template)
    settings.file_insertion_enabled = state.options.root is not None
    settings.root_prefix = str(state.options.root) if state.options.root else ""
    settings.record_dependencies = utils.DependencyList()
    settings.sphinx = state
    settings._source = source_path
    return settings


def page_field_list(document: nodes.document) -> dict[str, str]:
    """Sphinx's file-wide metadata: a field list before anything else (`:orphan:`, `:tocdepth:`)."""
    for child in document.children:
        if isinstance(child, nodes.comment | nodes.target | nodes.substitution_definition):
            continue
        if isinstance(child, nodes.field_list):
            fields = {}
            for fld in child.children:
                fields[fld[0].astext().strip()] = fld[1].astext().strip()
            child.parent.remove(child)
            return fields
        if isinstance(child, nodes.docinfo):
            return {}
        break
    return {}


def parse_rst(
    path: str,
    text: str,
    options: RstOptions | None = None,
    source_path: Path | None = None,
    context: RefContext | None = None,
) -> Page:
    """Parse reStructuredText into a `Page`; never raises on malformed input.

    `path` names the page in the records; `source_path` is the file on disk (relative includes
    are resolved from it, confined to `options.root`); `context` is the module, program and
    class in force where the text starts, updated to those in force where it ends (a part of
    a page: the next part goes on from there, as in Sphinx).
    """
    options = options or RstOptions()
    # The cycle collector would walk the growing doctree (nodes point to their parents) again
    # and again while it is built; the tree is taken apart after it is read (`_release`), so
    # collection is paused for the parse only and the next automatic run takes what is left.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _parse(path, text, options, source_path, context)
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not parse %s (%s); indexing it as plain text", path, exc)
        return plain_page(path, text.strip(), str(exc))
    finally:
        if collecting:
            gc.enable()


def _parse(
    path: str, text: str, options: RstOptions, source_path: Path | None, context: RefContext | None
) -> Page:
    state = ParseState(options, docname=_docname(path))
    if context is not None:
        state.module, state.program = context.module, context.program
        state.classes = list(context.classes)
    if source_path is None and options.root is not None:
        source_path = options.root / path
    source = str(source_path) if source_path else path
    register_directives(text, options)
    document = utils.new_document(source, _settings(source, state))
    Parser(inliner=sphinx_inliner()).parse(
        _with_prolog(text.replace("\r\n", "\n"), options), document
    )
    if context is not None:
        context.module, context.program = state.module, state.program
        context.classes[:] = state.classes
    fields = page_field_list(document)
    PropagateTargets(document).apply()

    sections = Renderer(state).sections(document)
    title = next((s.heading for s in sections if s.level > 0), "")
    if not title:
        title = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if sections and sections[0].level == 0:
        sections[0].heading = title
    meta: dict[str, Any] = dict(fields)
    if "orphan" in fields:
        meta["orphan"] = True
    if state.toctrees:
        meta["toctrees"] = state.toctrees
    if state.warnings:
        meta["warnings"] = state.warnings
        for warning in state.warnings:
            log.warning("%s: %s", path, warning)
    includes = sorted(
        relative_path(p, options.root) for p in document.settings.record_dependencies.list
    )
    if includes:
        meta["includes"] = includes
    description = str(state.meta.get("description", "")).strip()
    _release(document)
    return Page(path, title, description, sections, meta)


def _docname(path: str) -> str:
    """The page's Sphinx document name: its path without the file suffix."""
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return f"{folder}/{stem}" if folder else stem


def _release(document: nodes.document) -> None:
    """Break the doctree's links so it is freed at once, not by the cycle collector.

    Every node points to its parent and the document keeps maps of its nodes: left alone, each
    parsed page is cyclic garbage that the collector must walk (a fifth of the corpus's parse
    time). The records hold no node, so the tree is taken apart once it has been read.
    """
    stack: list[nodes.Node] = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, nodes.Element):
            stack.extend(node.children)
            node.children = []
        node.parent = None
    vars(document).clear()


def _with_prolog(text: str, options: RstOptions) -> str:
    """The page with conf.py's `rst_prolog` after its file-wide fields, `rst_epilog` at the end.

    Where Sphinx puts them: a project defines substitutions and link targets there.
    """
    if not options.prolog and not options.epilog:
        return text
    lines = text.split("\n")
    start = 0
    while start < len(lines) and _DOCINFO.match(lines[start]):
        start += 1  # the field list (`:orphan:`) stays first
    head, rest = "\n".join(lines[:start]), "\n".join(lines[start:])
    parts = (
        [head, options.prolog, rest, options.epilog]
        if head
        else [options.prolog, rest, options.epilog]
    )
    return "\n\n".join(p for p in parts if p) + "\n"


def relative_path(path: str, root: Path | None) -> str:
    """An included file as a path relative to the docs folder; absolute when it lies outside.

    Only a file inside the docs folder can be a page that is merely included elsewhere
    (`SphinxSite.pages`); one from elsewhere in the repository keeps its absolute path.
    """
    resolved = Path(path).resolve()
    if root is not None and resolved.is_relative_to(root.resolve()):
        return resolved.relative_to(root.resolve()).as_posix()
    return resolved.as_posix()
