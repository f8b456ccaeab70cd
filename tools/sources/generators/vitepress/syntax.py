"""VitePress's Markdown extensions rewritten to plain Markdown, as its pages show them.

- custom containers (`::: tip Title` … `:::`, also `info`, `warning`, `danger`, `details`): the
  title in bold (the kind's label when none is given: `TIP`, or the config's `tipLabel`), then
  the body; `::: raw` keeps its body; `::: v-pre` too, with its `{{ }}` shown as written;
- `::: code-group`: each block's label (its fence's `[label]`) in bold before its code;
- GitHub alerts (`> [!NOTE]`): the title (`NOTE`, or the text after the marker), then the body;
- `[[toc]]` goes (the page's own headings follow);
- Vue interpolation `{{ expr }}` outside code and `v-pre`: what the page renders when the page
  says it (`$frontmatter.x`, a `<script setup>` constant, a literal, arithmetic of numbers);
  anything else is computed in the browser and leaves nothing;
- emoji shortcodes (`:tada:`) are the emoji, as markdown-it-emoji renders them (its table is
  vendored: emoji.json, MIT, emoji.LICENSE); in headings they go, as from the heading's id.
"""

from __future__ import annotations

import ast
import json
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tools.sources.generators.vitepress.config import DEFAULT_LABELS
from tools.sources.generators.vitepress.slug import vitepress_slug
from tools.sources.markdown.inline import outside_code, plain_heading

_FENCE_RE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_OPEN_RE = re.compile(r"^([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)(.*)$")
_CLOSE_RE = re.compile(r"^[ \t]*(:{3,})[ \t]*$")
_ALERT_RE = re.compile(
    r"^([ \t]*)>[ \t]?\[!(TIP|NOTE|INFO|IMPORTANT|WARNING|CAUTION|DANGER)\]([^\n]*)$", re.I
)
_QUOTE_RE = re.compile(r"^([ \t]*)>[ \t]?(.*)$")
_TOC_RE = re.compile(r"^[ \t]*\[\[toc\]\][ \t]*$", re.I)
_HEADING_RE = re.compile(r"^( {0,3}#{1,6}[ \t]+)(.*?)([ \t]*)$")
_LABEL_RE = re.compile(r"\s*\[([^\]]+)\]\s*$")
_ATTRS_RE = re.compile(r"\s*\{[^}]*\}\s*$")
_INTERPOLATION_RE = re.compile(r"\{\{(.*?)\}\}", re.S)
_EMOJI_RE = re.compile(r":([\w+-]+):")
_FRONTMATTER_PATH_RE = re.compile(r"^\$frontmatter((?:\.[A-Za-z_$][\w$]*)+)(?:\.join\((.*)\))?$")
_V_PRE_OPEN_RE = re.compile(r"<([a-z][\w-]*)\b[^<>]*\bv-pre\b[^<>]*>", re.I)

_ARITHMETIC: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}


@cache
def emoji_table() -> dict[str, str]:
    """markdown-it-emoji's full table (name → emoji), read once."""
    table: dict[str, str] = json.loads(Path(__file__).with_name("emoji.json").read_text("utf-8"))
    return table


@dataclass
class PageValues:
    """What a page's `{{ }}` may name: its front matter and its `<script setup>` constants."""

    frontmatter: Mapping[str, Any] = field(default_factory=dict)
    script: Mapping[str, Any] = field(default_factory=dict)


def _js_text(value: Any) -> str:
    """A value as Vue's `{{ }}` prints it (`toDisplayString`): booleans lower case, no `.0`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ",".join(_js_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, indent=2)
    return str(value)


def _number(node: ast.AST) -> float | int | None:
    """Arithmetic of number literals, or None (nothing else is evaluated)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return None if isinstance(node.value, bool) else node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Div | ast.Mod) and not right):
            return None
        result: float | int = _ARITHMETIC[type(node.op)](left, right)
        return result
    return None


def evaluate(expression: str, values: PageValues) -> str:
    """What VitePress renders for `{{ expression }}`: a value the page says, else nothing."""
    expr = expression.strip()
    m = _FRONTMATTER_PATH_RE.match(expr)
    if m:
        value: Any = values.frontmatter
        for key in m.group(1).split(".")[1:]:
            value = value.get(key) if isinstance(value, Mapping) else None
        if m.group(2) is not None and isinstance(value, list):
            sep = m.group(2).strip()
            sep = sep[1:-1] if len(sep) >= 2 and sep[0] == sep[-1] and sep[0] in "'\"" else ","
            return sep.join(_js_text(v) for v in value)
        return _js_text(value)
    if re.fullmatch(r"[A-Za-z_$][\w$]*", expr):
        return _js_text(values.script.get(expr))
    string = re.fullmatch(r"""(['"])(.*)\1""", expr)
    if string:
        return string.group(2)
    try:
        tree = ast.parse(expr, mode="eval")
    except (SyntaxError, ValueError):
        return ""
    number = _number(tree.body)
    return _js_text(number) if number is not None else ""


