"""One JavaScript / TypeScript config file read as text, never run: bindings, functions, values.

`JsConfig` is a config file read so: its site-level options (`top`), a value with its
fallback and a warning naming the setting that says it instead (`value`), and whole nested
structures (`data`: objects, arrays and literals, following the file's own `const`s, the
functions it calls that return a literal, and wrappers such as `defineConfig({…})`), as
generators' configs write their sidebars and locales.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.sources.jsconfig.literals import (
    CLOSE_BRACKETS,
    NAME_RE,
    NOT_LITERAL,
    OPEN_BRACKETS,
    SPREAD,
    array_items,
    balanced_end,
    const_objects,
    entries,
    literal,
    object_entries,
    skip,
    skip_space,
    top_level_consts,
    value_end,
)

log = logging.getLogger(__name__)


# `const NAME = …` (also `let`, `var`, exported, typed), `function NAME(`, and the default export.
_BINDING_RE = re.compile(
    r"^[ \t]*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?![=>])",
    re.M,
)
_FUNCTION_RE = re.compile(
    r"^[ \t]*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(", re.M
)
_DEFAULT_EXPORT_RE = re.compile(r"^[ \t]*(?:export\s+default\b|module\.exports\s*=)", re.M)
# A call's callee (`defineConfig(`, `DefaultTheme.x<T>(`) at the start of a value.
_CALL_RE = re.compile(r"\A([A-Za-z_$][\w$.]*)\s*(?:<[^()]*>)?\s*\(")
_ARROW_RE = re.compile(r"\A(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>\s*")
_TYPE_SUFFIX_RE = re.compile(r"\s+(?:as|satisfies)\s+[\w.<>\[\]{}'\" |,:]+\Z")
# How deep `JsConfig.data` follows names, calls and nesting (a name bound to itself would loop).
_MAX_DATA_DEPTH = 16


def _masked(text: str) -> str:
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
    masked = _masked(raw)
    parts: list[str] = []
    depth = start = i = 0
    while i < len(raw):
        c = masked[i]
        if c in OPEN_BRACKETS:
            depth += 1
        elif c in CLOSE_BRACKETS:
            depth -= 1
        elif depth == 0:
            op = next((o for o in operators if masked.startswith(o, i)), None)
            if op is not None:
                parts.append(raw[start:i].strip())
                i = start = i + len(op)
                continue
        i += 1
    parts.append(raw[start:].strip())
    return parts


@dataclass(frozen=True)
class JsConfig:
    """One config file read as text, never run: its bindings, functions and values.

    `consts` are its `const NAME = '…'` strings (template literals use them), `objects` its
    `const NAME = {…}` objects (what `...NAME` spreads), `bindings` the raw value of every
    top-level `const`/`let`/`var`, `functions` the body of every `function NAME(…) {…}` and
    `const NAME = (…) => …`.
    """

    path: Path
    source: str
    consts: dict[str, str]
    objects: dict[str, str] = field(default_factory=dict)
    bindings: dict[str, str] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> JsConfig:
        """The file read as text (its bindings and functions found once)."""
        source = path.read_text("utf-8", errors="replace")
        bindings = _bindings(source)
        functions = _functions(source)
        for name, raw in list(bindings.items()):
            arrow = _ARROW_RE.match(raw)
            if arrow:
                functions.setdefault(name, raw[arrow.end() :])
                del bindings[name]
        return cls(
            path, source, top_level_consts(source), const_objects(source), bindings, functions
        )

    def value(self, raw: str | None, setting: str, default: Any, env: str) -> Any:
        """A literal value; a computed one falls back to `default` with a warning naming `env`.

        A bare name is its binding's value. A computed value with a literal fallback
        (`process.env.SITE || 'https://x.dev'`) is that fallback, said in a warning too.
        """
        if raw is None:
            return default
        resolved = self.resolve(raw)
        value = literal(resolved, self.consts)
        if value is NOT_LITERAL:
            operands = split_top_level(resolved, ("||", "??"))
            fallback = literal(operands[-1], self.consts) if len(operands) > 1 else NOT_LITERAL
            if fallback is not NOT_LITERAL and (
                default is None or isinstance(fallback, type(default))
            ):
                log.info(
                    "%s: %s is computed (%s); using its fallback %r (set %s to say otherwise)",
                    self.path,
                    setting,
                    " ".join(raw.split())[:80],
                    fallback,
                    env,
                )
                return fallback
        if value is NOT_LITERAL or (not isinstance(value, type(default)) and default is not None):
            self.computed(setting, raw, default, env)
            return default
        return value

    def computed(self, setting: str, raw: str, default: Any, env: str) -> None:
        """Say that a setting is computed, what is used instead, and which setting says it."""
        log.warning(
            "%s: %s is computed (%s), not a literal; using %r. If the site says otherwise, set %s",
            self.path,
            setting,
            " ".join(raw.split())[:80],
            default,
            env,
        )

    def top(self, key: str, default: Any, env: str) -> Any:
        """A site-level option (`url`, `baseUrl`): the first `key:` whose value is a literal."""
        raws = [
            self.source[m.end() : value_end(self.source, m.end())].strip()
            for m in re.finditer(rf"(?<![\w$.]){key}\s*:", self.source)
        ]
        for raw in raws:
            value = literal(raw, self.consts)
            if value is not NOT_LITERAL:
                return value
        return self.value(raws[0], key, default, env) if raws else default

    def options(self, raw: str) -> dict[str, str] | None:
        """The entries of an options object written in place or named by a const; else None."""
        return object_entries(raw, self.objects)

    def resolve(self, raw: str, depth: int = 0) -> str:
        """A value's text, a bare name followed to its binding (`site` → `'https://x.dev'`)."""
        raw = _TYPE_SUFFIX_RE.sub("", raw.strip())
        while depth < _MAX_DATA_DEPTH and NAME_RE.fullmatch(raw) and raw in self.bindings:
            raw, depth = _TYPE_SUFFIX_RE.sub("", self.bindings[raw].strip()), depth + 1
        return raw

    def data(self, raw: str | None, depth: int = 0) -> Any:
        """A value as Python data: dicts, lists and literals, `NOT_LITERAL` where computed.

        Names are followed to their bindings and a call of the file's own function to what it
        returns (`items: sidebarGuide()`); an object's unread spreads stay under `SPREAD`.
        """
        if raw is None or depth > _MAX_DATA_DEPTH:
            return NOT_LITERAL
        raw = self.resolve(raw)
        value = literal(raw, self.consts)
        if value is not NOT_LITERAL or not raw:
            return value
        while raw.startswith("(") and balanced_end(raw, 0) == len(raw):
            raw = raw[1:-1].strip()
        if raw.startswith("{") and balanced_end(raw, 0) == len(raw):
            return {
                k: v if k == SPREAD else self.data(v, depth + 1)
                for k, v in entries(raw, 0, self.objects).items()
            }
        if raw.startswith("[") and balanced_end(raw, 0) == len(raw):
            items: list[Any] = []
            for item in array_items("{" + raw[1:-1] + "}"):
                if item.startswith("..."):
                    spread = self.data(item[3:], depth + 1)
                    items.extend(spread if isinstance(spread, list) else [NOT_LITERAL])
                else:
                    items.append(self.data(item, depth + 1))
            return items
        call = _CALL_RE.match(raw)
        if (
            call
            and call.group(1) in self.functions
            and balanced_end(raw, call.end() - 1) == len(raw)
        ):
            return self.data(self.returned(call.group(1)), depth + 1)
        return NOT_LITERAL

    def returned(self, function: str) -> str | None:
        """What the file's function returns, as written (its first top-level `return`)."""
        body = self.functions.get(function)
        if body is None:
            return None
        if not body.startswith("{"):
            return body  # an arrow function's expression
        masked = _masked(body)
        depth = 0
        for i, c in enumerate(masked):
            if c in OPEN_BRACKETS:
                depth += 1
            elif c in CLOSE_BRACKETS:
                depth -= 1
            elif depth == 1 and masked.startswith("return", i) and not masked[i - 1 : i].isalnum():
                start = skip_space(body, i + len("return"))
                return body[start : statement_end(body, start)].strip()
        return None

    def exported_entries(self) -> dict[str, str]:
        """The default export's object (`export default defineConfig({…})`): its raw entries.

        A config wraps its object in calls that return it (`defineConfig`, `extendConfig(config)`,
        `withMermaid(…)`): a call of a function the file does not define stands for its first
        argument.
        """
        m = _DEFAULT_EXPORT_RE.search(self.source)
        if m is None:
            return {}
        raw = self.source[m.end() : statement_end(self.source, m.end())].strip()
        for _ in range(_MAX_DATA_DEPTH):
            raw = self.resolve(raw)
            call = _CALL_RE.match(raw)
            if call is None or call.group(1) in self.functions:
                break
            args = array_items("{" + raw[call.end() : balanced_end(raw, call.end() - 1) - 1] + "}")
            if not args:
                break
            raw = args[0]
        return self.options(raw) or {}

    def exported(self) -> dict[str, Any]:
        """The default export's object as data (`data` of each entry)."""
        return {k: v if k == SPREAD else self.data(v) for k, v in self.exported_entries().items()}

    def call_argument(self, callee: str) -> dict[str, Any] | None:
        """The object passed to the first call of `callee` in the file (`starlight({…})`)."""
        masked = _masked(self.source)
        for m in re.finditer(rf"(?<![\w$.]){re.escape(callee)}\s*\(", masked):
            args = self.source[m.end() : balanced_end(self.source, m.end() - 1) - 1]
            items = array_items("{" + args + "}")
            value = self.data(items[0]) if items else None
            if isinstance(value, dict):
                return value
        return None


