"""VitePress's file imports: `<!--@include: file-->` (Markdown included) and `<<< file` (code).

`<!--@include: ./part.md-->` puts a file's text into the page before it is parsed: a region
(`#name`: the lines between `#region name` markers, or in a Markdown file the section under the
heading of that id) and a line range (`{3,9}`, `{,9}`, `{3,}`) pick a part; an included
Markdown file loses its front matter; includes nest. `<<< @/snippets/x.ts#setup{2 ts} [title]`
is a code block of the file (a region of it, markers gone, dedented), in its language, titled
with the given title or the file's name. `@` is the pages' folder (`srcDir`), any other path is
relative to the page. As for every include, files are read from the repository holding the
site only, never a dot file or one in a dot folder (tools/sources/reading.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tools.sources.generators.vitepress.regions import (
    dedent,
    find_regions,
    strip_region_markers,
)
from tools.sources.generators.vitepress.slug import vitepress_slug
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.reading import may_include, note_read

INCLUDE_RE = re.compile(r"<!--\s*@include:\s*(.*?)\s*-->")
_RANGE_RE = re.compile(r"\{(\d*),(\d*)\}$")
_REGION_RE = re.compile(r"#([^\s{]+)$")
_SNIPPET_LINE_RE = re.compile(r"^([ \t]*)<<<[ \t]*(\S.*?)[ \t]*$")
_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_EXPLICIT_ID_RE = re.compile(r"\s*\{#([^}\s]+)\}\s*$")
_TITLE_RE = re.compile(r"\s*\[(.+)\]$")
_SNIPPET_REGION_RE = re.compile(r"#([\w.-]+)$")
_EXTENSION_RE = re.compile(r"\.([a-zA-Z0-9]+)$")
_LINES_RE = re.compile(r"^\d+(?:[,-]\d+)*$")
# How deep includes nest (a file including itself through others stops there).
MAX_INCLUDE_DEPTH = 8


def include_target(spec: str, page: Path, src_dir: Path) -> tuple[Path, str, str] | None:
    """The file an include names, its region (`""`: none) and line range (`"3,9"`, `""`)."""
    spec = spec.strip()
    if not spec:
        return None
    line_range = _RANGE_RE.search(spec)
    if line_range:
        spec = spec[: line_range.start()]
    region = _REGION_RE.search(spec)
    if region:
        spec = spec[: region.start()]
    if spec.startswith("@"):
        path = src_dir / spec[2 if spec[1:2] in ("/", "\\") else 1 :]
    else:
        path = page.parent / spec
    span = f"{line_range.group(1)},{line_range.group(2)}" if line_range else ""
    return Path(os.path.normpath(path)), region.group(1) if region else "", span


def _read(path: Path, confine: Path) -> str | None:
    """A file's text when an include may read it (recorded as read, found or not), else None."""
    try:
        real = path.resolve()
    except OSError:
        return None
    if not may_include(real, confine):
        return None
    note_read(real)
    try:
        return real.read_text("utf-8", errors="replace").replace("\r\n", "\n")
    except OSError:
        return None


def heading_section(lines: list[str], anchor: str) -> tuple[int, int] | None:
    """The lines under the heading whose VitePress id is `anchor`, to the next one as high."""
    ids: set[str] = set()
    found: tuple[int, int] | None = None
    fence = ""
    for i, line in enumerate(lines):
        m = _FENCE_RE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = ""
            continue
        if m:
            fence = m.group(1)
            continue
        h = _HEADING_RE.match(line)
        if h is None:
            continue
        level = len(h.group(1))
        if found is not None and level <= found[1]:
            return found[0], i
        explicit = _EXPLICIT_ID_RE.search(h.group(2))
        base = explicit.group(1) if explicit else vitepress_slug(h.group(2))
        slug, n = base, 0
        while slug in ids and not explicit:
            n += 1
            slug = f"{base}-{n}"
        ids.add(slug)
        if slug == anchor and found is None:
            found = (i + 1, level)
    return (found[0], len(lines)) if found is not None else None


