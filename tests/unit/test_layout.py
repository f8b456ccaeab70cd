"""The top-level layout holds: layers import downward, server/ is the server, bench/ stands alone.

From the bottom up: settings/ (configuration) < tools/ (catalog and backends) < graphs/ (the
agents) < server/ (what the engines load) < commands/ (what an operator runs); testing/ and
bench/ sit on top and import no test module. tools/sources keeps its own finer layers
(tests/unit/tools/sources/test_layout.py). Every import counts, at the top or inside a function.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("settings", "tools", "graphs", "server", "commands", "testing", "bench")
# Upward imports that exist for a stated reason; a new one fails, and a fixed one must leave.
KNOWN_UPWARD = {
    # identity names (store namespaces, permissions) live with the auth that issues them;
    # stdlib-only and import-safe, read by the memory tools and the model policy too
    ("tools/memory.py", "server.identity"),
    ("graphs/model_policy.py", "server.identity"),
    # the KB tools resolve the reader's language the way the offline model does
    ("tools/kb.py", "graphs.offline.language"),
    # deprecated command aliases kept for scripts: `python -m server.report`, `server.auth --check`
    ("server/report.py", "commands.report"),
    ("server/auth.py", "commands.check_auth"),
}
# Not yet converted to the bench harness: another change owns them (issue 34, the big-docs
# branch); each goes from this set once it runs as `python -m bench.X` without a path patch.
BENCH_NOT_CONVERTED: set[str] = set()
# A bench whose child process imports a *baseline's* project from another tree on purpose (a
# same-run comparison): its one path change is that, never a way to find the project itself.
BENCH_SIDE_TREES = {"bench/index_build.py": 1}


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_layers_import_downward_only() -> None:
    upward = set()
    for rank, layer in enumerate(LAYERS):
        for path in _files(layer):
            for module in _imports(path):
                top = module.split(".")[0]
                if top in LAYERS and LAYERS.index(top) > rank:
                    upward.add((_rel(path), module))
    assert upward == KNOWN_UPWARD


def test_settings_is_the_standard_library_only() -> None:
    # make aegra's command runs in the project's environment before anything is loaded; only
    # python-dotenv (both engines' own `.env` reader) is imported, and only where a file is read.
    allowed = {*LAYERS[:1], "dotenv", "__future__"}
    for path in _files("settings"):
        for module in _imports(path):
            top = module.split(".")[0]
            assert top in allowed or top in sys.stdlib_module_names, (_rel(path), module)


def test_server_holds_no_command() -> None:
    # A command has a `main`; the two aliases only forward to commands/ under `__main__`.
    commands = [
        _rel(path)
        for path in _files("server")
        if any(
            isinstance(node, ast.FunctionDef) and node.name == "main"
            for node in ast.parse(path.read_text("utf-8")).body
        )
    ]
    assert commands == []


def test_no_test_module_is_imported_by_bench_or_testing() -> None:
    for folder in ("testing", "bench", "settings", "tools", "graphs", "server", "commands"):
        for path in _files(folder):
            if _rel(path) in BENCH_NOT_CONVERTED:
                continue
            tests = {m for m in _imports(path) if m == "tests" or m.startswith("tests.")}
            assert not tests, (_rel(path), tests)


def test_testing_is_import_safe_for_benches() -> None:
    for path in _files("testing"):
        assert "pytest" not in {m.split(".")[0] for m in _imports(path)}, _rel(path)


def test_benches_run_as_modules_without_path_patches() -> None:
    for path in _files("bench"):
        if _rel(path) in BENCH_NOT_CONVERTED:
            continue
        allowed = BENCH_SIDE_TREES.get(_rel(path), 0)
        text = path.read_text("utf-8")
        patches = [
            node.lineno
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ]
        assert len(patches) == allowed, (_rel(path), patches)
        assert f"python bench/{path.name}" not in text, _rel(path)  # `python -m bench.X`
