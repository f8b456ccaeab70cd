"""The layout of tools/sources holds: layers import downward only, no circle, no generator reads another's, rooms stay small.

Every import counts, whether at the top, inside a function or under `TYPE_CHECKING`: a circle
that only the type checker sees is still two modules that cannot be read one without the other.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
PACKAGE = "tools.sources"
MAX_LINES = 600

# From the bottom up: a module may import its own layer's modules and those below, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    # records, protocols and the helpers every reader shares
    (
        "tools.sources.records",
        "tools.sources.contract",
        "tools.sources.slugs",
        "tools.sources.reading",
        "tools.sources.yaml_config",
        "tools.sources.release_notes",
    ),
    (
        "tools.sources.site",
        "tools.sources.unread",
    ),  # the site profile and the rules a generator refines
    (  # what a generator is; the generic text layers every generator builds on
        "tools.sources.generator",
        "tools.sources.hidden",
        "tools.sources.markdown",
        "tools.sources.notebook",
        "tools.sources.html",
        "tools.sources.jsconfig",  # JavaScript / TypeScript config files read as text
    ),
    ("tools.sources.generators",),  # one package per generator
    ("tools.sources.registry",),  # the one list of generators
    ("tools.sources.readers",),  # a file's text into its generator's reader
    ("tools.sources.corpus",),  # a folder kept in a search index
    ("tools.sources.live",),  # sources read over HTTP
)


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted((ROOT / "tools" / "sources").rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package this file imports (a name that is a submodule counts as it)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def _layer(module: str) -> int | None:
    for i, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    return None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_layer() -> None:
    unplaced = [m for m in _modules() if m != PACKAGE and _layer(m) is None]
    assert unplaced == [], "add each new module to LAYERS (or put it in a package that is)"


def test_no_import_circle() -> None:
    assert _cycles(_graph()) == []


def test_no_upward_import() -> None:
    upward = [
        f"{module} (layer {_layer(module)}) imports {target} (layer {_layer(target)})"
        for module, targets in _graph().items()
        for target in sorted(targets)
        if (_layer(module) or 0) < (_layer(target) or 0)
    ]
    assert upward == []


def test_no_generator_imports_another() -> None:
    prefix = "tools.sources.generators."

    def owner(module: str) -> str | None:
        return module[len(prefix) :].split(".")[0] if module.startswith(prefix) else None

    crossing = [
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in sorted(targets)
        if owner(module) and owner(target) and owner(module) != owner(target)
    ]
    assert crossing == []


def test_no_module_over_the_limit() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in _modules().values()
        if (n := len(path.read_text("utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these by concern (at most {MAX_LINES} lines)"


# `site.generator == "mkdocs"`, `generator in ("mkdocs", …)`: a question only a generator's own
# package may ask (its rules answer it for everyone else).
_GENERATOR_BRANCH = re.compile(r"""\bgenerator\s*(?:==|!=|\bin\b)\s*[("']""")


def test_no_generator_name_branch_outside_the_generator_packages() -> None:
    branches = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("tools", "graphs", "server")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "generators" not in path.relative_to(ROOT).parts
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if _GENERATOR_BRANCH.search(line)
    ]
    assert branches == []


def test_the_checks_see_what_they_should() -> None:
    """The import walk is no test that cannot fail: it sees real edges, and a planted circle."""
    graph = _graph()
    assert "tools.sources.records" in graph["tools.sources.markdown.parse"]
    assert (
        "tools.sources.generators.sphinx.project" in graph["tools.sources.generators.sphinx.reader"]
    )
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert _GENERATOR_BRANCH.search('if site.generator == "docusaurus":')


def test_the_search_engine_reads_records_not_readers() -> None:
    """tools/search imports the records at the bottom of tools/sources, never a reader."""
    modules = _modules()
    used = {
        f"{path.relative_to(ROOT)} imports {target}"
        for path in sorted((ROOT / "tools" / "search").rglob("*.py"))
        for target in _imports(path, modules)
        if _layer(target) != 0
    }
    assert used == set()
