"""What a Sphinx project's conf.py tells the reader, and what one page's parse collects.

Handlers read the per-parse state from `document.settings.sphinx` (`ParseState`): nothing global
changes between two pages except docutils' own directive registry, filled once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

if TYPE_CHECKING:
    from tools.sources.generators.sphinx.targets import XrefTargets


# The prefix of docutils' numbered ids as Sphinx sets it (`auto_id_prefix`): `id1`, `id2`…
AUTO_ID_PREFIX = "id"
# Why an include was not read (`may_include`).
REFUSED_INCLUDE = "outside the repository, or a dot file: not read"
# The tags an HTML build sets (`only` directive); what `sphinx-build -b html` evaluates against.
HTML_TAGS = frozenset({"html", "format_html", "builder_html"})


@dataclass(frozen=True)
class RstOptions:
    """What a Sphinx project's conf.py tells the reader (read with `ast`, never executed).

    `root` is the docs folder (a leading `/` in an include names it); `include` and
    `literalinclude` read files inside `files_root` (the repository holding the docs; None:
    `root` itself) and refuse the rest (both None: every include is refused);
    `crossref_types` are `app.add_crossref_type` names (a bare target `std-NAME-x`) and
    `object_types` are `app.add_object_type` names (a described object `NAME-x`);
    `type_roles` maps each of their role names to its type (`rolename`: `:ev:` → `event`; a
    type with no entry there is its own role); `domain_directives` maps a directive conf.py
    adds with a Sphinx object class to the built-in one it behaves as (`py:decorator2` →
    `function`: id `module.name` like any Python object);
    `prolog` / `epilog` are conf.py's `rst_prolog` / `rst_epilog`, read with every page;
    `xrefs` are the site's cross-reference targets (None: references show as text only).

    `link_objects` makes object roles (`:func:`, `:confval:`…) links too, not only `:ref:` and
    `:doc:`. Off by default: an object role is an API name, the Sphinx form of the autorefs the
    MkDocs reader shows as text, and as links their code names all become anchor words of
    the one reference page that describes the objects (measured on a Sphinx corpus: it then
    outranks the guides; see tools/sources/generators/sphinx/targets.py).
    """

    root: Path | None = None
    files_root: Path | None = None
    default_role: str = ""
    highlight_language: str = ""
    tags: frozenset[str] = HTML_TAGS
    substitutions: Mapping[str, str] = field(default_factory=dict)
    crossref_types: frozenset[str] = frozenset()
    object_types: frozenset[str] = frozenset()
    type_roles: Mapping[str, str] = field(default_factory=dict)
    domain_directives: Mapping[str, str] = field(default_factory=dict)
    prolog: str = ""
    epilog: str = ""
    function_parentheses: bool = True
    xrefs: XrefTargets | None = field(default=None, repr=False, compare=False)
    link_objects: bool = False


@dataclass
class RefContext:
    """What `module` / `currentmodule`, `program` and class nesting put in force on a page.

    Sphinx's `env.ref_context`: it holds for the rest of the page. A page read in parts (a MyST page's `{eval-rst}` blocks and object directives) carries one
    from part to part, so a `currentmodule` in one block names the objects of the next.
    """

    module: str = ""
    program: str = ""
    classes: list[str] = field(default_factory=list)


@dataclass
class ParseState:
    """What directives collect while one page is parsed (document order).

    `docname` is the page's Sphinx document name (`how-to/fixtures`): links start from it.
    """

    options: RstOptions
    docname: str = ""
    toctrees: list[dict[str, Any]] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    default_role: str = ""
    program: str = ""
    module: str = ""
    classes: list[str] = field(default_factory=list)
    # docutils' numbered ids (`id7`) handed out before the page's first autodoc directive:
    # the docstring Sphinx puts there (never read here) may take numbers, so later ones are
    # unknown (None: the page has no autodoc directive).
    numbered_ids_known: int | None = None

    def note_autodoc(self, document: nodes.document) -> None:
        """An autodoc directive: the numbered ids after this point are not known."""
        if self.numbered_ids_known is None:
            self.numbered_ids_known = int(document.id_counter[AUTO_ID_PREFIX])


def state_of(document: nodes.document) -> ParseState:
    """The parse state that `tools.sources.generators.sphinx.rst` put on the document's settings.

    The handlers are registered in docutils' process-wide registry, so another docutils user
    in the process meets them too: it gets a default state (no docs folder: no file is read).
    """
    state = getattr(document.settings, "sphinx", None)
    if not isinstance(state, ParseState):
        state = ParseState(RstOptions())
        document.settings.sphinx = state
    return state
