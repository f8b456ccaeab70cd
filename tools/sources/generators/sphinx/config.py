"""A Sphinx project's conf.py, read with `ast` and never executed (it imports the project, may run anything).

Only plain literal assignments are taken (`html_baseurl`, `exclude_patterns`, `root_doc`…, also
grown by `+=` / `.append` / `.extend` and inside `if` / `try` blocks: `_read_statements`), plus the
object types its `setup(app)` and its local extensions register.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.sources.generators.sphinx.options import RstOptions
from tools.sources.reading import repository_root

log = logging.getLogger(__name__)


# Sphinx extensions that make `.ipynb` files pages (tools/sources/notebook.py reads them).
NOTEBOOK_EXTENSIONS = ("nbsphinx", "myst_nb")


def enables_notebooks(extensions: Iterable[str]) -> bool:
    """Whether conf.py's `extensions` make `.ipynb` files pages."""
    return any(e in NOTEBOOK_EXTENSIONS for e in extensions)


@dataclass(frozen=True)
class SphinxConfig:
    """The settings of a conf.py that decide pages, URLs and ids (Sphinx's defaults otherwise)."""

    root_doc: str = "index"
    html_baseurl: str = ""
    html_file_suffix: str = ".html"
    exclude_patterns: tuple[str, ...] = ()
    templates_path: tuple[str, ...] = ()
    source_suffixes: tuple[str, ...] = (".rst",)
    rst_suffixes: tuple[str, ...] = (".rst",)
    rst_prolog: str = ""
    rst_epilog: str = ""
    add_function_parentheses: bool = True
    default_role: str = ""
    highlight_language: str = ""
    extensions: tuple[str, ...] = ()
    crossref_types: frozenset[str] = frozenset()
    object_types: frozenset[str] = frozenset()
    type_roles: Mapping[str, str] = field(default_factory=dict)
    domain_directives: Mapping[str, str] = field(default_factory=dict)
    substitutions: Mapping[str, str] = field(default_factory=dict)
    # The literal `myst_*` settings (tools/sources/generators/sphinx/myst/ reads them).
    myst: Mapping[str, Any] = field(default_factory=dict)

    @property
    def reads_myst(self) -> bool:
        """Whether `.md` pages are MyST (myst-parser or myst-nb is an extension)."""
        from tools.sources.generators.sphinx.myst.config import enables_myst

        return enables_myst(self.extensions)

    @property
    def reads_notebooks(self) -> bool:
        """Whether `.ipynb` files are pages (nbsphinx or myst-nb is an extension)."""
        return enables_notebooks(self.extensions)

    def rst_options(self, root: Path) -> RstOptions:
        """What the reStructuredText reader needs from this configuration."""
        return RstOptions(
            root=root,
            files_root=repository_root(root.resolve()),
            default_role=self.default_role,
            highlight_language=self.highlight_language,
            substitutions=dict(self.substitutions),
            crossref_types=self.crossref_types,
            object_types=self.object_types,
            type_roles=dict(self.type_roles),
            domain_directives=dict(self.domain_directives),
            prolog=self.rst_prolog,
            epilog=self.rst_epilog,
            function_parentheses=self.add_function_parentheses,
        )


def _literal(node: ast.expr | None) -> Any:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        return tuple(v for v in value if isinstance(v, str))
    if isinstance(value, dict):
        return tuple(k for k in value if isinstance(k, str))
    return ()


# Sphinx's Python-domain directive classes (sphinx/domains/python) → the directive each is.
_PY_CLASSES = {
    "PyFunction": "function",
    "PyDecoratorFunction": "decorator",
    "PyVariable": "data",
    "PyClasslike": "class",
    "PyMethod": "method",
    "PyClassMethod": "classmethod",
    "PyStaticMethod": "staticmethod",
    "PyDecoratorMethod": "decoratormethod",
    "PyAttribute": "attribute",
    "PyProperty": "property",
    "PyTypeAlias": "type",
    "PyObject": "function",
    "PyModule": "module",
    "PyCurrentModule": "currentmodule",
}
# The standard domain's (sphinx/domains/std): described objects, bare targets, options.
_STD_CLASSES = {"GenericObject": "object-type", "Target": "crossref-type", "Cmdoption": "option"}