@dataclass
class _Container:
    colons: int
    kind: str


def _interpolated(line: str, values: PageValues) -> str:
    """A prose line with its `{{ }}` rendered (code spans shown as written)."""
    if "{{" not in line:
        return line
    return outside_code(
        line, lambda part: _INTERPOLATION_RE.sub(lambda m: evaluate(m.group(1), values), part)
    )


def _emoji(line: str, keep: bool) -> str:
    """Emoji shortcodes as the emoji (`keep`), or gone (a heading's id never counts them)."""
    if ":" not in line:
        return line
    table = emoji_table()

    def repl(m: re.Match[str]) -> str:
        char = table.get(m.group(1))
        return m.group(0) if char is None else (char if keep else "")

    return outside_code(line, lambda part: _EMOJI_RE.sub(repl, part))


def _heading(line: str, values: PageValues) -> str:
    """A heading line: shortcodes gone; a `{{ }}` in it rendered, the id taken from it as written."""
    m = _HEADING_RE.match(line)
    if m is None:
        return line
    text = m.group(2)
    if "{{" in text and "{#" not in text:
        anchor = vitepress_slug(plain_heading(text))
        text = _interpolated(text, values) + (f" {{#{anchor}}}" if anchor else "")
    return m.group(1) + _emoji(text, keep=False) + m.group(3)


def rewrite_vitepress(body: str, labels: Mapping[str, str], values: PageValues) -> str:
    """The page's body with VitePress's extensions rewritten (see the module docstring)."""
    out: list[str] = []
    stack: list[_Container] = []
    fence = ""
    quote_alert = False
    verbatim_tags: list[str] = []  # open elements with `v-pre`: their `{{ }}` is text
    for line in body.split("\n"):
        f = _FENCE_RE.match(line)
        if fence:
            if f and f.group(2)[0] == fence[0] and len(f.group(2)) >= len(fence):
                if not f.group(3).strip():
                    fence = ""
            out.append(line)
            continue
        if quote_alert:
            q = _QUOTE_RE.match(line)
            if q is not None and line.strip():
                line = q.group(1) + q.group(2)
            else:
                quote_alert = False
        if f:
            fence = f.group(2)
            if stack and stack[-1].kind == "code-group":
                label = _LABEL_RE.search(f.group(3))
                if label:
                    out += [f"{f.group(1)}**{label.group(1).strip()}**", ""]
                    line = f.group(1) + f.group(2) + f.group(3)[: label.start()].rstrip()
            out.append(line)
            continue
        closed = _CLOSE_RE.match(line)
        if closed and stack:
            colons = len(closed.group(1))
            index = next(
                (i for i in range(len(stack) - 1, -1, -1) if stack[i].colons <= colons), -1
            )
            if index >= 0:
                del stack[index:]
                out.append("")
                continue
        opened = _OPEN_RE.match(line)
        if opened:
            indent, colons, kind = opened.group(1), len(opened.group(2)), opened.group(3).lower()
            title = _ATTRS_RE.sub("", opened.group(4)).strip()
            stack.append(_Container(colons, kind))
            if kind not in ("code-group", "raw", "v-pre"):
                title = title or labels.get(kind) or DEFAULT_LABELS.get(kind, "")
                if title:
                    out += [f"{indent}**{_emoji(title, keep=True)}**", ""]
            continue
        if _TOC_RE.match(line):
            continue
        alert = _ALERT_RE.match(line)
        if alert:
            kind = alert.group(2).lower()
            title = alert.group(3).strip() or labels.get(kind) or DEFAULT_LABELS.get(kind, "")
            out += [f"{alert.group(1)}**{title}**", ""]
            quote_alert = True
            continue
        verbatim = any(c.kind == "v-pre" for c in stack) or bool(verbatim_tags)
        for tag in _V_PRE_OPEN_RE.finditer(line):
            if f"</{tag.group(1)}>" not in line[tag.end() :]:
                verbatim_tags.append(tag.group(1))
        if verbatim_tags and f"</{verbatim_tags[-1]}>" in line:
            verbatim_tags.pop()
        if _HEADING_RE.match(line) and line.lstrip().startswith("#"):
            out.append(_heading(line, values))
            continue
        if not verbatim and not _V_PRE_OPEN_RE.search(line):
            line = _interpolated(line, values)
        out.append(_emoji(line, keep=True))
    return "\n".join(out)