# A line that ends or starts with one of these continues the statement of the line before.
_CONTINUES_BEFORE = frozenset("=|&?:+-*/,([{<>!")
_CONTINUES_AFTER = frozenset(".?:|&+-*/,)]}=>")


def statement_end(text: str, i: int) -> int:
    """Where the statement whose value starts at `i` ends: a top-level `;`, or a line end.

    JavaScript ends a statement at a line's end unless the line before ends with an operator
    or the next one starts with one (automatic semicolon insertion, as configs rely on it).
    """
    j = i
    while j < len(text):
        after = skip(text, j)
        if after != j:
            j = after
            continue
        c = text[j]
        if c in OPEN_BRACKETS:
            j = balanced_end(text, j)
            continue
        if c == ";" or c in CLOSE_BRACKETS:
            return j
        if c == "\n":
            before = text[i:j].rstrip()
            rest = text[j:].lstrip()
            if before and before[-1] not in _CONTINUES_BEFORE and rest[:1] not in _CONTINUES_AFTER:
                return j
        j += 1
    return j


def _top_level(text: str) -> list[bool]:
    """For each position of the text, whether it is outside every bracket (module scope)."""
    masked = _masked(text)
    out: list[bool] = []
    depth = 0
    for c in masked:
        out.append(depth == 0)
        if c in OPEN_BRACKETS:
            depth += 1
        elif c in CLOSE_BRACKETS:
            depth = max(0, depth - 1)
    return out


def _bindings(text: str) -> dict[str, str]:
    """Every module-level binding's value as written (the first of a name wins)."""
    top = _top_level(text)
    out: dict[str, str] = {}
    for m in _BINDING_RE.finditer(text):
        if m.group(1) not in out and top[m.start(1)]:
            start = skip_space(text, m.end())
            out[m.group(1)] = text[start : statement_end(text, start)].strip()
    return out


def _functions(text: str) -> dict[str, str]:
    """Every module-level `function NAME(…) {…}` of the file: its body, braces included."""
    top = _top_level(text)
    out: dict[str, str] = {}
    for m in _FUNCTION_RE.finditer(text):
        params_end = balanced_end(text, m.end() - 1)
        brace = text.find("{", params_end)
        if brace >= 0 and m.group(1) not in out and top[m.start(1)]:
            out[m.group(1)] = text[brace : balanced_end(text, brace)]
    return out


def literal_bindings(text: str) -> dict[str, Any]:
    """The module-level bindings of a script whose value is a literal (`const count = 3`)."""
    values = {name: literal(raw, {}) for name, raw in _bindings(text).items()}
    return {name: value for name, value in values.items() if value is not NOT_LITERAL}
