"""Sphinx's directives and roles for a plain docutils parse, without Sphinx or the project's conf.py.

A Sphinx project's `.rst` files use markup that docutils alone does not know (`code-block`,
`toctree`, `:ref:`, object descriptions such as `confval`…). Running Sphinx would mean installing
it with every extension a project loads and executing its `conf.py`; instead each construct gets a
small handler here that yields what the built page shows as text, with the ids the built page
serves (`confval-x`, `cmdoption-k`, `std-fixture-capsys`). Directives nobody registered are still
parsed (their content as reStructuredText, their title as a label), never an error.

Handlers read the per-parse state from `document.settings.sphinx` (`ParseState`): nothing global
changes between two pages except docutils' own directive registry, filled once.
"""

from __future__ import annotations

import ast
import re
import types
import unicodedata
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from docutils import nodes, utils
from docutils.parsers.rst import Directive, directives, roles, states
from docutils.parsers.rst.directives.misc import Include
from docutils.parsers.rst.directives.tables import CSVTable
from typing_extensions import override

from tools.sources.reading import may_include, note_read

if TYPE_CHECKING:
    from tools.sources.sphinx_xrefs import XrefTargets

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
    outranks the guides; see tools/sources/sphinx_xrefs.py).
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
    """The parse state that `tools.sources.rst` put on the document's settings.

    The handlers are registered in docutils' process-wide registry, so another docutils user
    in the process meets them too: it gets a default state (no docs folder: no file is read).
    """
    state = getattr(document.settings, "sphinx", None)
    if not isinstance(state, ParseState):
        state = ParseState(RstOptions())
        document.settings.sphinx = state
    return state


# -- nodes the renderer knows ---------------------------------------------------------------


class object_desc(nodes.Element):  # type: ignore[misc]  # noqa: N801 - docutils names node classes in lower case
    """A described object (`confval`, `option`, `autofunction`…): its own section on the page."""


class labelled(nodes.Element):  # type: ignore[misc]  # noqa: N801
    """A block shown under a label: `seealso`, `versionadded`, a tab, an unknown directive."""


class xref(nodes.inline):  # type: ignore[misc]  # noqa: N801
    """A cross-reference (`:ref:`, `:doc:`, an object role): a link when the site has its target.

    `reftype` is the role without its domain, `reftarget` what it names, `explicit` whether a
    title was written; object roles also keep the scope they were written in (`module`,
    `classes`, `program`), which decides what a short name means.
    """


class highlight_marker(nodes.Element, nodes.Invisible):  # type: ignore[misc]  # noqa: N801
    """`.. highlight:: lang`: the language of the `::` literal blocks that follow."""


# -- ids as Sphinx forms them ---------------------------------------------------------------

_SPHINX_NON_ID = re.compile(r"[^a-zA-Z0-9._]+")
_SPHINX_ID_ENDS = re.compile(r"^[-0-9._]+|-+$")


def sphinx_make_id(text: str) -> str:
    """Sphinx's `_make_id`: like docutils' but keeps case, `.` and `_` (`envvar-CI`)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _SPHINX_ID_ENDS.sub("", _SPHINX_NON_ID.sub("-", " ".join(ascii_text.split())))


def object_id(taken: Container[str], prefix: str, name: str) -> str:
    """Sphinx's `make_id(env, document, prefix, name)`: `prefix-name`, unique among `taken`."""
    node_id = sphinx_make_id(f"{prefix}-{name}") if prefix else sphinx_make_id(name)
    if not node_id or node_id == prefix:
        node_id = ""
    serial = 0
    while not node_id or node_id in taken:
        node_id = f"{prefix}-{serial}" if prefix else f"id{serial}"
        serial += 1
    return node_id


def _object_id(document: nodes.document, prefix: str, name: str) -> str:
    return object_id(document.ids, prefix, name)


def std_object_name(directive: str, signature: str) -> str:
    """The name a `confval` / `envvar` / object type is known by (`envvar` keeps its spaces)."""
    return signature if directive.split(":")[-1] == "envvar" else " ".join(signature.split())


def option_prefix(program: str) -> str:
    """The id prefix of a program's options: `cmdoption` or `cmdoption-PROGRAM`."""
    return sphinx_make_id(f"cmdoption-{program}" if program else "cmdoption")


def option_names(signature: str) -> list[str]:
    """The option names of an `option` signature (`-k EXPR, --keyword EXPR` → `-k`, `--keyword`)."""
    names = []
    for part in signature.split(","):
        m = _OPTION_NAME.match(part.strip())
        if m:
            names.append(m.group("name"))
    return names


# autodoc's kinds (`autoclass` → `class`) and the Python directives that nest (`allow_nesting`).
_AUTODOC_KIND = {
    "autofunction": "function",
    "autoclass": "class",
    "autoexception": "exception",
    "autodata": "data",
    "autodecorator": "decorator",
    "automethod": "method",
    "autoattribute": "attribute",
    "autoproperty": "property",
}
_CLASS_LEVEL = frozenset({"method", "attribute", "property"})
_NESTING = frozenset({"class", "exception"})
# autodoc's `py_ext_sig_re` (a `mod::` module, the dotted path, the name) for an auto directive.
_AUTODOC_NAME = re.compile(r"^\s*(?:(?P<module>[\w.]+)::)?(?P<path>(?:\w+\.)*)(?P<base>\w+)")


@dataclass(frozen=True)
class PyName:
    """A Python object as Sphinx's domain names it, and the scope its content is read in.

    `module` is the module it is documented in (the directive's `:module:`, or the one in
    force), `fullname` its name inside the module (`Request.copy`); `inner_class` is Sphinx's
    `py:class` while its content is parsed, `inner_module` its `py:module` when the directive
    sets one (`:module:`, always for autodoc's output; None: the page's goes on).
    """

    module: str
    fullname: str
    inner_class: str
    inner_module: str | None

    @property
    def dotted(self) -> str:
        """The name the domain notes and its id is made from (`scrapy.Request.copy`)."""
        return f"{self.module}.{self.fullname}" if self.module else self.fullname


