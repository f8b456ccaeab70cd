"""JavaScript / TypeScript values read as text: balanced brackets, object entries, literals.

A site's config is code: running it would need Node and the site's dependencies, and would run
whatever it does. What decides URLs is almost always written as literals, so this module reads
the text: balanced `{…}` / `[…]` (strings, template literals and comments skipped), the
top-level keys of an object and their raw value text, and the value of a literal (a string,
a template literal whose `${NAME}` names a top-level `const NAME = 'literal'`, a boolean, an
array of strings, `require.resolve('…')`). Anything else is `NOT_LITERAL`: the caller falls
back to the generator's default and says which setting overrides it. An object's spread
(`...common`) of a `const common = {…}` of the same file stands for that object's keys.
"""

from __future__ import annotations

import re
from typing import Any

from tools.sources.markdown.mdx import js_unescape


class _NotLiteral:
    """A value that is computed (a call, a variable, a spread), not written as a literal."""

    def __repr__(self) -> str:
        return "NOT_LITERAL"


NOT_LITERAL: Any = _NotLiteral()
# The key under which `entries` keeps what may set keys it cannot name, as written: spreads it
# cannot follow (`...require('./x')`, `...options()`) and computed keys (`[name]: …`). No key
# of a JavaScript object literal is written `...`.
SPREAD = "..."
# How deep spreads of spreads are followed (a const spreading itself would never end).
_MAX_SPREAD_DEPTH = 8

OPEN_BRACKETS = {"{": "}", "[": "]", "(": ")"}
CLOSE_BRACKETS = frozenset("}])")
_KEY_RE = re.compile(r"""\s*(?:([A-Za-z_$][\w$]*)|(['"])((?:\\.|(?!\2).)*)\2)\s*:""")
_CONST_RE = re.compile(
    r"""^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::\s*string\s*)?=\s*(['"])((?:\\.|(?!\2)[^\\\n])*)\2\s*;?\s*$""",
    re.M,
)
# `const NAME = {`, `export const NAME: Options = ({`: a config's names for its own option objects.
_CONST_OBJECT_RE = re.compile(
    r"^[ \t]*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?![=>])",
    re.M,
)
_TEMPLATE_SUB_RE = re.compile(r"\$\{\s*([A-Za-z_$][\w$]*)\s*\}")
_REQUIRE_RESOLVE_RE = re.compile(r"""\Arequire\.resolve\(\s*(['"])((?:\\.|(?!\1).)*)\1\s*\)\Z""")
_STRING_RE = re.compile(r"""\A(['"])((?:\\.|(?!\1)[^\\])*)\1\Z""", re.S)
NAME_RE = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER_RE = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def skip(text: str, i: int) -> int:
    """The index after the string, template literal or comment at `i`; `i` when there is none."""
    c = text[i]
    if c in "'\"`":
        k = i + 1
        while k < len(text):
            if text[k] == "\\":
                k += 2
                continue
            if text[k] == c:
                return k + 1
            if c == "`" and text.startswith("${", k):
                k = balanced_end(text, k + 1)
                continue
            k += 1
        return len(text)
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    if c == "/":
        return _regex_end(text, i)
    return i


# What may stand before a regular expression literal (`(/^en\//`, `= /x/`): anything else
# before a `/` makes it a division.
_BEFORE_REGEX = frozenset("(,=:[!&|?{};+-*%<>~^")


def _regex_end(text: str, i: int) -> int:
    r"""The index after the regular expression literal at `i` (`/^en\//g`); `i` when it is none."""
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j >= 0 and text[j] not in _BEFORE_REGEX and text[j] != "\n":
        return i
    k, in_class = i + 1, False
    while k < len(text) and text[k] != "\n":
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            k += 1
            while k < len(text) and text[k].isalpha():  # flags
                k += 1
            return k
        k += 1
    return i


def code_shape(text: str) -> str:
    """The code with every comment gone and every string as `''`: what is written, not said.

    A regex over it sees the program's own tokens (`id: rule.name`, `require(`) and never one
    that a comment or a string merely mentions.
    """
    out: list[str] = []
    i = pos = 0
    while i < len(text):
        after = skip(text, i)
        if after == i:
            i += 1
            continue
        out.append(text[pos:i])
        out.append("''" if text[i] in "'\"`" else " ")
        i = pos = after
    out.append(text[pos:])
    return "".join(out)


def balanced_end(text: str, i: int) -> int:
    """The index after the bracket that closes the one at `i` (`{`, `[` or `(`)."""
    depth = 0
    j = i
    while j < len(text):
        after = skip(text, j)
        if after != j:
            j = after
            continue
        c = text[j]
        if c in OPEN_BRACKETS:
            depth += 1
        elif c in CLOSE_BRACKETS:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(text)


def skip_space(text: str, i: int) -> int:
    """The index of the next character that is neither space nor inside a comment."""
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        after = skip(text, i) if text.startswith(("//", "/*"), i) else i
        if after == i:
            return i
        i = after
    return i


def object_at(text: str, i: int) -> int | None:
    """Where the object literal starting at `i` opens, past spaces, comments and `(`; else None."""
    i = skip_space(text, i)
    while i < len(text) and text[i] == "(":  # `({ … })` with a type comment before it
        i = skip_space(text, i + 1)
    return i if i < len(text) and text[i] == "{" else None


