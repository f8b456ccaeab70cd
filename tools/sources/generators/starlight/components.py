"""Starlight's asides and components rewritten to plain Markdown, as its pages show them.

- asides (`:::note[Title]` … `:::`, `<Aside type="tip" title="…">`): the title in bold, the
  type's label in the page's language when none is given (`Note`, `Hinweis`: Starlight's own
  translations of the four labels are vendored, aside_labels.json, MIT, aside_labels.LICENSE),
  then the body;
- `<LinkCard title href description />`: a link and its description; `<LinkButton href>`: a link;
- `<Code code={…} lang title />`: a code block of the code (a string, a template literal, an
  `export const`, or a file imported with `?raw`: read from the repository only);
- `<Badge text />`: its text (in a heading it adds nothing to the id, so it is left to the
  Markdown reader, which drops it); `<Tabs>`, `<TabItem label>`, `<Steps>`, `<Card title>`,
  `<CardGrid>`, `<FileTree>`, `<Icon>` are left to it too: their text and labels stay;
- Markdoc pages: `{% aside %}` as an aside, other tags' markup gone, their content kept.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from tools.sources.hidden.elements import scan_tag
from tools.sources.hidden.strip import mask_code
from tools.sources.markdown.mdx import js_unescape
from tools.sources.reading import may_include, note_read

ASIDE_KINDS = ("note", "tip", "caution", "danger")
_ASIDE_LINE_RE = re.compile(
    r"^([ \t]*):::(note|tip|caution|danger)(?![\w-])(\[[^\]\n]*\])?(.*)$", re.M
)
_TAG_RE = re.compile(r"<(/?)(Aside|LinkCard|LinkButton|Code|Badge)(?=[\s/>])")
_RAW_IMPORT_RE = re.compile(
    r"""^[ \t]*import\s+([A-Za-z_$][\w$]*)\s+from\s+(['"])([^'"\n]+)\?raw\2[ \t]*;?[ \t]*$""", re.M
)
_EXPORT_CONST_RE = re.compile(
    r"""^[ \t]*export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*(`(?:\\.|[^`\\])*`|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")\s*;?""",
    re.M | re.S,
)
_HEADING_LINE_RE = re.compile(r" {0,3}#{1,6}[ \t]")
_MARKDOC_ASIDE_RE = re.compile(r"\{%\s*aside\b([^%]*)%\}")
_MARKDOC_TAG_RE = re.compile(r"\{%\s*/?\s*[\w.-]+\b[^%]*%\}")
_ATTR_RE = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@cache
def _label_table() -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = json.loads(
        Path(__file__).with_name("aside_labels.json").read_text("utf-8")
    )
    return table


def aside_labels(lang: str) -> dict[str, str]:
    """The asides' labels Starlight shows on a page of this language (English when unknown)."""
    table = {k.lower(): v for k, v in _label_table().items()}
    lang = (lang or "en").lower()
    return table.get(lang) or table.get(lang.split("-")[0]) or table["en"]


def _attrs(tag_text: str) -> dict[str, str]:
    """A tag's attributes written as strings, a template literal or a name in braces (raw)."""
    tag = scan_tag(tag_text, 0)
    out: dict[str, str] = {}
    for name, value in tag.written:
        if value is None:
            continue
        v = value.strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
            out[name] = v[1:-1]
        elif v.startswith("{") and v.endswith("}"):
            out[name] = "{" + v[1:-1].strip() + "}"
    return out


def _expression_text(value: str, names: dict[str, str]) -> str | None:
    """A `{…}` attribute's text: a string or template literal, or a name the page binds."""
    inner = value[1:-1].strip() if value.startswith("{") else None
    if inner is None:
        return value
    if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "`'\"":
        if inner[0] == "`" and "${" in inner:
            return None
        return js_unescape(inner[1:-1])
    return names.get(inner)


def _code_block(code: str, lang: str, title: str) -> str:
    ticks = max((len(t) for t in re.findall(r"`{3,}", code)), default=2) + 1
    fence = "`" * max(3, ticks)
    head = f"**{title}**\n\n" if title else ""
    return f"\n{head}{fence}{lang}\n{code.rstrip()}\n{fence}\n"


def code_sources(body: str, page: Path, project: Path, confine: Path) -> dict[str, str]:
    """What a page's `<Code code={name}>` may name: `?raw` imports and `export const` strings."""
    names: dict[str, str] = {}
    for m in _EXPORT_CONST_RE.finditer(body):
        names[m.group(1)] = js_unescape(m.group(2)[1:-1])
    for m in _RAW_IMPORT_RE.finditer(body):
        spec = m.group(3)
        if spec.startswith("/"):
            path = project / spec.lstrip("/")
        elif spec.startswith("~/"):
            path = project / "src" / spec[2:]
        else:
            path = page.parent / spec
        try:
            real = path.resolve()
        except OSError:
            continue
        if not may_include(real, confine):
            continue
        note_read(real)
        if real.is_file():
            names[m.group(1)] = real.read_text("utf-8", errors="replace")
    return names


def rewrite_asides(body: str, labels: dict[str, str]) -> str:
    """`:::note` asides given their label as title when they have none."""
    if ":::" not in body:
        return body
    masked = mask_code(body)
    edits: list[tuple[int, int, str]] = []
    for m in _ASIDE_LINE_RE.finditer(masked):
        if not m.group(3):
            start = m.start(2) + len(m.group(2))
            edits.append((start, start, f"[{labels[m.group(2)]}]"))
    for start, end, text in reversed(edits):
        body = body[:start] + text + body[end:]
    return body


def rewrite_components(body: str, labels: dict[str, str], names: dict[str, str]) -> str:
    """Starlight's components as the Markdown the page shows (see the module docstring)."""
    if "<" not in body:
        return body
    masked = mask_code(body)
    edits: list[tuple[int, int, str]] = []
    pending_link: list[str] = []
    for m in _TAG_RE.finditer(masked):
        name, closing = m.group(2), bool(m.group(1))
        line_start = masked.rfind("\n", 0, m.start()) + 1
        if closing:
            end = masked.find(">", m.end())
            if end < 0:
                continue
            text = ""
            if name == "LinkButton" and pending_link:
                text = f"]({pending_link.pop()})"
            edits.append((m.start(), end + 1, text))
            continue
        tag = scan_tag(body, m.start())
        if not tag.closed:
            continue
        attrs = _attrs(body[m.start() : tag.end])
        replacement = _replacement(name, attrs, labels, names, tag.self_closing)
        if name == "Badge" and _HEADING_LINE_RE.match(body, line_start):
            continue  # a heading's badge: no part of its id; the Markdown reader drops the tag
        if name == "LinkButton" and not tag.self_closing:
            pending_link.append(attrs.get("href", ""))
        if replacement is not None:
            edits.append((m.start(), tag.end, replacement))
    for start, end, text in reversed(edits):
        body = body[:start] + text + body[end:]
    return body


_COMPONENT_START_RE = re.compile(r"<[A-Z][\w.]*(?=[\s/>])")


def join_multiline_tags(body: str) -> str:
    """A component's start tag written over several lines, on one line (outside code).

    The Markdown reader reads a component tag on its line (its text and `title`/`label` stay,
    the tag goes); MDX lets a tag's attributes run over lines (`<Preview` and `slot="x"` apart).
    """
    if "<" not in body:
        return body
    masked = mask_code(body)
    edits: list[tuple[int, int]] = []
    for m in _COMPONENT_START_RE.finditer(masked):
        tag = scan_tag(body, m.start())
        if tag.closed and "\n" in body[m.start() : tag.end]:
            edits.append((m.start(), tag.end))
    for start, end in reversed(edits):
        body = body[:start] + " ".join(body[start:end].split()) + body[end:]
    return body


def _replacement(
    name: str, attrs: dict[str, str], labels: dict[str, str], names: dict[str, str], closed: bool
) -> str | None:
    """What one component's start tag becomes (None: left to the Markdown reader)."""
    if name == "Aside":
        kind = attrs.get("type", "note")
        title = attrs.get("title") or labels.get(kind, "")
        return f"\n\n**{title}**\n\n" if title else "\n\n"
    if name == "LinkCard":
        title, href = attrs.get("title", ""), attrs.get("href", "")
        text = f"**[{title}]({href})**" if href else f"**{title}**"
        description = attrs.get("description", "")
        return f"\n\n{text} {description}".rstrip() + "\n\n"
    if name == "LinkButton":
        return "" if closed else "["
    if name == "Badge":
        return attrs.get("text", "")
    if name == "Code":
        code = _expression_text(attrs.get("code", ""), names)
        if code is None:
            return ""
        title = _expression_text(attrs.get("title", ""), names) or ""
        return _code_block(code, attrs.get("lang", ""), title)
    return None


def rewrite_markdoc(body: str, labels: dict[str, str]) -> str:
    """Markdoc tags: `{% aside %}` an aside with its title, other tags' markup gone."""
    if "{%" not in body:
        return body

    def aside(m: re.Match[str]) -> str:
        attrs = {a.group(1): a.group(2) or a.group(3) or "" for a in _ATTR_RE.finditer(m.group(1))}
        kind = attrs.get("type", "note")
        title = attrs.get("title") or labels.get(kind, "")
        return f"**{title}**" if title else ""

    def rewrite(text: str) -> str:
        return _MARKDOC_TAG_RE.sub("", _MARKDOC_ASIDE_RE.sub(aside, text))

    masked = mask_code(body)
    out: list[str] = []
    pos = 0
    for m in re.finditer(r"\{%.*?%\}", masked, re.S):
        out.append(body[pos : m.start()])
        out.append(rewrite(body[m.start() : m.end()]))
        pos = m.end()
    out.append(body[pos:])
    return "".join(out)