def py_name(
    directive: str, signature: str, module: str, current_class: str, module_option: str = ""
) -> PyName | None:
    """How Sphinx names a Python object description (None: it names nothing we can know).

    An auto directive is first resolved as autodoc does (`_resolve_name`: a dotted module-level
    name is absolute, `automethod Cls.m` takes its module from the page) into the `py:`
    directive it writes, with its `:module:`; then `PyObject.handle_signature` puts the name in
    the current class unless the signature repeats that class (`.. attribute:: Request.url`
    inside `Request` is `Request.url`, not `Request.Request.url`).
    """
    if UNKNOWN_CLASS in current_class:
        return None
    kind = directive.split(":")[-1]
    auto = _AUTODOC_KIND.get(kind)
    if auto is not None:
        m = _AUTODOC_NAME.match(signature)
        if m is None:
            return None
        parts = [p for p in m.group("path").split(".") if p]
        if m.group("module"):
            module_option = m.group("module")
        elif auto in _CLASS_LEVEL:
            mod_cls = ".".join(parts) or current_class
            if not mod_cls:
                return None  # autodoc cannot tell the class: it documents nothing
            owner, _, cls = mod_cls.rpartition(".")
            module_option, parts = owner or module, [cls]
        elif parts:
            module_option, parts = ".".join(parts), []
        else:
            module_option = module
        name, kind = ".".join([*parts, m.group("base")]), auto
    else:
        pm = _PY_NAME.match(signature)
        name = pm.group("name") if pm else signature.split("(")[0].strip()
    if not name:
        return None
    owner, _, base = name.rpartition(".")
    prefix = f"{owner}." if owner else ""
    if current_class:
        if prefix and (prefix == current_class or prefix.startswith(current_class + ".")):
            fullname = prefix + base
            prefix = prefix[len(current_class) :].lstrip(".")
        else:
            fullname = f"{current_class}.{prefix}{base}"
    else:
        fullname = prefix + base
    obj_module = module_option or module
    if kind in _NESTING:
        inner_class = fullname
    else:
        inner_class = prefix.strip(".") or current_class
    return PyName(obj_module, fullname, inner_class, module_option or None)


class _Scope(Protocol):
    module: str
    classes: list[str]


def enter_scope(name: PyName | None, scope: _Scope) -> tuple[str | None, list[str]]:
    """Put an object's content scope in force (`before_content`); returns what `leave_scope` restores."""
    outer = (scope.module if name and name.inner_module is not None else None, list(scope.classes))
    if name is not None:
        if name.inner_module is not None:
            scope.module = name.inner_module
        if name.inner_class:
            scope.classes.append(name.inner_class)
    return outer


def leave_scope(outer: tuple[str | None, list[str]] | None, scope: _Scope) -> None:
    """Sphinx's `after_content`: the class, and a module the object set, as they were before it."""
    if outer is None:
        return
    module, classes = outer
    if module is not None:
        scope.module = module
    scope.classes[:] = classes


def _register_ids(document: nodes.document, node: nodes.Element) -> None:
    for node_id in node["ids"]:
        document.ids.setdefault(node_id, node)


# -- option specs that accept anything ------------------------------------------------------


class AnyOptions(dict[str, Callable[[str | None], Any]]):
    """An option spec taking every option as text: an extension's options are never errors."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> Callable[[str | None], Any]:
        return _any_value

    def __bool__(self) -> bool:
        return True


def _any_value(value: str | None) -> str:
    return (value or "").strip()


class _SphinxDirective(Directive):  # type: ignore[misc]
    """Base: any options, optional arguments with spaces, content allowed."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = AnyOptions()

    @property
    def parse_state(self) -> ParseState:
        """What this page's parse has collected so far."""
        return state_of(self.state.document)

    def parse_content(self, into: nodes.Element) -> nodes.Element:
        """Parse the directive's content as reStructuredText into `into`."""
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, into)
        return into


# -- code -----------------------------------------------------------------------------------


def code_block(text: str, language: str) -> nodes.literal_block:
    """A literal block that keeps its language (the renderer writes a fenced block)."""
    node = nodes.literal_block(text, text)
    node["language"] = language
    return node


class CodeBlock(_SphinxDirective):
    """`code-block` / `sourcecode` / `code`: a literal block in the named language."""

    @override
    def run(self) -> list[nodes.Node]:
        language = (self.arguments[0] if self.arguments else "").strip()
        language = language or self.parse_state.options.highlight_language
        node = code_block("\n".join(self.content), language)
        out: list[nodes.Node] = []
        if self.options.get("caption"):
            out.append(nodes.paragraph("", "", nodes.strong("", self.options["caption"])))
        if self.options.get("name"):
            node["names"].append(nodes.fully_normalize_name(self.options["name"]))
            self.state.document.note_explicit_target(node, node)
        out.append(node)
        return out