def entries(
    text: str, start: int, objects: dict[str, str] | None = None, depth: int = 0
) -> dict[str, str]:
    """The top-level `key: value` pairs of the object literal whose `{` is at `start` (raw values).

    As in JavaScript, a later key wins over an earlier one, and a spread `...NAME` of an object
    in `objects` (`const_objects`) puts that object's keys where it stands. Other spreads and
    computed keys are kept, as written, under `SPREAD`; a shorthand property (`{ locales }`)
    is its name, as written (the binding `JsConfig.data` follows); methods are left out.
    """
    end = balanced_end(text, start) - 1
    out: dict[str, str] = {}
    i = start + 1
    while i < end:
        i = skip_space(text, i)
        m = _KEY_RE.match(text, i)
        if m and m.end() <= end:
            key = m.group(1) or js_unescape(m.group(3))
            j = value_start = m.end()
        else:
            key, j = "", i
            value_start = i
        j = value_end(text, j, end)
        raw = text[value_start:j].strip()
        if key:
            out[key] = raw
        elif NAME_RE.fullmatch(raw):
            out[raw] = raw  # a shorthand property (`{ locales }`): the binding of that name
        elif raw.startswith(("...", "[")):
            spread = object_entries(raw[3:], objects, depth + 1) if raw[0] == "." else None
            for k, v in (spread if spread is not None else {SPREAD: raw}).items():
                unread = out.get(k) if k == SPREAD else None  # every unread spread is said
                out[k] = f"{unread}, {v}" if unread else v
        i = j + 1
    return out


def object_entries(
    raw: str, objects: dict[str, str] | None = None, depth: int = 0
) -> dict[str, str] | None:
    """The entries of a value that is an object literal or the name of one in `objects`; else None."""
    objects = objects or {}
    if depth > _MAX_SPREAD_DEPTH:
        return None
    raw = raw.strip()
    named = objects.get(raw) if re.fullmatch(r"[A-Za-z_$][\w$]*", raw) else None
    if named is not None:
        return entries(named, 0, objects, depth + 1)
    start = object_at(raw, 0)
    return entries(raw, start, objects, depth) if start is not None else None


def const_objects(text: str) -> dict[str, str]:
    """`const NAME = {…}` of the file, by name (the object's text): what `...NAME` spreads.

    The first one of a name wins (a config writes each once; a later one is in a function).
    """
    out: dict[str, str] = {}
    for m in _CONST_OBJECT_RE.finditer(text):
        start = object_at(text, m.end())
        if start is not None and m.group(1) not in out:
            out[m.group(1)] = text[start : balanced_end(text, start)]
    return out


def value_end(text: str, i: int, end: int | None = None) -> int:
    """Where the value starting at `i` ends: the next top-level `,` or closing bracket."""
    end = len(text) if end is None else end
    j = i
    while j < end:
        after = skip(text, j)
        if after != j:
            j = after
            continue
        c = text[j]
        if c in OPEN_BRACKETS:
            j = balanced_end(text, j)
            continue
        if c == "," or c in CLOSE_BRACKETS:
            break
        j += 1
    return min(j, end)


def top_level_consts(text: str) -> dict[str, str]:
    """`const NAME = 'literal'` lines of the file (a config's names for its own strings)."""
    return {m.group(1): js_unescape(m.group(3)) for m in _CONST_RE.finditer(text)}


def literal(raw: str, consts: dict[str, str] | None = None) -> Any:
    """The value of a raw value text when it is a literal, else `NOT_LITERAL`.

    Strings, template literals (each `${NAME}` a known const), `true` / `false`, numbers,
    arrays of those, `require.resolve('x')` (its path), a bare name of a known const, and `undefined` /
    `null` (None: unset).
    """
    consts = consts or {}
    raw = re.sub(r"\s+(?:as|satisfies)\s+[\w.<>\[\] |]+\Z", "", raw.strip())
    if raw in ("true", "false"):
        return raw == "true"
    if raw in ("undefined", "null"):
        return None  # the option left unset
    m = _STRING_RE.match(raw)
    if m:
        return js_unescape(m.group(2))
    if len(raw) >= 2 and raw[0] == raw[-1] == "`" and skip(raw, 0) == len(raw):
        body = raw[1:-1]
        names = _TEMPLATE_SUB_RE.findall(body)
        if "${" in _TEMPLATE_SUB_RE.sub("", body) or any(n not in consts for n in names):
            return NOT_LITERAL
        return js_unescape(_TEMPLATE_SUB_RE.sub(lambda n: consts[n.group(1)], body))
    m = _REQUIRE_RESOLVE_RE.match(raw)
    if m:
        return js_unescape(m.group(2))
    if _NUMBER_RE.fullmatch(raw):
        number = float(raw)
        return int(number) if number.is_integer() and "." not in raw else number
    if raw in consts:
        return consts[raw]
    if raw.startswith("[") and balanced_end(raw, 0) == len(raw):
        items: list[Any] = []
        inner = "{" + raw[1:-1] + "}"
        # An array's items are read as the values of an object without keys.
        for value in array_items(inner):
            item = literal(value, consts)
            if item is NOT_LITERAL:
                return NOT_LITERAL
            items.append(item)
        return items
    return NOT_LITERAL


def array_items(wrapped: str) -> list[str]:
    """The raw items of `{a, b}` (an array's inside, wrapped), split at top-level commas."""
    items: list[str] = []
    j, end = 1, len(wrapped) - 1
    while j < end:
        k = value_end(wrapped, j, end)
        items.append(wrapped[j:k])
        j = k + 1
    return [i.strip() for i in items if i.strip()]
