"""A JavaScript / TypeScript module's scope read as text: its statements, bindings, functions, imports.

What a config file names at its top level (`const siteUrl = '…'`, `function sidebar() {…}`,
`import { shared } from './shared'`) is found here, each value as written, for `JsConfig` to read.
"""

from __future__ import annotations

import re
from typing import Any

from tools.sources.jsconfig.literals import (
    CLOSE_BRACKETS,
    NOT_LITERAL,
    OPEN_BRACKETS,
    balanced_end,
    literal,
    skip,
    skip_space,
)

# `const NAME = …` (also `let`, `var`, exported, typed) and `function NAME(`.
BINDING_RE = re.compile(
    r"^[ \t]*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?![=>])",
    re.M,
)
FUNCTION_RE = re.compile(
    r"^[ \t]*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(", re.M
)
# `import x from './x'`, `import { a, b as c } from "../y.ts"`, `import x, { a } from './z'`.
_IMPORT_RE = re.compile(
    r"""^[ \t]*import\s+(?!type\b)([\w$\s{},*]+?)\s+from\s+(['"])(\.{1,2}/[^'"\n]+)\2""", re.M
)
_ALIAS_RE = re.compile(r"([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?")


def masked(text: str) -> str:
    """The text with strings, template literals and comments blanked (same length): brackets only."""
    out = list(text)
    i = 0
    while i < len(text):
        after = skip(text, i)
        if after == i:
            i += 1
            continue
        for k in range(i, after):
            if out[k] != "\n":
                out[k] = " "
        i = after
    return "".join(out)


def split_top_level(raw: str, operators: tuple[str, ...]) -> list[str]:
    """An expression cut at its top-level binary `operators` (`a || 'b'` → `a`, `'b'`)."""
    shape = masked(raw)
    parts: list[str] = []
    depth = start = i = 0
    while i < len(raw):
        c = shape[i]
        if c in OPEN_BRACKETS:
            depth += 1
        elif c in CLOSE_BRACKETS:
            depth -= 1
        elif depth == 0:
            op = next((o for o in operators if shape.startswith(o, i)), None)
            if op is not None:
                parts.append(raw[start:i].strip())
                i = start = i + len(op)
                continue
        i += 1
    parts.append(raw[start:].strip())
    return parts


# A line that ends or starts with one of these continues the statement of the line before.
_CONTINUES_BEFORE = frozenset("=|&?:+-*/,([{<>!")
_CONTINUES_AFTER = frozenset(".?:|&+-*/,)]}=>")


def statement_end(text: str, i: int) -> int:
    """Where the statement whose value starts at `i` ends: a top-level `;`, or a line end.

    JavaScript ends a statement at a line's end unless the line before ends with an operator
    or the next one starts with one (automatic semicolon insertion, as configs rely on it);
    comments count as neither. The end is after the value's last character of code.
    """
    j = i
    end = i  # after the last character of code seen
    while j < len(text):
        after = skip(text, j)
        if after != j:
            if not text.startswith(("//", "/*"), j):
                end = after  # a string, template literal or regular expression
            j = after
            continue
        c = text[j]
        if c in OPEN_BRACKETS:
            j = end = balanced_end(text, j)
            continue
        if c == ";" or c in CLOSE_BRACKETS:
            return end
        if c == "\n":
            last = text[end - 1] if end > i else ""
            following = skip_space(text, j)
            nxt = text[following] if following < len(text) else ""
            if last and last not in _CONTINUES_BEFORE and nxt not in _CONTINUES_AFTER:
                return end
        elif not c.isspace():
            end = j + 1
        j += 1
    return end


def _top_level(text: str) -> list[bool]:
    """For each position of the text, whether it is outside every bracket (module scope)."""
    out: list[bool] = []
    depth = 0
    for c in masked(text):
        out.append(depth == 0)
        if c in OPEN_BRACKETS:
            depth += 1
        elif c in CLOSE_BRACKETS:
            depth = max(0, depth - 1)
    return out


def bindings(text: str) -> dict[str, str]:
    """Every module-level binding's value as written (the first of a name wins)."""
    top = _top_level(text)
    out: dict[str, str] = {}
    for m in BINDING_RE.finditer(text):
        if m.group(1) not in out and top[m.start(1)]:
            start = skip_space(text, m.end())
            out[m.group(1)] = text[start : statement_end(text, start)].strip()
    return out


def functions(text: str) -> dict[str, str]:
    """Every module-level `function NAME(…) {…}` of the file: its body, braces included."""
    top = _top_level(text)
    out: dict[str, str] = {}
    for m in FUNCTION_RE.finditer(text):
        params_end = balanced_end(text, m.end() - 1)
        brace = text.find("{", params_end)
        if brace >= 0 and m.group(1) not in out and top[m.start(1)]:
            out[m.group(1)] = text[brace : balanced_end(text, brace)]
    return out


def literal_bindings(text: str) -> dict[str, Any]:
    """The module-level bindings of a script whose value is a literal (`const count = 3`)."""
    values = {name: literal(raw, {}) for name, raw in bindings(text).items()}
    return {name: value for name, value in values.items() if value is not NOT_LITERAL}


def imports(text: str) -> dict[str, tuple[str, str]]:
    """The names the module imports from relative modules: local name → (module, its name there).

    A default import is the module's `default`; `import * as x` and type-only imports are left
    out (neither names a value a config's literals could come from).
    """
    out: dict[str, tuple[str, str]] = {}
    for m in _IMPORT_RE.finditer(text):
        clause, spec = m.group(1).strip(), m.group(3)
        default, _, named = clause.partition("{")
        default = default.strip().rstrip(",").strip()
        if default and "*" not in default and re.fullmatch(r"[A-Za-z_$][\w$]*", default):
            out[default] = (spec, "default")
        for item in named.rstrip("}").split(","):
            alias = _ALIAS_RE.fullmatch(item.strip().removeprefix("type ").strip())
            if alias:
                out[alias.group(2) or alias.group(1)] = (spec, alias.group(1))
    return out
