"""Regex search over code roots: ripgrep (`rg --json`) when installed, a pure-Python fallback otherwise.

Both backends return the same `FileMatches` list, ranked the same way (files that define the
pattern first, then by hit count), so the output does not depend on which one ran.
The fallback uses the `regex` module for its per-call timeout: a catastrophic pattern
(`(a+)+$`) must not hang a tool call; ripgrep's engine cannot backtrack at all.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import regex

from tools.codebase.roots import (
    CodeRoot,
    is_binary,
    refused_component,
    ripgrep_excludes,
    walk_files,
)

MAX_LINE_CHARS = 300
MAX_MATCHES_PER_FILE = 50
MAX_FILE_BYTES = 2_000_000


class SearchError(ValueError):
    """Invalid pattern or a search that ran out of time."""


@dataclass
class FileMatches:
    """All matches in one file."""

    display: str
    lines: list[tuple[int, str]] = field(default_factory=list)
    score: float = 0.0
    # Lines that define the pattern (`def`/`class`/assignment of a matching name).
    definitions: list[int] = field(default_factory=list)


# Word boundaries in ASCII, in both backends: identifiers in code are ASCII, and ripgrep 13's
# Unicode `\b` leaves its fast DFA at the first non-ASCII byte of a file (a comment, a docstring),
# which made `\b(?:a|B|c)\b` 5-9 times slower (90 ms against 10 ms on langgraph's sources).
RG_BOUNDARIES = ("(?-u:\\b)", "(?-u:\\B)")
PY_BOUNDARIES = ("(?a:\\b)", "(?a:\\B)")


def ascii_boundaries(pattern: str, spelling: tuple[str, str]) -> str:
    r"""`pattern` with each `\b` / `\B` outside a character class spelled as ASCII-only.

    Escapes are read in pairs, so `\\b` (a backslash, then `b`) stays as it is; a class is
    skipped whole (`]` right after `[` or `[^` is a literal). Nothing else in the pattern changes.
    """
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            pair = pattern[i : i + 2]
            if not in_class and pair[1] in "bB":
                out.append(spelling[0] if pair[1] == "b" else spelling[1])
            else:
                out.append(pair)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            j = i + 1
            if pattern[j : j + 1] == "^":
                j += 1
            if pattern[j : j + 1] == "]":
                j += 1  # a leading `]` is a literal
            out.append(pattern[i:j])
            i = j
            continue
        if c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


def rg_available() -> bool:
    """Whether ripgrep is on PATH."""
    return shutil.which("rg") is not None


def _smart_case(pattern: str) -> bool:
    """Case-insensitive unless the pattern has an upper-case letter (ripgrep's --smart-case)."""
    return not any(c.isupper() for c in re.sub(r"\\.", "", pattern))


def search(
    roots: list[tuple[CodeRoot, Path]],
    pattern: str,
    timeout_s: float = 10.0,
    use_rg: bool | None = None,
) -> list[FileMatches]:
    """Search `pattern` under each (root, base path); raises SearchError on bad regex or timeout."""
    if use_rg is None:
        use_rg = rg_available()
    results: list[FileMatches] = []
    deadline = time.monotonic() + timeout_s
    for root, base in roots:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise SearchError(
                f"The search took longer than {timeout_s:.0f} s; narrow it with `path`."
            )
        if use_rg:
            results.extend(_search_rg(root, base, pattern, remaining))
        else:
            results.extend(_search_py(root, base, pattern, deadline))
    return rank(results, pattern)


def rank(results: list[FileMatches], pattern: str) -> list[FileMatches]:
    """Files defining the pattern first, then files with more hits, then by path."""
    try:
        word = regex.compile(pattern, flags=regex.IGNORECASE if _smart_case(pattern) else 0)
    except regex.error:
        word = None
    definition = re.compile(r"^\s*(?:async\s+def|def|class)\s+(\w+)|^\s*(\w+)\s*(?::[^=]*)?=")
    for fm in results:
        fm.definitions = []
        for n, text in fm.lines:
            m = definition.match(text)
            name = m and (m.group(1) or m.group(2))
            if name and word is not None and word.fullmatch(name, timeout=0.1):
                fm.definitions.append(n)
        defs = len(fm.definitions)
        is_test = "/tests/" in f"/{fm.display}" or fm.display.rsplit("/", 1)[-1].startswith("test_")
        fm.score = 100.0 * min(defs, 1) + min(len(fm.lines), 50) - (30.0 if is_test else 0.0)
    return sorted(results, key=lambda f: (-f.score, f.display))


def _search_rg(root: CodeRoot, base: Path, pattern: str, timeout: float) -> list[FileMatches]:
    cmd = [
        "rg",
        "--json",
        "--no-config",
        "--no-ignore",
        "--sort",
        "path",
        "--max-count",
        str(MAX_MATCHES_PER_FILE),
        "--max-filesize",
        str(MAX_FILE_BYTES),
    ]
    if _smart_case(pattern):
        cmd.append("--ignore-case")
    cmd += ripgrep_excludes()
    cmd += ["-e", ascii_boundaries(pattern, RG_BOUNDARIES), "--", str(base)]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=max(timeout, 0.1), check=False)
    except subprocess.TimeoutExpired as exc:
        raise SearchError(
            f"The search took longer than {timeout:.0f} s; narrow it with `path`."
        ) from exc
    if proc.returncode == 2 and not proc.stdout:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise SearchError(f"Invalid regular expression {pattern!r}: {_first_error_line(err)}")
    by_path: dict[str, FileMatches | None] = {}
    for raw in proc.stdout.splitlines():
        try:
            event = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if event.get("type") != "match":
            continue
        data = event["data"]
        path_text = data["path"].get("text")
        line_text = data["lines"].get("text")
        if path_text is None or line_text is None:
            continue
        if path_text not in by_path:  # decided once per file, not once per matching line
            full = Path(path_text)
            # Defence in depth: the walk and the globs should already have skipped a refused file.
            refused = refused_component(root, full) is not None
            by_path[path_text] = None if refused else FileMatches(root.display(full))
        fm = by_path[path_text]
        if fm is not None:
            fm.lines.append((int(data["line_number"]), _clip(line_text)))
    return [fm for fm in by_path.values() if fm is not None]