class Highlight(_SphinxDirective):
    """`highlight`: sets the language of later `::` blocks (applied when rendering)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        marker = highlight_marker()
        marker["language"] = (self.arguments[0] if self.arguments else "").strip()
        return [marker]


_EXTENSION_LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".ini": "ini",
    ".cfg": "ini",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".sh": "bash",
    ".bash": "bash",
    ".rst": "rst",
    ".md": "markdown",
    ".js": "javascript",
    ".ts": "typescript",
    ".html": "html",
    ".xml": "xml",
    ".c": "c",
    ".h": "c",
    ".cpp": "cpp",
    ".rs": "rust",
    ".go": "go",
    ".java": "java",
    ".txt": "text",
}


def include_root(options: RstOptions) -> Path | None:
    """The folder included files must lie in (symlinks resolved); None refuses every include."""
    folder = options.files_root or options.root
    return folder.resolve() if folder is not None else None


def confined_path(document: nodes.document, argument: str, source: str) -> Path | None:
    """The file `argument` names, as Sphinx resolves it, or None when it leaves the repository.

    A leading `/` means the docs folder; anything else is relative to the including file. The
    result is checked after symlinks are resolved, so `../` or a link out cannot read other files.
    """
    options = state_of(document).options
    allowed = include_root(options)
    if options.root is None or allowed is None:
        return None
    root = options.root.resolve()
    base = root if argument.startswith("/") else Path(source or root / "x").parent
    target = (base / argument.lstrip("/")).resolve()
    return target if may_include(target, allowed) else None


def _select_lines(text: str, spec: str) -> str:
    """`:lines: 1,3,5-10,20-` of a literalinclude (1-based, as Sphinx)."""
    lines = text.splitlines()
    keep: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        start, _, end = part.partition("-")
        lo = int(start) if start.strip() else 1
        hi = (int(end) if end.strip() else len(lines)) if "-" in part else lo
        keep.extend(lines[lo - 1 : hi])
    return "\n".join(keep)


def _python_object(text: str, name: str) -> str | None:
    """The source of a top-level (or dotted) function or class in a Python file (`:pyobject:`)."""
    try:
        tree: ast.AST = ast.parse(text)
    except SyntaxError:
        return None
    for part in name.split("."):
        found = None
        for child in getattr(tree, "body", []):
            if (
                isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and child.name == part
            ):
                found = child
                break
        if found is None:
            return None
        tree = found
    assert isinstance(tree, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    lines = text.splitlines()
    start = min([tree.lineno] + [d.lineno for d in getattr(tree, "decorator_list", [])])
    return "\n".join(lines[start - 1 : getattr(tree, "end_lineno", start)])


class LiteralInclude(_SphinxDirective):
    """`literalinclude`: a file of the repository shown as code (clipped like Sphinx does)."""

    required_arguments = 1
    optional_arguments = 0

    @override
    def run(self) -> list[nodes.Node]:
        document = self.state.document
        argument = self.arguments[0].strip()
        source = self.state_machine.get_source(self.lineno)
        path = confined_path(document, argument, source)
        if path is not None:
            note_read(path)  # found or not: a file that appears there later is read then
        if path is None or not path.is_file():
            why = REFUSED_INCLUDE if path is None else "not found"
            self.parse_state.warnings.append(f"literalinclude {argument}: {why}")
            return []
        text = path.read_text(encoding=self.options.get("encoding") or "utf-8", errors="replace")
        text = self._clip(text)
        language = self.options.get("language") or _EXTENSION_LANGUAGES.get(path.suffix, "")
        node = code_block(text, language or self.parse_state.options.highlight_language)
        caption = self.options.get("caption")
        if caption:
            return [nodes.paragraph("", "", nodes.strong("", caption)), node]
        return [node]

    def _clip(self, text: str) -> str:
        opts = self.options
        if opts.get("pyobject"):
            text = _python_object(text, opts["pyobject"]) or text
        if opts.get("lines"):
            try:
                text = _select_lines(text, opts["lines"])
            except ValueError:
                self.parse_state.warnings.append(f"literalinclude: bad :lines: {opts['lines']}")
        for key, after, keep in (
            ("start-after", True, False),
            ("start-at", True, True),
            ("end-before", False, False),
            ("end-at", False, True),
        ):
            marker = opts.get(key)
            if not marker:
                continue
            lines = text.splitlines()
            idx = next((i for i, line in enumerate(lines) if marker in line), None)
            if idx is None:
                continue
            if after:
                lines = lines[idx if keep else idx + 1 :]
            else:
                lines = lines[: idx + 1 if keep else idx]
            text = "\n".join(lines)
        if opts.get("dedent"):
            width = int(opts["dedent"]) if opts["dedent"].isdigit() else None
            text = "\n".join(line[width:] if width else line.lstrip() for line in text.splitlines())
        if opts.get("prepend"):
            text = opts["prepend"] + "\n" + text
        if opts.get("append"):
            text = text + "\n" + opts["append"]
        return text.strip("\n")


class ConfinedInclude(Include):  # type: ignore[misc]
    """docutils' `include`, refusing any file outside the repository (and other parsers)."""

    @override
    def run(self) -> list[nodes.Node]:
        if "parser" in self.options:
            state_of(self.state.document).warnings.append("include: :parser: is not supported")
            return []
        return super().run()  # type: ignore[no-any-return]

    @override
    def read_file(self, path: Any) -> str:
        """The file, when it lies inside the repository (after links are resolved); else refused."""
        document = self.state.document
        allowed = include_root(state_of(document).options)
        if allowed is None or not may_include(Path(path).resolve(), allowed):
            state_of(document).warnings.append(f"include {self.arguments[0]}: {REFUSED_INCLUDE}")
            raise self.warning(f'"{self.arguments[0]}" is outside the repository')
        note_read(Path(path).resolve())
        return super().read_file(path)  # type: ignore[no-any-return]


# -- structure ------------------------------------------------------------------------------

_TOCTREE_ENTRY = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")


class TocTree(_SphinxDirective):
    """`toctree`: entries collected as navigation (`ParseState.toctrees`), no text."""

    @override
    def run(self) -> list[nodes.Node]:
        entries: list[dict[str, str]] = []
        for line in self.content:
            line = line.strip()
            if not line or line.startswith(".. "):
                continue
            m = _TOCTREE_ENTRY.match(line)
            title, target = (m.group("title"), m.group("target")) if m else ("", line)
            entries.append({"title": title, "target": target.strip()})
        self.parse_state.toctrees.append(
            {
                "entries": entries,
                "glob": "glob" in self.options,
                "hidden": "hidden" in self.options,
                "caption": self.options.get("caption", ""),
            }
        )
        return []


_ONLY_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def eval_only(expression: str, tags: frozenset[str]) -> bool:
    """Sphinx's `only` expression (`html and not latex`, parentheses, `or`) over build tags."""
    tokens = _ONLY_TOKEN.findall(expression)
    pos = 0

    def peek() -> str:
        return tokens[pos] if pos < len(tokens) else ""

    def take() -> str:
        nonlocal pos
        pos += 1
        return str(tokens[pos - 1])

    def disjunction() -> bool:
        value = conjunction()
        while peek() == "or":
            take()
            value = conjunction() or value
        return value

    def conjunction() -> bool:
        value = negation()
        while peek() == "and":
            take()
            value = negation() and value
        return value

    def negation() -> bool:
        if peek() == "not":
            take()
            return not negation()
        if peek() == "(":
            take()
            value = disjunction()
            if peek() == ")":
                take()
            return value
        return take() in tags if peek() else False

    try:
        return disjunction()
    except IndexError:
        return True


