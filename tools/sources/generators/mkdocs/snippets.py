"""Files an MkDocs page shows from elsewhere: pymdownx `--8<--` snippets and the include extensions.

- `--8<--` snippets, inline and as blocks, with line ranges and named sections, resolved from the
  snippet folders (mkdocs.yml `base_path`, else the project and docs folders), so the code
  examples that live in included files reach the index; nested up to a small depth;
- the include extensions a site lists in `markdown_extensions`, resolved from their `base_path`
  (default: the folder MkDocs runs in, the one holding mkdocs.yml): `mdx_include` /
  `markdown_include` (`{! file !}`, anywhere, code fences too) and `markdown_include_variants`
  (`{* file ln[1:9] hl[3] *}`: the file, or its lines, as a code block of its language).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from tools.sources.reading import may_include, note_read

log = logging.getLogger(__name__)


MAX_SNIPPET_DEPTH = 4
MAX_SNIPPET_BYTES = 1 << 20
# `--8<-- "file"` (inline) and a bare `--8<--` line opening/closing a block of file names.
_SNIPPET_LINE_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<escape>;?)-{1,}8<-{1,}[ \t]+(?P<q>['\"])(?P<path>.*?)(?P=q)[ \t]*$"
)
_SNIPPET_BLOCK_RE = re.compile(r"^[ \t]*-{1,}8<-{1,}[ \t]*$")
_SNIPPET_SECTION_RE = re.compile(r"-{1,}8<-{1,}[ \t]*\[(start|end):([\w-]+)\]")


def indent_of(line: str) -> int:
    """How many spaces and tabs a line starts with."""
    return len(line) - len(line.lstrip(" \t"))


class SnippetFiles:
    """Where `--8<--` names are looked up, and the folder no included file may come from outside of.

    `includes` names the include extensions the site turns on (`mdx_include`, `include_variants`)
    and `include_base` the folder their relative names start from.
    """

    def __init__(
        self,
        dirs: tuple[str, ...],
        confine: str,
        includes: tuple[str, ...] = (),
        include_base: str = "",
    ) -> None:
        """Keep the lookup folders and the confining root (both absolute)."""
        self.dirs = tuple(Path(d) for d in dirs)
        self.confine = Path(confine).resolve() if confine else None
        self._configured = tuple(d.resolve() for d in self.dirs)
        self.includes = includes
        self.include_base = Path(include_base) if include_base else None

    def read_included(self, name: str) -> str | None:
        """A file an include extension names, from its base folder.

        As the extension reads it first; when the docs were copied away from the code they
        include (`../../src/x.py` no longer leads there), the same path without its leading
        `../` is looked up from the base folder and each folder above it inside the confining
        root, so the example still reaches the page.
        """
        name = name.strip()
        if not name or "://" in name or self.include_base is None:
            return None
        base = self.include_base
        found = self._read(base / name)
        if found is not None:
            return found
        parts = Path(name).parts
        tail = Path(*[p for p in parts if p not in ("..", ".")]) if parts else None
        if tail is None or tail == Path(name) or not str(tail):
            return None
        for folder in (base, *base.parents):
            if self.confine is not None and not folder.resolve().is_relative_to(self.confine):
                break
            found = self._read(folder / tail)
            if found is not None:
                return found
        return None

    def _read(self, path: Path) -> str | None:
        try:
            real = path.resolve()
            if self.confine is not None and not may_include(real, self.confine, self._configured):
                return None
            note_read(real)  # found or not: a file that appears there later is read then
            if real.is_file() and real.stat().st_size <= MAX_SNIPPET_BYTES:
                return real.read_text("utf-8", errors="replace")
        except OSError:
            return None
        return None

    def read(self, name: str, page_dir: Path | None) -> str | None:
        """The included file's text, or None when it is not found inside the confining root."""
        name = name.strip()
        if not name or "://" in name:
            return None  # a URL snippet would need the network: not at index time
        candidates = [d / name for d in self.dirs]
        if page_dir is not None:
            candidates.append(page_dir / name)
        for path in candidates:
            try:
                real = path.resolve()
                if self.confine is not None and not may_include(
                    real, self.confine, self._configured
                ):
                    continue
                note_read(real)  # found or not: a file that appears there later is read then
                if real.is_file() and real.stat().st_size <= MAX_SNIPPET_BYTES:
                    return real.read_text("utf-8", errors="replace")
            except OSError:
                continue
        return None


def resolve_snippets(
    text: str, files: SnippetFiles, page_dir: Path | None = None, depth: int = 0
) -> str:
    """The text with every `--8<--` include replaced by the file (or lines, or section) it names.

    A name that cannot be found is dropped with a warning, as pymdownx does with `check_paths`
    off: the page must still read. `;--8<--` is an escaped marker and stays as the text `--8<--`.
    """
    if "8<" not in text:
        return text
    out: list[str] = []
    block: list[str] | None = None
    for line in text.split("\n"):
        if _SNIPPET_BLOCK_RE.match(line):
            if block is None:
                block = []
            else:
                for name in block:
                    out.extend(_include(name, "", files, page_dir, depth))
                block = None
            continue
        if block is not None:
            if line.strip() and not line.strip().startswith(";"):
                block.append(line.strip())
            continue
        m = _SNIPPET_LINE_RE.match(line)
        if m:
            if m.group("escape"):
                out.append(line.replace(";", "", 1))
                continue
            out.extend(_include(m.group("path"), m.group("indent"), files, page_dir, depth))
            continue
        if _SNIPPET_SECTION_RE.search(line):
            continue  # a section marker inside an included file
        out.append(line)
    return "\n".join(out)