@dataclass(frozen=True)
class SetupTypes:
    """What conf.py's `setup(app)` (and a local extension's) registers, read from its calls (never run).

    `crossref` / `objects`: directive names of `add_crossref_type` / `add_object_type`;
    `roles`: each of their role names → the directive (type) it references (`rolename`);
    `directives`: a directive added with `add_directive_to_domain` (or `add_directive`) whose
    class is one of Sphinx's object descriptions → the built-in directive it behaves as
    (`py:decorator2` → `function`, `py:myclass` → `class`).
    """

    crossref: frozenset[str] = frozenset()
    objects: frozenset[str] = frozenset()
    roles: Mapping[str, str] = field(default_factory=dict)
    directives: Mapping[str, str] = field(default_factory=dict)

    def merged(self, other: SetupTypes) -> SetupTypes:
        """These types and an extension's (Sphinx runs conf.py's `setup` after the extensions')."""
        return SetupTypes(
            self.crossref | other.crossref,
            self.objects | other.objects,
            {**other.roles, **self.roles},
            {**other.directives, **self.directives},
        )


def _sys_path_dirs(tree: ast.Module, conf_dir: Path) -> list[Path]:
    """The folders conf.py puts on `sys.path` (`sys.path.insert(0, os.path.abspath("_ext"))`).

    Read from the calls' arguments without running them: literals, `__file__`, `os.path`'s
    `abspath` / `realpath` / `join` / `dirname`, `pathlib`'s `Path(…)`, `/`, `.parent`,
    `.resolve()` / `.absolute()` and `str(…)`; a relative folder is taken from conf.py's
    folder, where Sphinx runs it. An argument of another form is skipped.
    """
    found: list[Path] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("insert", "append")
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "path"
            and isinstance(node.func.value.value, ast.Name)
            and node.func.value.value.id == "sys"
            and node.args
        ):
            continue
        folder = _path_value(node.args[-1], conf_dir)
        if folder is not None and folder not in found:
            found.append(folder)
    return found


def _path_value(node: ast.expr, conf_dir: Path, depth: int = 0) -> Path | None:
    """A path expression of conf.py's (see `_sys_path_dirs`), or None when of another form."""
    if depth > 12:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return conf_dir / node.value
    if isinstance(node, ast.Name) and node.id == "__file__":
        return conf_dir / "conf.py"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _path_value(node.left, conf_dir, depth + 1), node.right
        if left is not None and isinstance(right, ast.Constant) and isinstance(right.value, str):
            return left / right.value
        return None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        inner = _path_value(node.value, conf_dir, depth + 1)
        return inner.parent if inner is not None else None
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = _ast_name(func)
    if name in ("resolve", "absolute") and isinstance(func, ast.Attribute) and not node.args:
        return _path_value(func.value, conf_dir, depth + 1)
    if name in ("abspath", "realpath", "str", "Path", "normpath") and len(node.args) == 1:
        return _path_value(node.args[0], conf_dir, depth + 1)
    if name == "dirname" and len(node.args) == 1:
        inner = _path_value(node.args[0], conf_dir, depth + 1)
        return inner.parent if inner is not None else None
    if name == "join" and node.args:
        first = _path_value(node.args[0], conf_dir, depth + 1)
        rest = [a.value for a in node.args[1:] if isinstance(a, ast.Constant)]
        parts = [r for r in rest if isinstance(r, str)]
        if first is None or len(parts) != len(node.args) - 1:
            return None
        return first.joinpath(*parts)
    return None


def local_extensions(conf: Path, tree: ast.Module, extensions: Iterable[str]) -> list[ast.Module]:
    """The extension modules of `extensions` that live beside conf.py, parsed (never imported).

    Sphinx imports each name from `sys.path`; the folders conf.py adds there (and conf.py's own)
    are searched for `name.py` or `name/__init__.py`. Only files inside conf.py's folder are
    read: an installed package, or a file outside the docs, is not the docs' to read here.
    """
    conf_dir = conf.parent.resolve()
    dirs = [conf_dir, *_sys_path_dirs(tree, conf_dir)]
    modules: list[ast.Module] = []
    for ext in extensions:
        rel = ext.replace(".", "/")
        if not re.fullmatch(r"[\w/]+", rel):
            continue
        for folder in dirs:
            hit = next(
                (
                    f.resolve()
                    for f in (folder / f"{rel}.py", folder / rel / "__init__.py")
                    if f.is_file()
                ),
                None,
            )
            if hit is None:
                continue
            if not hit.is_relative_to(conf_dir):
                break
            try:
                modules.append(ast.parse(hit.read_text(encoding="utf-8", errors="replace")))
            except (OSError, SyntaxError, ValueError) as exc:
                log.warning("%s: cannot read the extension (%s)", hit, exc)
            break
    return modules