class Only(_SphinxDirective):
    """`only`: the content when the HTML build's tags satisfy the expression, else nothing.

    As in Sphinx, the content may hold section titles: they are parsed with the title styles of
    the page set aside (their levels are the block's own), and the sections sit under the
    current one. Content of a false branch is not parsed at all (a large generated page often
    carries a second copy for another builder); ids inside it are all this can shift.
    """

    @override
    def run(self) -> list[nodes.Node]:
        expression = self.arguments[0] if self.arguments else ""
        if not eval_only(expression, self.parse_state.options.tags) or not self.content:
            return []
        holder = nodes.container()
        memo = self.state.memo
        styles, level = memo.title_styles, memo.section_level
        memo.title_styles, memo.section_level = [], 0
        try:
            self.state.nested_parse(self.content, self.content_offset, holder, match_titles=True)
        finally:
            memo.title_styles, memo.section_level = styles, level
        return list(holder.children)


class Passthrough(_SphinxDirective):
    """A directive whose content is ordinary reStructuredText shown as it is (`ifconfig`, `hlist`)."""

    @override
    def run(self) -> list[nodes.Node]:
        return list(self.parse_content(nodes.container()).children)


class Nothing(_SphinxDirective):
    """A directive with no text on the page (`index`, `currentmodule` is handled apart)."""

    @override
    def run(self) -> list[nodes.Node]:
        return []


class Labelled(_SphinxDirective):
    """Content under a label: `seealso`, `todo`; a tab's name is its label (`UnknownDirective`).

    With a fixed `label` (seealso), a text argument is the first paragraph, as in Sphinx;
    otherwise the argument is the label and a directive without content shows nothing.
    """

    label = ""

    @override
    def run(self) -> list[nodes.Node]:
        node = labelled()
        argument = (self.arguments[0] if self.arguments else "").strip()
        if self.label:
            node["label"] = self.label
            if argument:
                inline, _ = self.state.inline_text(argument, self.lineno)
                node += nodes.paragraph(argument, "", *inline)
        else:
            node["label"] = argument
        self.parse_content(node)
        return [node] if len(node) else []


# Signs that a body that parses as Python is code, not a word or a list of words.
_CODE_SIGNS = re.compile(r"[()\[\]{}=@]|:\s*$|^\s*(?:import|from|def|class|return)\b", re.M)


def code_language(text: str) -> str | None:
    """The language of a text that reads as code rather than prose (None: prose).

    A Python session (`>>>`) or shell prompt (`$ `) on the first line, or text that parses
    as Python and has a call, assignment, bracket, decorator or block in it (a sentence does
    not parse; a bare word or `- item` list does, but has none of those).
    """
    stripped = text.strip()
    if not stripped:
        return None
    if stripped.startswith(">>> "):
        return "pycon"
    if stripped.startswith("$ "):
        return "console"
    if not _CODE_SIGNS.search(stripped):
        return None
    try:
        ast.parse(stripped)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return "python"


class UnknownDirective(Labelled):
    """A directive neither Sphinx, docutils nor the project's conf.py defines (an extension's).

    What it does is unknown, so it describes no object: no section, no id. Its argument is a
    label (or a code block when it reads as code) and its content is shown: as a code block
    when it reads as code (`code_language`), else parsed as reStructuredText. Options with a
    value come first as `key: value` lines (`:keys: requires`, `:default: <empty list>`): an
    extension shows them, and they are often what the directive is about; a flag without a
    value (`:open:`) only switches how it is shown.
    """

    def _options(self) -> nodes.line_block | None:
        """The options that have a value, one `key: value` line each (inline markup read)."""
        block = nodes.line_block()
        for key, value in self.options.items():
            if not isinstance(value, str) or not value.strip():
                continue
            text = f"{key}: {' '.join(value.split())}"
            inline, _ = self.state.inline_text(text, self.lineno)
            block += nodes.line(text, "", *inline)
        return block if len(block) else None

    @override
    def run(self) -> list[nodes.Node]:
        argument = (self.arguments[0] if self.arguments else "").strip()
        body = "\n".join(self.content)
        body_language = code_language(body)
        argument_language = code_language(argument)
        node = labelled()
        node["label"] = "" if argument_language else argument
        if argument_language:
            node += code_block(argument, argument_language)
        shown = self._options()
        if shown is not None:
            node += shown
        if body_language:
            node += code_block(body.strip("\n"), body_language)
        else:
            self.parse_content(node)
        return [node] if len(node) else []


def _labelled(label: str) -> type[Labelled]:
    return type(f"Labelled_{label}", (Labelled,), {"label": label})


class Tab(Labelled):
    """`tab` (sphinx_inline_tabs) and friends: the tab's name as the label of its content."""


_VERSION_LABELS = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


class VersionChange(_SphinxDirective):
    """`versionadded` and friends: "Added in version 8.1: …" as Sphinx words it."""

    @override
    def run(self) -> list[nodes.Node]:
        version, _, rest = (self.arguments[0] if self.arguments else "").partition("\n")
        version, _, same_line = version.strip().partition(" ")
        node = labelled()
        label = f"{_VERSION_LABELS[self.name]} {version}".strip()
        node["label"] = label
        explanation = " ".join(part for part in (same_line.strip(), rest.strip()) if part)
        if explanation:
            inline, messages = self.state.inline_text(explanation, self.lineno)
            node += nodes.paragraph(explanation, "", *inline)
        self.parse_content(node)
        if not len(node):  # "Added in version 8.4." on its own, as Sphinx shows it
            return [nodes.paragraph("", "", nodes.strong("", label + "."))]
        return [node]


class MetaDirective(_SphinxDirective):
    """`meta`: page metadata (`:description:`), not text."""

    @override
    def run(self) -> list[nodes.Node]:
        for key, value in self.options.items():
            self.parse_state.meta[key] = value
        return []


class DefaultRole(_SphinxDirective):
    """`default-role`: for the rest of this page only (docutils would change it for every page)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        self.parse_state.default_role = (self.arguments[0] if self.arguments else "").strip()
        return []


class CsvTable(CSVTable):  # type: ignore[misc]
    """docutils' `csv-table` without `:file:`/`:url:` (a page may not read other files)."""

    @override
    def run(self) -> list[nodes.Node]:
        if "file" in self.options or "url" in self.options:
            state_of(self.state.document).warnings.append("csv-table :file:/:url: not read")
            return []
        return super().run()  # type: ignore[no-any-return]