def resolve_includes(
    text: str, page: Path, src_dir: Path, confine: Path, ancestors: tuple[Path, ...] = ()
) -> str:
    """The text with each `<!--@include: …-->` replaced by what it includes (nested ones too).

    An include that cannot be read stays a comment (dropped with the page's hidden text), as
    VitePress leaves one it cannot follow; so does one that would include itself.
    """
    if "@include" not in text or len(ancestors) >= MAX_INCLUDE_DEPTH:
        return text

    def include(m: re.Match[str]) -> str:
        target = include_target(m.group(1), page, src_dir)
        if target is None:
            return m.group(0)
        path, region, span = target
        if path == page or path in ancestors:
            return m.group(0)
        content = _read(path, confine)
        if content is None:
            return m.group(0)
        if path.suffix == ".md" and (region or not span):
            content = split_frontmatter(content)[1]
        lines = content.split("\n")
        if region:
            regions = find_regions(lines, region)
            if regions:
                lines = [line for r in regions for line in lines[r.start : r.end]]
            else:
                section = heading_section(lines, region)
                if section is None:
                    return ""
                lines = lines[section[0] : section[1]]
        if span:
            first, _, last = span.partition(",")
            lines = lines[(int(first) if first else 1) - 1 : int(last) if last else len(lines)]
        return resolve_includes("\n".join(lines), path, src_dir, confine, (*ancestors, page))

    return INCLUDE_RE.sub(include, text)


def _snippet_spec(raw: str) -> tuple[str, str, str, str]:
    """A `<<<` line's path, region, language and title (`path[#region][{lines lang}][ [title]]`)."""
    rest = raw.strip()
    title = ""
    m = _TITLE_RE.search(rest)
    if m:
        title, rest = m.group(1), rest[: m.start()].rstrip()
    lang = ""
    brace = rest.rfind("{")
    if rest.endswith("}") and brace > 0:
        words = rest[brace + 1 : -1].split()
        rest = rest[:brace].rstrip()
        if words and _LINES_RE.match(words[0].replace(" ", "")):
            words = words[1:]
        lang = words[0] if words else ""
    region = ""
    m = _SNIPPET_REGION_RE.search(rest)
    if m:
        region, rest = m.group(1), rest[: m.start()]
    path = rest.strip()
    name = re.split(r"[\\/]", path)[-1]
    extension = _EXTENSION_RE.search(name)
    return path, region, lang or (extension.group(1) if extension else ""), title or name


def snippet_block(raw: str, page: Path, src_dir: Path, confine: Path) -> list[str] | None:
    """The code block a `<<<` line stands for (fence lines included), or None: no such file."""
    path, region, lang, title = _snippet_spec(raw)
    if not path:
        return None
    if path.startswith("@"):
        file = src_dir / path[2 if path[1:2] in ("/", "\\") else 1 :]
    else:
        file = page.parent / path
    content = _read(Path(os.path.normpath(file)), confine)
    if content is None:
        return None
    lines = content.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    if region:
        regions = find_regions(lines, region)
        if regions:
            styles = {r.style for r in regions}
            lines = [line for r in regions for line in lines[r.start : r.end]]
            lines = dedent(strip_region_markers(lines, styles))
    ticks = max((len(t) for t in re.findall(r"`{3,}", content)), default=2) + 1
    fence = "`" * max(3, ticks)
    info = f"{lang} [{title}]".strip()
    return [fence + info, *lines, fence]


def resolve_snippet_imports(text: str, page: Path, src_dir: Path, confine: Path) -> str:
    """Each `<<< file` line outside code replaced by the file's code block (kept indentation).

    A file that cannot be read leaves nothing: VitePress stops the build over it.
    """
    if "<<<" not in text:
        return text
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        m = _FENCE_RE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = ""
            out.append(line)
            continue
        if m:
            fence = m.group(1)
            out.append(line)
            continue
        s = _SNIPPET_LINE_RE.match(line)
        if s is None:
            out.append(line)
            continue
        block = snippet_block(s.group(2), page, src_dir, confine)
        indent = s.group(1)
        out += [indent + b if b else b for b in block or []]
    return "\n".join(out)