def _call_arg(node: ast.Call, position: int, keyword: str) -> ast.expr | None:
    """A call's argument by position or keyword (None when not written)."""
    for kw in node.keywords:
        if kw.arg == keyword:
            return kw.value
    return node.args[position] if len(node.args) > position else None


def _ast_name(node: ast.expr | None) -> str:
    """The last name of `x` or `a.b.x` ("" for anything else): how conf.py code names a thing."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _class_kind(node: ast.expr | None, classes: Mapping[str, ast.ClassDef], depth: int = 0) -> str:
    """The built-in directive a directive class behaves as ("" when unknown).

    Sphinx's own classes by name (`PyFunction`, `python.PyMethod`); a class defined in conf.py
    (or a local extension) by its bases, the first that is known, unless it writes its own
    `handle_signature`: then `describe`.
    """
    name = _ast_name(node)
    if name in _PY_CLASSES:
        return _PY_CLASSES[name]
    if name in _STD_CLASSES:
        return _STD_CLASSES[name]
    if name in classes and depth < 8:
        if any(
            isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == "handle_signature"
            for n in classes[name].body
        ):
            # It names its objects itself: a heading whose id cannot be known, and a class
            # one's content is named inside that unknown name.
            nests = any(
                _class_kind(b, classes, depth + 1) in ("class", "exception")
                for b in classes[name].bases
            )
            return "describe-class" if nests else "describe"
        for base in classes[name].bases:
            kind = _class_kind(base, classes, depth + 1)
            if kind:
                return kind
    return ""


def _loop_values(tree: ast.Module) -> dict[int, list[dict[str, Any]]]:
    """For each call inside `for NAME in ("a", "b"):` (a literal sequence), NAME's values.

    Keyed by the call node's `id`; a call in no such loop is not in the mapping.
    """
    out: dict[int, list[dict[str, Any]]] = {}
    for loop in ast.walk(tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
            continue
        values = _literal(loop.iter)
        if not isinstance(values, list | tuple) or len(values) > 100:
            continue
        for node in ast.walk(loop):
            if isinstance(node, ast.Call):
                outer = out.get(id(node), [{}])
                out[id(node)] = [{**b, loop.target.id: v} for b in outer for v in values][:1000]
    return out


def _bound_literal(node: ast.expr | None, bound: Mapping[str, Any]) -> Any:
    """A literal argument, or a loop variable's value (`_loop_values`)."""
    if isinstance(node, ast.Name) and node.id in bound:
        return bound[node.id]
    return _literal(node)


def _setup_types(tree: ast.Module) -> SetupTypes:
    """What the `app.add_*` calls of conf.py register (see `SetupTypes`)."""
    crossref: set[str] = set()
    objects: set[str] = set()
    roles: dict[str, str] = {}
    directives: dict[str, str] = {}
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    loops = _loop_values(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        kind = node.func.attr
        if kind in {"add_crossref_type", "add_object_type"}:
            for bound in loops.get(id(node), [{}]):
                name = _bound_literal(_call_arg(node, 0, "directivename"), bound)
                if not isinstance(name, str) or not name.strip():
                    continue
                name = name.strip().lower()
                (crossref if kind == "add_crossref_type" else objects).add(name)
                role = _bound_literal(_call_arg(node, 1, "rolename"), bound)
                role = role.strip().lower() if isinstance(role, str) and role.strip() else name
                roles[role] = name
        elif kind in {"add_directive_to_domain", "add_directive"}:
            domain = _literal(_call_arg(node, 0, "domain")) if kind != "add_directive" else ""
            at = 1 if kind == "add_directive_to_domain" else 0
            name = _literal(_call_arg(node, at, "name"))
            behaves = _class_kind(_call_arg(node, at + 1, "cls"), classes)
            if not isinstance(name, str) or not name.strip() or not isinstance(domain, str):
                continue
            name = name.strip().lower()
            if behaves == "object-type" and domain in ("std", ""):
                objects.add(name)
            elif behaves == "crossref-type" and domain in ("std", ""):
                crossref.add(name)
            elif behaves in ("describe", "describe-class"):
                directives[name] = behaves
                if domain:
                    directives[f"{domain}:{name}"] = behaves
            elif behaves in _PY_CLASSES.values() and domain in ("py", ""):
                directives[name] = behaves
                if domain == "py":
                    directives[f"py:{name}"] = behaves
            elif behaves == "option" and domain in ("std", ""):
                directives[name] = "option"
            elif domain == "py" and not behaves:
                # A class of the project's own (an extension's import): the Python domain's
                # directives are object descriptions, named as functions are.
                directives[name] = directives[f"py:{name}"] = "function"
    return SetupTypes(frozenset(crossref), frozenset(objects), roles, directives)


def _read_statements(body: list[ast.stmt], values: dict[str, Any]) -> None:
    """Put the literal assignments of conf.py statements into `values`, in order.

    Besides `name = literal`, a list grows by `name += [...]`, `name.append(x)` and
    `name.extend([...])` (or a tuple). Statements inside `if` / `else`, `try` / `except` /
    `else` / `finally` and `with` blocks count in every branch: conf.py is not run, and a docs
    build normally takes those branches (`if "man" not in tags:`, `try: import theme`), so the
    union of what they add is the best reading; a later plain assignment still replaces.
    """
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], _literal(stmt.value)
            if isinstance(target, ast.Name) and value is not None:
                values[target.id] = value
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            if isinstance(stmt.op, ast.Add):
                _grow(values, stmt.target.id, _literal(stmt.value))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            func = call.func
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.attr in ("append", "extend")
                and len(call.args) == 1
                and not call.keywords
            ):
                item = _literal(call.args[0])
                if item is not None:
                    _grow(values, func.value.id, [item] if func.attr == "append" else item)
        elif isinstance(stmt, ast.If):
            _read_statements(stmt.body, values)
            _read_statements(stmt.orelse, values)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse):
                _read_statements(block, values)
            _read_statements(stmt.finalbody, values)
        elif isinstance(stmt, ast.With):
            _read_statements(stmt.body, values)