class Raw(_SphinxDirective):
    """`raw`: HTML or LaTeX for one builder, not text (and never a file read)."""

    @override
    def run(self) -> list[nodes.Node]:
        return []


class Glossary(_SphinxDirective):
    """`glossary`: a definition list whose terms get Sphinx's `term-NAME` ids."""

    @override
    def run(self) -> list[nodes.Node]:
        holder = self.parse_content(nodes.container())
        for term in holder.findall(nodes.term):
            term["ids"].append(_object_id(self.state.document, "term", term.astext()))
            _register_ids(self.state.document, term)
        return list(holder.children)


# -- object descriptions --------------------------------------------------------------------

_PY_NAME = re.compile(r"^\s*(?:[\w.]+\s+)*?(?:@)?(?P<name>[\w.]+)\s*(?:\(|\[|$|:|\s)")
_OPTION_NAME = re.compile(r"^(?P<name>[-+/]*[^\s=\[<,]+)")


def _signatures(directive: Directive) -> list[str]:
    text = directive.arguments[0] if directive.arguments else ""
    return [line.strip() for line in text.replace("\\\n", " ").splitlines() if line.strip()]


class ObjectDirective(_SphinxDirective):
    """An object description: its signature becomes a section heading with the object's ids."""

    kind = ""

    def ids_for(self, signature: str) -> list[str]:
        """The ids the built page gives this signature (none for a plain description)."""
        return []

    def heading(self, signatures: Sequence[str]) -> str:
        """The section heading: the first signature as written."""
        return signatures[0] if signatures else ""

    @override
    def run(self) -> list[nodes.Node]:
        signatures = _signatures(self)
        node = object_desc()
        node["kind"] = self.kind or self.name
        node["signature"] = self.heading(signatures)
        noindex = {"noindex", "no-index", "no-typesetting"} & set(self.options)
        for signature in signatures:
            if not noindex:
                node["ids"].extend(i for i in self.ids_for(signature) if i not in node["ids"])
        _register_ids(self.state.document, node)
        self._fields(node)
        self.enter()
        try:
            self.parse_content(node)
        finally:
            self.leave()
        return [node]

    def enter(self) -> None:
        """Before the content is parsed (a class makes its methods' names dotted)."""
        return None

    def leave(self) -> None:
        """After the content is parsed."""
        return None

    def _fields(self, node: nodes.Element) -> None:
        """Options shown on the page (`:type:`, `:default:` of a confval) as a short field list."""
        shown = {k: v for k, v in self.options.items() if k in {"type", "default"} and v}
        if not shown:
            return
        items = nodes.field_list()
        for key, value in shown.items():
            inline, _ = self.state.inline_text(value, self.lineno)
            items += nodes.field(
                "",
                nodes.field_name("", key.capitalize()),
                nodes.field_body("", nodes.paragraph("", "", *inline)),
            )
        node += items


class StdObject(ObjectDirective):
    """`confval`, `envvar` and `add_object_type` types: id `KIND-name`."""

    @override
    def ids_for(self, signature: str) -> list[str]:
        name = std_object_name(self.name, signature)
        return [_object_id(self.state.document, self.name.split(":")[-1], name)]


class OptionObject(ObjectDirective):
    """`option`: one `cmdoption-[program-]name` id per option name of the signature."""

    kind = "option"

    @override
    def ids_for(self, signature: str) -> list[str]:
        prefix = option_prefix(self.parse_state.program)
        return [_object_id(self.state.document, prefix, name) for name in option_names(signature)]


class PyObject(ObjectDirective):
    """Python domain objects and autodoc: id is the dotted name, inside the current module/class.

    `like` names the built-in directive a project's own (`add_directive_to_domain`) is.
    """

    like = ""

    @property
    def directive(self) -> str:
        """The built-in directive this one is (its own name, or the one conf.py's class is)."""
        return self.like or self.name

    def _name(self, signature: str) -> PyName | None:
        st = self.parse_state
        current = st.classes[-1] if st.classes else ""
        module_option = str(self.options.get("module") or "").strip()
        return py_name(self.directive, signature, st.module, current, module_option)

    @override
    def ids_for(self, signature: str) -> list[str]:
        name = self._name(signature)
        return [_object_id(self.state.document, "", name.dotted)] if name else []

    @override
    def heading(self, signatures: Sequence[str]) -> str:
        if not signatures:
            return ""
        if self.directive.startswith("auto"):
            name = self._name(signatures[0])
            return name.dotted if name else signatures[0]
        return signatures[0]

    @override
    def enter(self) -> None:
        if self.directive.startswith("auto"):
            self.parse_state.note_autodoc(self.state.document)
        signatures = _signatures(self)
        name = self._name(signatures[0]) if signatures else None
        st = self.parse_state
        self._outer = enter_scope(name, st)

    @override
    def leave(self) -> None:
        leave_scope(getattr(self, "_outer", None), self.parse_state)


class GenericObject(ObjectDirective):
    """Objects of other domains (`rst:directive`, `js:function`…): id `KIND-name`."""

    @override
    def ids_for(self, signature: str) -> list[str]:
        return [_object_id(self.state.document, self.name.split(":")[-1], signature)]


class DescribeObject(ObjectDirective):
    """`describe` / `object`: a heading without an id."""


# The class in force inside a project's class directive that names its objects itself (its
# own `handle_signature`): what it nests has a name, and an id, that cannot be known.
UNKNOWN_CLASS = "\x00"


class OwnNamedClass(DescribeObject):
    """A project's Python class directive with its own `handle_signature`: a heading, no id.

    Sphinx nests what it contains in the name it makes, which only its code knows: those
    objects get no id either (one guessed would not be on the page).
    """

    @override
    def enter(self) -> None:
        self.parse_state.classes.append(UNKNOWN_CLASS)

    @override
    def leave(self) -> None:
        if self.parse_state.classes:
            self.parse_state.classes.pop()


