"""`include` and `literalinclude`, confined to the repository holding the project."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst.directives.misc import Include
from typing_extensions import override

from tools.sources.generators.sphinx.directives.base import SphinxDirective, code_block
from tools.sources.generators.sphinx.options import REFUSED_INCLUDE, RstOptions, state_of
from tools.sources.reading import may_include, note_read

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


class LiteralInclude(SphinxDirective):
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