def _grow(values: dict[str, Any], name: str, extra: Any) -> None:
    """`name` extended by the items of `extra` (a list or tuple) when `name` holds a list."""
    old = values.get(name)
    if isinstance(extra, list | tuple) and isinstance(old, list | tuple):
        values[name] = [*old, *(e for e in extra if e not in old)]


def read_conf(path: Path) -> SphinxConfig:
    """The settings of a `conf.py`, read without running it; an unreadable file gives defaults."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"), str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        log.warning("%s: cannot read (%s); using Sphinx's defaults", path, exc)
        return SphinxConfig()
    values: dict[str, Any] = {}
    _read_statements(tree.body, values)
    types = _setup_types(tree)
    for module in local_extensions(path, tree, _strings(values.get("extensions"))):
        types = types.merged(_setup_types(module))
    suffixes = _strings(values.get("source_suffix")) or (".rst",)
    suffix_map = values.get("source_suffix")
    rst_suffixes = (
        tuple(k for k, v in suffix_map.items() if v in {"restructuredtext", "rst"})
        if isinstance(suffix_map, dict)
        else tuple(s for s in suffixes if s in {".rst", ".rest", ".txt"})
    )
    substitutions = {
        k: values[k] for k in ("version", "release", "today") if isinstance(values.get(k), str)
    }
    extensions = _strings(values.get("extensions"))
    from tools.sources.generators.sphinx.myst.config import enables_myst

    if enables_myst(extensions) and ".md" not in suffixes:
        suffixes = (*suffixes, ".md")  # myst-parser's setup adds `.md` to `source_suffix`
    if enables_notebooks(extensions) and ".ipynb" not in suffixes:
        suffixes = (*suffixes, ".ipynb")  # as nbsphinx's and myst-nb's setup do
    return SphinxConfig(
        root_doc=str(values.get("root_doc") or values.get("master_doc") or "index"),
        html_baseurl=str(values.get("html_baseurl") or ""),
        html_file_suffix=str(values.get("html_file_suffix") or ".html"),
        exclude_patterns=_strings(values.get("exclude_patterns")),
        templates_path=_strings(values.get("templates_path")),
        source_suffixes=tuple(s for s in suffixes if s.startswith(".")) or (".rst",),
        rst_suffixes=rst_suffixes or (".rst",),
        rst_prolog=str(values.get("rst_prolog") or ""),
        rst_epilog=str(values.get("rst_epilog") or ""),
        add_function_parentheses=values.get("add_function_parentheses", True) is not False,
        default_role=str(values.get("default_role") or ""),
        highlight_language=str(values.get("highlight_language") or ""),
        extensions=extensions,
        crossref_types=types.crossref,
        object_types=types.objects,
        type_roles=types.roles,
        domain_directives=types.directives,
        substitutions=substitutions,
        myst={k: v for k, v in values.items() if k.startswith("myst_")},
    )
