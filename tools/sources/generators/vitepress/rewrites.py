"""VitePress `rewrites`: a page's source path to the path it is served as (path-to-regexp 6).

`'en/:rest*': ':rest*'` serves `en/guide/x.md` as `guide/x.md`; `'packages/:pkg/src/(.*)':
':pkg/index.md'` moves a package's README. VitePress matches each page's path (relative to
`srcDir`) against the rules in order with path-to-regexp 6's `match` and builds the new path
with its `compile`; the first rule that matches wins. This is that library's grammar, the part
rewrites use: literal text, named parameters `:name` with an optional custom pattern `(…)` and
a modifier (`?` optional, `*` zero or more, `+` one or more, repeats split at their `/`), and
unnamed groups `(…)`. Matching is case-insensitive and a trailing `/` is allowed, as by default.
A `from` starting with `^` is a regular expression; its groups are parameters `0`, `1`, ….
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DEFAULT_PATTERN = "[^/#?]+?"
_NAME_CHARS = re.compile(r"[A-Za-z0-9_]")


@dataclass(frozen=True)
class _Token:
    """A parameter of a pattern: name (a number for an unnamed group), prefix, pattern, modifier."""

    name: str
    prefix: str
    pattern: str
    modifier: str


def _group(text: str, i: int) -> tuple[str, int]:
    """The pattern of the `(…)` group opening at `i`, and the index after it."""
    depth, j = 1, i + 1
    while j < len(text) and depth:
        if text[j] == "\\":
            j += 2
            continue
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        j += 1
    return text[i + 1 : j - 1], j


def _tokens(path: str) -> list[str | _Token]:
    """The pattern as literal strings and parameters (path-to-regexp 6 `parse`, its defaults)."""
    out: list[str | _Token] = []
    literal = ""
    unnamed = 0
    i = 0
    while i < len(path):
        c = path[i]
        if c == "\\" and i + 1 < len(path):
            literal += path[i + 1]
            i += 2
            continue
        if c == ":" or c == "(":
            name = ""
            if c == ":":
                j = i + 1
                while j < len(path) and _NAME_CHARS.match(path[j]):
                    j += 1
                name, i = path[i + 1 : j], j
            pattern = ""
            if i < len(path) and path[i] == "(":
                pattern, i = _group(path, i)
            if not name:
                name, unnamed = str(unnamed), unnamed + 1
            modifier = path[i] if i < len(path) and path[i] in "?*+" else ""
            i += len(modifier)
            prefix = ""
            if literal and literal[-1] in "./":
                prefix, literal = literal[-1], literal[:-1]
            if literal:
                out.append(literal)
                literal = ""
            out.append(_Token(name, prefix, pattern or _DEFAULT_PATTERN, modifier))
            continue
        literal += c
        i += 1
    if literal:
        out.append(literal)
    return out


@dataclass(frozen=True)
class Rewrite:
    """One `from: to` rule: its regular expression, parameter names, and the target's tokens."""

    regex: re.Pattern[str]
    names: tuple[str, ...]
    repeated: frozenset[str]
    target: tuple[str | _Token, ...]

    @classmethod
    def of(cls, source: str, target: str) -> Rewrite:
        """The rule as VitePress compiles it (`match(from)`, `compile('/' + to)`)."""
        if source.startswith("^"):
            regex = re.compile(source)
            names = tuple(str(n) for n in range(regex.groups))
            return cls(regex, names, frozenset(), tuple(_tokens("/" + target)))
        parts: list[str] = []
        names_list: list[str] = []
        repeated: set[str] = set()
        for token in _tokens(source):
            if isinstance(token, str):
                parts.append(re.escape(token))
                continue
            prefix = re.escape(token.prefix)
            names_list.append(token.name)
            if token.modifier in ("*", "+"):
                repeated.add(token.name)
                body = f"((?:{token.pattern})(?:{prefix}(?:{token.pattern}))*)"
                part = f"(?:{prefix}{body})" + ("?" if token.modifier == "*" else "")
            else:
                part = f"(?:{prefix}({token.pattern}))" + ("?" if token.modifier == "?" else "")
            parts.append(part)
        regex = re.compile("^" + "".join(parts) + "[/#?]?$", re.I)
        return cls(regex, tuple(names_list), frozenset(repeated), tuple(_tokens("/" + target)))

    def apply(self, page: str) -> str | None:
        """The page's new path when the rule matches it, else None."""
        m = self.regex.match(page)
        if m is None:
            return None
        params: dict[str, str | list[str] | None] = {}
        for name, value in zip(self.names, m.groups(), strict=False):
            if value is not None and name in self.repeated:
                params[name] = value.split("/")
            else:
                params[name] = value
        out = ""
        for token in self.target:
            if isinstance(token, str):
                out += token
                continue
            value = params.get(token.name)
            if value is None or value == []:
                continue  # an optional parameter left out (`validate: false` writes nothing)
            values = value if isinstance(value, list) else [value]
            out += "".join(token.prefix + v for v in values)
        return out[1:] if out.startswith("/") else out


def rewritten(page: str, rules: tuple[Rewrite, ...]) -> str:
    """The path VitePress serves a page's source path as (the first rule that matches)."""
    for rule in rules:
        target = rule.apply(page)
        if target is not None:
            return target
    return page