class CrossrefTarget(_SphinxDirective):
    """An `add_crossref_type` directive: a bare target `std-NAME-x` on what follows."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        name = " ".join((self.arguments[0] if self.arguments else "").split())
        node_id = _object_id(self.state.document, f"std:{self.name.split(':')[-1]}", name)
        target = nodes.target("", "", ids=[node_id])
        _register_ids(self.state.document, target)
        return [target]


class ModuleDirective(_SphinxDirective):
    """`module` / `py:module`: sets the current module and marks `module-NAME`."""

    @override
    def run(self) -> list[nodes.Node]:
        name = (self.arguments[0] if self.arguments else "").strip()
        self.parse_state.module = name
        self.parse_state.classes.clear()
        if not name or "no-index" in self.options or "noindex" in self.options:
            return []
        target = nodes.target("", "", ids=[f"module-{name}"])
        _register_ids(self.state.document, target)
        return [target]


class AutoModule(ModuleDirective):
    """`automodule`: autodoc writes a `py:module` (current module, `module-NAME`), then the content.

    The module's docstring and `:members:` need an import (never done): the directive's own
    content is what can be shown.
    """

    @override
    def run(self) -> list[nodes.Node]:
        self.parse_state.note_autodoc(self.state.document)
        out = super().run()
        return out + list(self.parse_content(nodes.container()).children)


class CurrentModule(_SphinxDirective):
    """`currentmodule`: sets the module later objects belong to (`None` clears it)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        name = (self.arguments[0] if self.arguments else "").strip()
        self.parse_state.module = "" if name == "None" else name
        self.parse_state.classes.clear()
        return []


class Program(_SphinxDirective):
    """`program`: later `option`s belong to this program (their ids carry its name)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        name = (self.arguments[0] if self.arguments else "").strip()
        self.parse_state.program = "" if name == "None" else "-".join(name.split())
        return []


class AutoSummary(_SphinxDirective):
    """`autosummary`: the listed names as a list of code."""

    @override
    def run(self) -> list[nodes.Node]:
        items = nodes.bullet_list()
        for line in self.content:
            name = line.strip()
            if name and not name.startswith((":", "..")):
                items += nodes.list_item("", nodes.paragraph("", "", nodes.literal(name, name)))
        return [items] if len(items) else []


class CodeLike(_SphinxDirective):
    """Directives whose content is code or a diagram (`doctest`, `mermaid`…): a code block."""

    language = ""

    @override
    def run(self) -> list[nodes.Node]:
        text = "\n".join(self.content)
        return [code_block(text, self.language)] if text.strip() else []


def _code_like(language: str) -> type[CodeLike]:
    return type(f"CodeLike_{language or 'text'}", (CodeLike,), {"language": language})


_AUTODOC_MODULE_LEVEL = frozenset(
    {"autofunction", "autoclass", "autoexception", "autodata", "autodecorator", "automodule"}
)
_PY_OBJECTS = (
    "function class method attribute data exception decorator decoratormethod "
    "classmethod staticmethod property type"
).split()
_AUTODOC = (
    "autofunction autoclass automethod autoattribute autoexception autodata "
    "autoproperty autodecorator automodule"
).split()

SPHINX_DIRECTIVES: dict[str, type[Directive]] = {
    "code-block": CodeBlock,
    "sourcecode": CodeBlock,
    "code": CodeBlock,
    "highlight": Highlight,
    "literalinclude": LiteralInclude,
    "include": ConfinedInclude,
    "toctree": TocTree,
    "only": Only,
    "ifconfig": Passthrough,
    "hlist": Passthrough,
    "centered": Passthrough,
    "index": Nothing,
    "tabularcolumns": Nothing,
    "towncrier-draft-entries": Nothing,
    "testsetup": Nothing,
    "testcleanup": Nothing,
    # Shown by Sphinx only with `show_authors = True` (default False).
    "sectionauthor": Nothing,
    "moduleauthor": Nothing,
    "codeauthor": Nothing,
    "seealso": _labelled("See also"),
    "todo": _labelled("Todo"),
    "tab": Tab,
    "tab-item": Tab,
    "group-tab": Tab,
    "code-tab": Tab,
    "versionadded": VersionChange,
    "versionchanged": VersionChange,
    "deprecated": VersionChange,
    "versionremoved": VersionChange,
    "meta": MetaDirective,
    "default-role": DefaultRole,
    "csv-table": CsvTable,
    "raw": Raw,
    "glossary": Glossary,
    "confval": StdObject,
    "envvar": StdObject,
    "option": OptionObject,
    "program": Program,
    "describe": DescribeObject,
    "describe-class": OwnNamedClass,
    "object": DescribeObject,
    "module": ModuleDirective,
    "currentmodule": CurrentModule,
    "autosummary": AutoSummary,
    "doctest": _code_like("pycon"),
    "testcode": _code_like("python"),
    "testoutput": _code_like("text"),
    "mermaid": _code_like("mermaid"),
    "graphviz": _code_like("dot"),
    "digraph": _code_like("dot"),
    "graph": _code_like("dot"),
    "math": _code_like("latex"),
    "productionlist": _code_like("text"),
    "prompt": _code_like("console"),
    "ipython": _code_like("ipython"),
    "jupyter-execute": _code_like("python"),
    "plantuml": _code_like("plantuml"),
    "uml": _code_like("plantuml"),
}
for _name in _PY_OBJECTS:
    SPHINX_DIRECTIVES[_name] = PyObject
    SPHINX_DIRECTIVES[f"py:{_name}"] = PyObject
for _name in _AUTODOC:
    SPHINX_DIRECTIVES[_name] = PyObject
SPHINX_DIRECTIVES["automodule"] = AutoModule
SPHINX_DIRECTIVES.update(
    {
        "py:module": ModuleDirective,
        "py:currentmodule": CurrentModule,
        "std:option": OptionObject,
        "std:envvar": StdObject,
        "std:confval": StdObject,
        "std:program": Program,
    }
)

# Directives that only set something for the page (module, program, role) or are metadata:
# no text of their own (the MyST reader shows them as nothing too).
METADATA_DIRECTIVES = frozenset(
    name
    for name, handler in SPHINX_DIRECTIVES.items()
    if handler in (Nothing, CurrentModule, ModuleDirective, Program, DefaultRole, MetaDirective)
)

_DIRECTIVE_NAME = re.compile(r"^[ \t]*\.\.[ \t]+([A-Za-z0-9][\w:+.-]*)[ \t]*::", re.MULTILINE)
_docutils_known: set[str] = set()
# What this module put in docutils' (process-wide) directive registry, by name.
_registered: dict[str, type[Directive]] = {}


def _known_to_docutils() -> set[str]:
    if not _docutils_known:
        from docutils.parsers.rst.languages import en

        _docutils_known.update(directives._directive_registry)  # noqa: SLF001
        _docutils_known.update(en.directives)
    return _docutils_known


def register_directives(text: str, options: RstOptions) -> None:
    """Make every directive the page names known to docutils before it is parsed.

    Sphinx's own get their handler; a project's custom object types theirs; any other unknown
    name `UnknownDirective` (its content shown, never a section), so no page yields a
    docutils error for a directive it could not know. docutils keeps one registry per process,
    so a name is re-registered only when the project's conf.py gives it another meaning.
    """
    names = {n.lower() for n in _DIRECTIVE_NAME.findall(text)}
    key = (
        options.crossref_types,
        options.object_types,
        frozenset(options.domain_directives.items()),
    )
    if _registered_for.get("types") != key:
        _registered_for["types"] = key
        names |= set(SPHINX_DIRECTIVES) | set(_registered)
        names |= options.crossref_types | options.object_types | set(options.domain_directives)
    else:
        names -= _registered.keys()
    for name in names:
        handler = _handler_for(name, options)
        if handler is None:
            if name in _registered:  # docutils' own again (another project's type before)
                directives._directives.pop(name, None)  # noqa: SLF001 - no public unregister
                del _registered[name]
            continue
        if _registered.get(name) is not handler:
            directives.register_directive(name, handler)
            _registered[name] = handler


# The object types the registry was last filled for (a project's conf.py decides them).
_registered_for: dict[str, tuple[frozenset[str], frozenset[str], frozenset[tuple[str, str]]]] = {}


# One handler class per built-in kind (docutils' registry keeps a name's handler by identity).
_LIKE: dict[str, type[PyObject]] = {}


def _like(handler: type[PyObject], kind: str) -> type[PyObject]:
    """A Python-domain handler for a project's directive that behaves as the built-in `kind`."""
    if kind not in _LIKE:
        _LIKE[kind] = type(f"{handler.__name__}_like_{kind}", (handler,), {"like": kind})
    return _LIKE[kind]