def _first_error_line(err: str) -> str:
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    detail = next((line for line in lines if line.startswith("error:")), lines[-1] if lines else "")
    return detail.removeprefix("error:").strip() or "rejected by ripgrep"


def _clip(text: str) -> str:
    text = text.rstrip("\r\n")
    return text if len(text) <= MAX_LINE_CHARS else text[:MAX_LINE_CHARS] + "…"


def _search_py(root: CodeRoot, base: Path, pattern: str, deadline: float) -> list[FileMatches]:
    try:
        rx = regex.compile(
            ascii_boundaries(pattern, PY_BOUNDARIES),
            flags=regex.IGNORECASE if _smart_case(pattern) else 0,
        )
    except regex.error as exc:
        raise SearchError(f"Invalid regular expression {pattern!r}: {exc}") from exc
    out: list[FileMatches] = []
    for path in walk_files(root, base):
        try:
            if path.stat().st_size > MAX_FILE_BYTES or is_binary(path):
                continue
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        fm: FileMatches | None = None
        for n, line in enumerate(text.splitlines(), 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SearchError(
                    "The search ran out of time; narrow it with `path` or a simpler pattern."
                )
            try:
                hit = rx.search(line, timeout=remaining)
            except TimeoutError as exc:
                raise SearchError(
                    f"The pattern {pattern!r} is too expensive (catastrophic backtracking); simplify it."
                ) from exc
            if hit:
                if fm is None:
                    fm = FileMatches(root.display(path))
                    out.append(fm)
                fm.lines.append((n, _clip(line)))
                if len(fm.lines) >= MAX_MATCHES_PER_FILE:
                    break
    return out
