"""Code tools: `search_code` (regex), `list_directory`, `read_code_file` — all confined to the roots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from settings.sources import SourceSettings
from tools.artifacts import CodeArtifact
from tools.codebase import search as code_search
from tools.codebase.roots import (
    CodeRoot,
    PathError,
    parse_roots,
    refused_component,
    resolve_path,
)
from tools.feedback import FEEDBACK_DESCRIPTION, emit_feedback

MAX_FILES_SHOWN = 15
MAX_LINES_PER_FILE = 8
MAX_LINES_TOTAL = 80
MAX_READ_LINES = 400
MAX_LIST_ENTRIES = 200


def code_roots(settings: SourceSettings) -> list[CodeRoot]:
    """The configured roots that exist."""
    return parse_roots(settings.code_roots)


class SearchCodeArgs(BaseModel):
    """Arguments of `search_code`."""

    pattern: str = Field(
        description="A regular expression (ripgrep syntax), e.g. `class StateGraph` or `def stream\\(`. Escape ( ) [ ] . * + ?"
    )
    path: str | None = Field(
        default=None,
        description="Limit to a folder or file, '<root>/<path>'; null searches every root.",
    )
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


class ListDirectoryArgs(BaseModel):
    """Arguments of `list_directory`."""

    path: str | None = Field(
        default=None, description="Folder as '<root>/<path>'; null lists the roots."
    )
    max_depth: int = Field(default=2, description="How deep to list (1-4).")
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


class ReadCodeFileArgs(BaseModel):
    """Arguments of `read_code_file`."""

    file_path: str = Field(
        description="File as '<root>/<path>', as search_code or list_directory showed it."
    )
    start_line: int = Field(default=1, description="First line to show (1-based).")
    num_lines: int = Field(default=100, description="How many lines (1-400).")
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


def format_matches(results: list[code_search.FileMatches], pattern: str) -> str:
    """`file:line: text`, grouped by file, capped."""
    if not results:
        return f"No matches for /{pattern}/."
    total = sum(len(f.lines) for f in results)
    lines = [f"{total} matches for /{pattern}/ in {len(results)} files:"]
    shown = 0
    for fm in results[:MAX_FILES_SHOWN]:
        lines.append("")
        for n, text in fm.lines[:MAX_LINES_PER_FILE]:
            if shown >= MAX_LINES_TOTAL:
                break
            lines.append(f"{fm.display}:{n}: {text.strip()}")
            shown += 1
        if len(fm.lines) > MAX_LINES_PER_FILE:
            lines.append(f"{fm.display}: … {len(fm.lines) - MAX_LINES_PER_FILE} more matches")
    if len(results) > MAX_FILES_SHOWN:
        rest = ", ".join(f.display for f in results[MAX_FILES_SHOWN : MAX_FILES_SHOWN + 10])
        lines.append(f"\n… {len(results) - MAX_FILES_SHOWN} more files: {rest}")
    return "\n".join(lines)


def create_code_tools(roots: list[CodeRoot], timeout_s: float = 10.0) -> list[BaseTool]:
    """The three code tools over the given roots."""

    def search_code(
        pattern: str, path: str | None = None, feedback_to_user: str = ""
    ) -> tuple[str, list[dict[str, Any]]]:
        emit_feedback(feedback_to_user)
        if not pattern or not pattern.strip():
            return "The pattern is empty: give a regular expression or a plain word.", []
        if len(pattern) > 500:
            return "The pattern is longer than 500 characters; use a shorter one.", []
        try:
            targets = [resolve_path(roots, path)] if path else [(r, r.path) for r in roots]
            results = code_search.search(targets, pattern, timeout_s)
        except (PathError, code_search.SearchError) as exc:
            return str(exc), []
        artifact = [
            {
                "file": f.display,
                "lines": [n for n, _ in f.lines[:MAX_LINES_PER_FILE]],
                "definitions": f.definitions[:MAX_LINES_PER_FILE],
            }
            for f in results[:MAX_FILES_SHOWN]
        ]
        return format_matches(results, pattern), artifact

    def list_directory(
        path: str | None = None, max_depth: int = 2, feedback_to_user: str = ""
    ) -> str:
        emit_feedback(feedback_to_user)
        if not path or path.strip() in {"", ".", "/"}:
            return "Code roots:\n" + "\n".join(f"- {r.label}/" for r in roots)
        try:
            root, base = resolve_path(roots, path, want="dir")
        except PathError as exc:
            return str(exc)
        depth = max(1, min(int(max_depth), 4))
        lines = [root.display(base) + "/"]
        count = 0

        def walk(folder: Path, level: int) -> None:
            nonlocal count
            try:
                entries = sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name))
            except OSError:
                return
            for entry in entries:
                if refused_component(root, entry) is not None:
                    continue  # hidden, secret, environment or cache: not even its name is shown
                if count >= MAX_LIST_ENTRIES:
                    return
                count += 1
                is_dir = entry.is_dir() and not entry.is_symlink()
                lines.append("  " * level + entry.name + ("/" if is_dir else ""))
                if is_dir and level < depth:
                    walk(entry, level + 1)

        walk(base, 1)
        if count >= MAX_LIST_ENTRIES:
            lines.append(
                f"… cut at {MAX_LIST_ENTRIES} entries; list a subfolder or lower max_depth."
            )
        return "\n".join(lines)

    def read_code_file(
        file_path: str, start_line: int = 1, num_lines: int = 100, feedback_to_user: str = ""
    ) -> tuple[str, CodeArtifact]:
        emit_feedback(feedback_to_user)
        try:
            root, full = resolve_path(roots, file_path, want="file")
        except PathError as exc:
            return str(exc), {}
        try:
            lines = full.read_text("utf-8", errors="replace").splitlines()
        except OSError as exc:
            return f"Could not read {root.display(full)}: {exc.strerror}.", {}
        total = len(lines)
        start = max(1, int(start_line))
        count = max(1, min(int(num_lines), MAX_READ_LINES))
        if total == 0:
            return f"{root.display(full)} is empty.", {}
        if start > total:
            return (
                f"{root.display(full)} has only {total} lines; start_line {start} is past the end.",
                {},
            )
        end = min(total, start + count - 1)
        width = len(str(end))
        body = "\n".join(f"{n:>{width}} | {lines[n - 1]}" for n in range(start, end + 1))
        display = root.display(full)
        header = f"{display} lines {start}-{end} of {total} (cite as {display}:{start}-{end})"
        more = (
            f"\n… {total - end} more lines; continue with start_line={end + 1}."
            if end < total
            else ""
        )
        return f"{header}\n{body}{more}", {
            "file": display,
            "start": start,
            "end": end,
            "total": total,
            "lines": lines[start - 1 : end],  # the passage itself, for code that quotes it
        }

    return [
        StructuredTool.from_function(
            search_code,
            name="search_code",
            description=(
                "Search the source code with a regular expression; matches come as file:line: text, "
                "files that define the name first. Use for class/function names, parameters and "
                "error codes; then read_code_file around a match."
            ),
            args_schema=SearchCodeArgs,
            response_format="content_and_artifact",
        ),
        StructuredTool.from_function(
            list_directory,
            name="list_directory",
            description="List folders and files of the code roots as a tree, to find where something lives.",
            args_schema=ListDirectoryArgs,
        ),
        StructuredTool.from_function(
            read_code_file,
            name="read_code_file",
            description="Read lines of a source file with line numbers; cite code as path:start-end.",
            args_schema=ReadCodeFileArgs,
            response_format="content_and_artifact",
        ),
    ]