def _handler_for(name: str, options: RstOptions) -> type[Directive] | None:
    base = name.split(":", 1)[1] if ":" in name else name
    like = options.domain_directives.get(name)
    if like is not None and like in SPHINX_DIRECTIVES:
        handler = SPHINX_DIRECTIVES[like]
        return _like(handler, like) if issubclass(handler, PyObject) else handler
    if name in options.crossref_types or base in options.crossref_types:
        return CrossrefTarget
    if name in options.object_types or base in options.object_types:
        return StdObject
    if name in SPHINX_DIRECTIVES:
        return SPHINX_DIRECTIVES[name]
    if name in _known_to_docutils():
        return None
    if ":" in name and name.split(":", 1)[0] in _DOMAINS:
        return GenericObject
    return UnknownDirective


def describes_object(name: str, options: RstOptions) -> bool:
    """Whether a directive describes an object (a section with its ids: `py:function`, `confval`)."""
    handler = _handler_for(name.lower(), options)
    return handler is not None and issubclass(handler, ObjectDirective)


def object_scope(
    name: str,
    signature: str,
    options: RstOptions,
    module: str,
    current_class: str,
    module_option: str = "",
) -> PyName | None:
    """The scope a Python object directive puts in force for its content (None: not one)."""
    name = name.lower()
    handler = _handler_for(name, options)
    if handler is None or not issubclass(handler, PyObject):
        return None
    like = options.domain_directives.get(name, name)
    return py_name(like, signature.strip().split("\n", 1)[0], module, current_class, module_option)


# -- roles ----------------------------------------------------------------------------------

_EXPLICIT_TITLE = re.compile(r"^(.+?)\s*(?<!\x00)<(.*?)>$", re.DOTALL)
_CODE_ROLES = frozenset(
    "func meth class attr mod data exc obj const type option envvar confval program token "
    "command file samp kbd makevar mailheader regexp code macro member var struct union enum "
    "enumerator expr texpr concept function any".split()
)
_CALLABLE_ROLES = frozenset({"func", "meth"})
# Roles whose targets are Python objects (`mod` is a module: `module-NAME`), and every code
# role that names a described object (tools/sources/sphinx_xrefs.py resolves them).
PY_ROLES = frozenset("func meth class attr data exc obj const type".split())
_OBJECT_ROLES = PY_ROLES | {"mod", "option", "envvar", "confval"}
_DOMAINS = frozenset({"py", "std", "c", "cpp", "js", "rst", "math"})


def split_title(text: str) -> tuple[str, str, bool]:
    """`title <target>` → (title, target, True); `target` → (target, target, False)."""
    m = _EXPLICIT_TITLE.match(text) if text.endswith(">") else None
    if m:
        return utils.unescape(m.group(1)), utils.unescape(m.group(2)), True
    plain = utils.unescape(text)
    return plain, plain, False


def _literal(rawtext: str, text: str) -> nodes.literal:
    return nodes.literal(rawtext, text)


RoleResult = tuple[list[nodes.Node], list[nodes.system_message]]


def code_xref_role(
    name: str, rawtext: str, text: str, parentheses: bool = True, linkable: bool = False
) -> RoleResult:
    """`:func:`~pkg.mod.f`` → `f()`; `:class:`title <X>`` → `title`: shown as inline code.

    `parentheses`: conf.py's `add_function_parentheses` (Sphinx's default adds them);
    `linkable`: the role names a described object (an `xref`, a link once resolved).
    """
    title, target, explicit = split_title(text)
    if not explicit:
        title = title.lstrip("!")
        if title.startswith("~"):
            title = title[1:].rsplit(".", 1)[-1]
        title = title.lstrip(".")
        if parentheses and name in _CALLABLE_ROLES and not title.endswith(")"):
            title += "()"
    if name in {"file", "samp"}:
        title = title.replace("{", "").replace("}", "")
    literal = _literal(rawtext, title)
    if not linkable or target.startswith("!"):  # `!` asks for no link, as in Sphinx
        return [literal], []
    return [_xref(rawtext, name, target.lstrip("~"), explicit, literal)], []


