"""Jupyter notebooks (`.ipynb`) as Markdown: what a docs site shows of one, in reading order.

Why: Sphinx sites with nbsphinx or myst-nb, and MkDocs sites with mkdocs-jupyter, publish
notebooks as pages, and their code is often the example a user asks about. A notebook is JSON
(nbformat); the site shows its Markdown cells as text, its code cells as code in the kernel's
language, and the text of their saved outputs. This module turns that into one Markdown text;
the site's own Markdown reader then reads it (MyST on Sphinx, Python-Markdown rules on MkDocs),
so headings, ids and links follow the same rules as the site's other pages.

Read with `json`, not `nbformat`: nbformat's validation pulls in jsonschema and refuses
notebooks a site still builds; the two fields read here (cells, their source and outputs) have
been the same since nbformat 4 (2015), and nbformat 3's worksheets are read too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# The text of one output cell kept at most: a printed value or a short log is part of the
# example; a dump of thousands of lines is not what a reader of the page looks at.
OUTPUT_CHARS = 2_000
# Terminal colour codes in tracebacks and logs.
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Cell tags with which myst-nb, Jupyter Book and nbconvert's TagRemovePreprocessor leave a
# cell, its input or its outputs off the page.
_REMOVE_CELL = frozenset({"remove-cell", "remove_cell"})
_REMOVE_INPUT = frozenset({"remove-input", "remove_input"})
_REMOVE_OUTPUT = frozenset({"remove-output", "remove_output"})
# A line that would open or close a fence inside a code block: the fence is made longer.
_FENCE_RE = re.compile(r"^\s*(`{3,})", re.M)


@dataclass(frozen=True)
class Notebook:
    """A notebook read as Markdown: `text`, the kernel's `language`, and any `problem` reading it."""

    text: str
    language: str
    problem: str = ""


def _source(cell: dict[str, Any]) -> str:
    value = cell.get("source", cell.get("input", ""))
    if isinstance(value, list):
        return "".join(part for part in value if isinstance(part, str))
    return value if isinstance(value, str) else ""


def _output_text(output: dict[str, Any]) -> str:
    """The plain text an output shows: a stream, or a result's `text/plain` (images are dropped)."""
    kind = output.get("output_type")
    if kind == "stream":
        value = output.get("text", "")
    elif kind in ("execute_result", "display_data", "pyout"):
        data = output.get("data", output)
        value = data.get("text/plain", data.get("text", "")) if isinstance(data, dict) else ""
    else:  # errors: a traceback of the author's session, not the page's content
        return ""
    if isinstance(value, list):
        value = "".join(part for part in value if isinstance(part, str))
    if not isinstance(value, str):
        return ""
    text = _ANSI_RE.sub("", value).strip("\n")
    return text[:OUTPUT_CHARS] + ("\n…" if len(text) > OUTPUT_CHARS else "")


def _fenced(code: str, language: str) -> str:
    """A fenced code block that no backtick run inside the code can close."""
    longest = max((len(m.group(1)) for m in _FENCE_RE.finditer(code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code.rstrip()}\n{fence}"


def _shown(cell: dict[str, Any]) -> tuple[bool, bool]:
    """Whether the site shows the cell's source and its outputs.

    Hidden text never reaches the index (as hidden HTML does not, tools/sources/hidden/):
    nbsphinx leaves out cells whose metadata says `"nbsphinx": "hidden"`, and myst-nb, Jupyter
    Book and nbconvert the cells, inputs and outputs tagged `remove-cell` / `-input` / `-output`.
    """
    meta = cell.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    if meta.get("nbsphinx") == "hidden":
        return False, False
    raw_tags = meta.get("tags")
    tags = {t for t in raw_tags if isinstance(t, str)} if isinstance(raw_tags, list) else set()
    if tags & _REMOVE_CELL:
        return False, False
    return not tags & _REMOVE_INPUT, not tags & _REMOVE_OUTPUT


def _language(notebook: dict[str, Any]) -> str:
    meta = notebook.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    info = meta.get("language_info")
    kernel = meta.get("kernelspec")
    for value in (
        info.get("name") if isinstance(info, dict) else None,
        kernel.get("language") if isinstance(kernel, dict) else None,
    ):
        if isinstance(value, str) and value:
            return value
    return "python"


def _cells(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    cells = notebook.get("cells")
    if cells is None:  # nbformat 3: cells inside worksheets
        sheets = notebook.get("worksheets")
        cells = [
            c
            for sheet in (sheets if isinstance(sheets, list) else [])
            if isinstance(sheet, dict)
            for c in (sheet.get("cells") or [])
        ]
    return [c for c in cells if isinstance(c, dict)] if isinstance(cells, list) else []


def notebook_markdown(text: str) -> Notebook:
    """The notebook's Markdown: Markdown cells as they are, code cells fenced, outputs as text.

    Raw cells are left out (they are for other converters: LaTeX, reStructuredText), and so
    are the cells and parts of cells the site hides (`_shown`). A file that is not a notebook
    gives no text and says why in `problem`; it never raises.
    """
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError) as exc:  # nesting too deep for the decoder: not a notebook
        return Notebook("", "python", f"not a notebook (invalid JSON: {exc})")
    if not isinstance(notebook, dict):
        return Notebook("", "python", "not a notebook (no JSON object)")
    language = _language(notebook)
    parts: list[str] = []
    for cell in _cells(notebook):
        show_source, show_outputs = _shown(cell)
        kind = cell.get("cell_type")
        source = _source(cell).strip("\n") if show_source else ""
        if kind in ("markdown", "heading"):
            if kind == "heading":  # nbformat 3 heading cells
                level = cell.get("level")
                depth = max(1, min(6, level)) if isinstance(level, int) else 1
                source = "#" * depth + " " + source
            if source.strip():
                parts.append(source)
        elif kind == "code":
            if source.strip():
                parts.append(_fenced(source, language))
            outputs = cell.get("outputs") if show_outputs else None
            for output in outputs if isinstance(outputs, list) else []:
                shown = _output_text(output) if isinstance(output, dict) else ""
                if shown.strip():
                    parts.append(_fenced(shown, "text"))
    return Notebook("\n\n".join(parts) + ("\n" if parts else ""), language)