def _include(
    spec: str, indent: str, files: SnippetFiles, page_dir: Path | None, depth: int
) -> list[str]:
    """The lines a snippet name stands for: the whole file, `file:3:9` lines, or `file:name` section."""
    name, start, end, section = spec, 0, 0, ""
    ranged = re.match(r"^(.*?):(-?\d*):?(-?\d*)$", spec)
    named = re.match(r"^(.*?):([A-Za-z_][\w-]*)$", spec)
    if ranged and (ranged.group(2) or ranged.group(3)) and not Path(spec).suffix.endswith(":"):
        name = ranged.group(1)
        start = int(ranged.group(2) or 0)
        end = int(ranged.group(3) or 0)
    elif named and "." in named.group(1):
        name, section = named.group(1), named.group(2)
    text = files.read(name, page_dir)
    if text is None:
        log.warning("snippet %r not found; left out", spec)
        return []
    lines = text.replace("\r\n", "\n").rstrip("\n").split("\n")
    if section:
        lines = _section_lines(lines, section)
    elif start or end:
        lines = lines[max(start - 1, 0) : end or None]
    if depth + 1 < MAX_SNIPPET_DEPTH:
        lines = resolve_snippets("\n".join(lines), files, page_dir, depth + 1).split("\n")
    return [indent + ln if ln else ln for ln in lines]


def _section_lines(lines: list[str], section: str) -> list[str]:
    out: list[str] = []
    inside = False
    for line in lines:
        m = _SNIPPET_SECTION_RE.search(line)
        if m and m.group(2) == section:
            inside = m.group(1) == "start"
            continue
        if inside:
            out.append(line)
    return out


# `{! file !}` (mdx_include; `{!+`/`{!-` set recursion, `| utf-8` an encoding; markdown-include
# writes `{!file!lines=1 3-5}`); `\{!` is an escaped, literal one.
_MDX_INCLUDE_RE = re.compile(
    r"(?P<escape>\\)?\{!(?P<flag>[+\->]?)\s*(?P<path>[^|!{}\n]+?)\s*(?:\|\s*[\w-]+\s*)?!"
    r"(?:\}|lines=(?P<lines>[\d \-]+)\})"
)
# `{* file ln[1:9] hl[3] title["x"] *}` (markdown_include_variants), alone on its line.
_VARIANTS_RE = re.compile(r"^(?P<indent>[ \t]*)\{\*\s*(?P<path>\S+)(?P<opts>.*?)\*\}[ \t]*$", re.M)
_VARIANT_LINES_RE = re.compile(r"\bln\[([\d:, ]+)\]")
# A file's language, by suffix, for the code block an included example becomes.
_SUFFIX_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".jsx": "jsx",
    ".tsx": "tsx",
    ".sh": "bash",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".toml": "toml",
    ".json": "json",
    ".html": "html",
    ".css": "css",
    ".md": "markdown",
    ".sql": "sql",
    ".rs": "rust",
    ".go": "go",
    ".java": "java",
    ".ini": "ini",
    ".dockerfile": "dockerfile",
}


def _line_ranges(spec: str, lines: list[str], sep: str) -> list[str]:
    """The lines a range list names (`1:9,12` or `1 3-5`, 1-based, inclusive), in its order."""
    out: list[str] = []
    for part in re.split(r"[,\s]+" if sep == ":" else r"\s+", spec.strip()):
        if not part:
            continue
        first, ranged, last = part.partition(sep)
        try:
            start = int(first) if first else 1
            end = int(last) if last else (len(lines) if ranged else start)
        except ValueError:
            continue
        out.extend(lines[max(start - 1, 0) : end])
    return out


def resolve_includes(text: str, files: SnippetFiles, depth: int = 0) -> str:
    """The text with the include extensions' directives the site turns on replaced by their files.

    A file that cannot be found is dropped with a warning (both extensions' default, "truncate
    on failure"): the page must still read.
    """
    if "include_variants" in files.includes and "{*" in text:
        text = _VARIANTS_RE.sub(lambda m: _variant_block(m, files), text)
    if "mdx_include" in files.includes and "{!" in text:
        text = _MDX_INCLUDE_RE.sub(lambda m: _mdx_include(m, files, depth), text)
    return text


def _mdx_include(m: re.Match[str], files: SnippetFiles, depth: int) -> str:
    if m.group("escape"):
        return m.group(0)[1:]
    included = files.read_included(m.group("path"))
    if included is None:
        log.warning("include %r not found; left out", m.group("path"))
        return ""
    included = included.replace("\r\n", "\n").rstrip("\n")
    if m.group("lines"):
        included = "\n".join(_line_ranges(m.group("lines"), included.split("\n"), "-"))
    if m.group("flag") != "-" and depth + 1 < MAX_SNIPPET_DEPTH:
        included = resolve_includes(included, files, depth + 1)
    return included


def _variant_block(m: re.Match[str], files: SnippetFiles) -> str:
    """The example file a `{* ... *}` names, as the fenced block the site shows (variants aside)."""
    name = m.group("path")
    included = files.read_included(name)
    if included is None:
        log.warning("include %r not found; left out", name)
        return ""
    lines = included.replace("\r\n", "\n").rstrip("\n").split("\n")
    ranges = _VARIANT_LINES_RE.search(m.group("opts"))
    if ranges:
        lines = _line_ranges(ranges.group(1), lines, ":")
    language = _SUFFIX_LANGUAGES.get(Path(name).suffix.lower(), "")
    indent = m.group("indent")
    body = [indent + ln if ln else ln for ln in lines]
    return "\n".join([f"{indent}```{language}", *body, f"{indent}```"])