def _xref(rawtext: str, name: str, target: str, explicit: bool, *children: nodes.Node) -> xref:
    node = xref(rawtext, "", *children)
    node["reftype"] = name
    node["reftarget"] = target.strip()
    node["explicit"] = explicit
    return node


def _humanize(label: str) -> str:
    """A label or document name as words (`pip:index` of another project → `pip index`)."""
    return " ".join(label.replace("-", " ").replace("_", " ").replace(":", " ").split())


def text_xref_role(name: str, rawtext: str, text: str) -> RoleResult:
    """`:ref:`title <label>`` → title; a bare label or document → its words.

    `:ref:` and `:doc:` are `xref`s (links once resolved, a `!` prefix asks for none). A bare
    `:ref:` keeps the label's id (`reflabel`): when the label is on this page, the renderer
    shows the section's title there, as Sphinx does.
    """
    title, target, explicit = split_title(text)
    linked = name in {"ref", "doc"} and not target.startswith("!")
    node = (
        _xref(rawtext, name, target.lstrip("!~"), explicit) if linked else nodes.inline(rawtext, "")
    )
    if not explicit:
        title = title.lstrip("!~")
        if name == "doc":
            project, _, doc = title.rpartition(":")  # an intersphinx target: `pip:index`
            title = _humanize(f"{project} {doc.rstrip('/').rsplit('/', 1)[-1]}")
        elif name in {"ref", "numref", "keyword"}:
            node["reflabel"] = nodes.make_id(nodes.fully_normalize_name(target.lstrip("!~")))
            title = _humanize(title)
    node += nodes.Text(title)
    return [node], []


_ISSUE_ROLES = {"issue": "#", "pr": "#", "user": "@", "commit": ""}


def external_role(name: str, rawtext: str, text: str) -> RoleResult:
    """sphinx_issues-style roles: `#123`, `@user`, a package name, `PEP 8`."""
    title, target, explicit = split_title(text)
    if explicit:
        return [nodes.inline(rawtext, title)], []
    shown = title.lstrip("~!")
    if name in _ISSUE_ROLES:
        shown = ", ".join(_ISSUE_ROLES[name] + part.strip() for part in shown.split(","))
        if name == "commit":
            shown = shown[:7]
    elif name == "pep":
        shown = f"PEP {shown}"
    elif name == "rfc":
        shown = f"RFC {shown}"
    elif name in {"cve", "cwe"}:
        shown = shown if shown.upper().startswith(name.upper()) else f"{name.upper()}-{shown}"
    return [nodes.inline(rawtext, shown)], []


def plain_role(name: str, rawtext: str, text: str) -> RoleResult:
    """Roles shown as their text (`abbr`, `guilabel`, `menuselection`, unknown roles)."""
    title, _, _ = split_title(text)
    if name == "guilabel":
        title = title.replace("&&", "\x00").replace("&", "").replace("\x00", "&")
    elif name == "menuselection":
        title = title.replace("-->", "›")
    return [nodes.inline(rawtext, title.lstrip("~!"))], []


_EXTERNAL_ROLES = frozenset({"issue", "pr", "user", "commit", "pypi", "pep", "rfc", "cve", "cwe"})
_TEXT_XREF_ROLES = frozenset({"ref", "doc", "term", "numref", "keyword", "download", "eq"})
_DOCUTILS_FIRST = frozenset(
    {"literal", "emphasis", "strong", "sub", "sup", "subscript", "superscript", "title-reference"}
)


def type_of_role(role: str, options: RstOptions) -> str | None:
    """The project's object or crossref type a role references (None: not such a role).

    Sphinx registers each type's role under its `rolename`; a type read with no role name
    (no `type_roles` entry names it) is referenced by its own name.
    """
    if role in options.type_roles:
        return options.type_roles[role]
    types = options.crossref_types | options.object_types
    return role if role in types and role not in options.type_roles.values() else None


def sphinx_role(name: str, options: RstOptions) -> Callable[[str, str, str], RoleResult] | None:
    """The handler for a Sphinx role name (`py:func`, `ref`, a custom object type), or None."""
    base = name.lower()
    if ":" in base:
        domain, _, rest = base.partition(":")
        if domain in _DOMAINS:
            base = rest
    if base in _DOCUTILS_FIRST:
        return None
    parens = options.function_parentheses
    project_type = type_of_role(base, options)
    if project_type is not None:
        linkable = options.link_objects
        return lambda _n, raw, text: code_xref_role(project_type, raw, text, parens, linkable)
    if base in _CODE_ROLES:
        linkable = options.link_objects and base in _OBJECT_ROLES
        return lambda _n, raw, text: code_xref_role(base, raw, text, parens, linkable)
    if base in _TEXT_XREF_ROLES:
        return lambda _n, raw, text: text_xref_role(base, raw, text)
    if base in _EXTERNAL_ROLES:
        return lambda _n, raw, text: external_role(base, raw, text)
    if base in {"abbr", "guilabel", "menuselection", "dfn", "math"}:
        return lambda _n, raw, text: plain_role(base, raw, text)
    return None


def _interpreted(
    self: states.Inliner, rawsource: str, text: str, role: str, lineno: int
) -> RoleResult:
    """`Inliner.interpreted` that knows Sphinx's roles; an unknown role shows its text, no error."""
    st = state_of(self.document)
    name = role or st.default_role or st.options.default_role
    handler = sphinx_role(name, st.options) if name else None
    if handler is not None:
        result = handler(name, rawsource, text)
        for node in result[0]:
            if isinstance(node, xref):  # the scope a short object name is read in
                node["module"], node["classes"] = st.module, list(st.classes)
                node["program"] = st.program
        return result
    if not name:
        return states.Inliner.interpreted(self, rawsource, text, role, lineno)  # type: ignore[no-any-return]
    role_fn, _messages = roles.role(name, self.language, lineno, self.reporter)
    if role_fn is not None:
        return role_fn(name, rawsource, text, lineno, self)  # type: ignore[no-any-return]
    return plain_role(name, rawsource, text)


def sphinx_inliner() -> states.Inliner:
    """Docutils' inliner with Sphinx's roles.

    The method is replaced on the instance: docutils builds its patterns from
    `vars(self.__class__)`, so a subclass would lose them.
    """
    inliner = states.Inliner()
    inliner.interpreted = types.MethodType(_interpreted, inliner)
    return inliner
