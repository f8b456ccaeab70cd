"""One JavaScript / TypeScript config file read as text, never run: its values as data.

`JsConfig` is a config file read so: its site-level options (`top`), a value with its fallback
and a warning naming the setting that says it instead (`value`, `setting`), and whole nested
structures (`data`: objects, arrays and literals) as generators' configs write their sidebars
and locales. `data` follows the file's own `const`s, the functions it calls that return a
literal, names and spreads imported from the config's own modules (`import { shared } from
'./shared'`, read from the repository only), wrappers such as `defineConfig({…})` and a config
exported as a function (`export default ({ mode }) => defineConfig({…})`); a computed value with
a literal fallback (`process.env.SITE || 'https://x.dev'`) is that fallback.
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
    skip_space,
    top_level_consts,
    value_end,
)
from tools.sources.jsconfig.scope import (
    bindings,
    functions,
    imports,
    masked,
    split_top_level,
    statement_end,
)
from tools.sources.reading import may_include, repository_root

log = logging.getLogger(__name__)

_DEFAULT_EXPORT_RE = re.compile(r"^[ \t]*(?:export\s+default\b|module\.exports\s*=)", re.M)
# A call's callee (`defineConfig(`, `DefaultTheme.x<T>(`) at the start of a value.
_CALL_RE = re.compile(r"\A([A-Za-z_$][\w$.]*)\s*(?:<[^()]*>)?\s*\(")
_ARROW_RE = re.compile(r"\A(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>\s*")
_FUNCTION_EXPR_RE = re.compile(r"\A(?:async\s+)?function\b[^(]*\(")
# The config helpers of Vite, VitePress, Astro…: each returns the object it is given.
_DEFINE_RE = re.compile(r"\Adefine[A-Z]\w*\Z")
_TYPE_SUFFIX_RE = re.compile(r"\s+(?:as|satisfies)\s+[\w.<>\[\]{}'\" |,:]+\Z")
# How deep `JsConfig.data` follows names, calls, modules and nesting (a name bound to itself
# would loop).
_MAX_DATA_DEPTH = 16
_MODULE_SUFFIXES = (".ts", ".mts", ".js", ".mjs", ".cts", ".cjs")
_MISSING = object()


def _body_value(raw: str) -> str | None:
    """What a function expression returns, as written (`() => ({…})`, `function () { return … }`)."""
    arrow = _ARROW_RE.match(raw)
    if arrow:
        body = raw[arrow.end() :].strip()
    elif _FUNCTION_EXPR_RE.match(raw):
        params_end = balanced_end(raw, raw.index("("))
        brace = raw.find("{", params_end)
        body = raw[brace:] if brace >= 0 else ""
    else:
        return None
    return first_return(body) if body.startswith("{") else body


def first_return(body: str) -> str | None:
    """The value of a function body's first top-level `return`, as written."""
    shape = masked(body)
    depth = 0
    for i, c in enumerate(shape):
        if c in OPEN_BRACKETS:
            depth += 1
        elif c in CLOSE_BRACKETS:
            depth -= 1
        elif depth == 1 and shape.startswith("return", i) and not shape[i - 1 : i].isalnum():
            start = skip_space(body, i + len("return"))
            return body[start : statement_end(body, start)].strip()
    return None


@dataclass(frozen=True)
class JsConfig:
    """One config file read as text, never run: its bindings, functions, imports and values.

    `consts` are its `const NAME = '…'` strings (template literals use them), `objects` its
    `const NAME = {…}` objects (what `...NAME` spreads), `bindings` the raw value of every
    top-level `const`/`let`/`var`, `functions` the body of every `function NAME(…) {…}` and
    `const NAME = (…) => …`, `imported` the names it imports from relative modules.
    """

    path: Path
    source: str
    consts: dict[str, str]
    objects: dict[str, str] = field(default_factory=dict)
    bindings: dict[str, str] = field(default_factory=dict)
    functions: dict[str, str] = field(default_factory=dict)
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Modules read for imports, by path (None: not readable): each is read once.
    _modules: dict[str, JsConfig | None] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def read(cls, path: Path) -> JsConfig:
        """The file read as text (its bindings, functions and imports found once)."""
        source = path.read_text("utf-8", errors="replace")
        names = bindings(source)
        bodies = functions(source)
        for name, raw in list(names.items()):
            arrow = _ARROW_RE.match(raw)
            if arrow:
                bodies.setdefault(name, raw[arrow.end() :])
                del names[name]
        return cls(
            path,
            source,
            top_level_consts(source),
            const_objects(source),
            names,
            bodies,
            imports(source),
        )

    # -- single values, with what is used when they are computed -----------------------------

    def value(self, raw: str | None, setting: str, default: Any, env: str) -> Any:
        """A literal value; a computed one falls back to `default` with a warning naming `env`.

        A bare name is its binding's value. A computed value with a literal fallback
        (`process.env.SITE || 'https://x.dev'`) is that fallback, said at info level.
        """
        if raw is None:
            return default
        value = self.data(raw)
        if value is NOT_LITERAL or (not isinstance(value, type(default)) and default is not None):
            self.computed(setting, raw, default, env)
            return default
        return value

    def setting(self, values: dict[str, Any], key: str, default: Any, env: str) -> Any:
        """An option of an object read with `data`: its value, or `default` with a warning."""
        value = values.get(key, _MISSING)
        if value is _MISSING or value is None:
            return default
        if value is NOT_LITERAL or (default is not None and not isinstance(value, type(default))):
            self.computed(key, "a value only running the config tells", default, env)
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

    # -- whole structures ----------------------------------------------------------------------

    def data(self, raw: str | None, depth: int = 0) -> Any:
        """A value as Python data: dicts, lists and literals, `NOT_LITERAL` where computed.

        Names are followed to their bindings (in this file or a module it imports), a call of
        a function of the config to what it returns (`items: sidebarGuide()`); an object's
        spreads of other objects put their keys under its own; a computed value with a literal
        fallback is the fallback.
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
            return self._object(raw, depth)
        if raw.startswith("[") and balanced_end(raw, 0) == len(raw):
            items: list[Any] = []
            for item in array_items("{" + raw[1:-1] + "}"):
                if item.startswith("..."):
                    spread = self.data(item[3:], depth + 1)
                    items.extend(spread if isinstance(spread, list) else [NOT_LITERAL])
                else:
                    items.append(self.data(item, depth + 1))
            return items
        if NAME_RE.fullmatch(raw) and raw in self.imported:
            found = self._import(raw)
            return found[0].data(found[1], depth + 1) if found else NOT_LITERAL
        call = _CALL_RE.match(raw)
        if call and balanced_end(raw, call.end() - 1) == len(raw):
            found = self._function(call.group(1))
            if found is not None:
                return found[0].data(found[0].returned(found[1]), depth + 1)
            if _DEFINE_RE.match(call.group(1)):  # `defineConfig({…})` returns its argument
                args = array_items("{" + raw[call.end() : -1] + "}")
                return self.data(args[0], depth + 1) if args else NOT_LITERAL
        operands = split_top_level(raw, ("||", "??"))
        if len(operands) > 1:
            fallback = literal(operands[-1], self.consts)
            if fallback is not NOT_LITERAL:
                log.info("%s: %s is computed; its fallback %r is used", self.path, raw, fallback)
                return fallback
        return NOT_LITERAL

    def _object(self, raw: str, depth: int) -> dict[str, Any]:
        """An object literal as data: the keys its spreads bring first, its own over them."""
        found = entries(raw, 0, self.objects)
        out: dict[str, Any] = {}
        unread: list[str] = []
        for part in split_top_level(found.get(SPREAD, ""), (",",)):
            spread = self.data(part[3:], depth + 1) if part.startswith("...") else NOT_LITERAL
            if isinstance(spread, dict):
                out.update(spread)
            elif part:
                unread.append(part)
        for key, value in found.items():
            if key != SPREAD:
                out[key] = self.data(value, depth + 1)
        if unread:
            out[SPREAD] = ", ".join(unread)
        return out

    def returned(self, function: str) -> str | None:
        """What the file's function returns, as written (its first top-level `return`)."""
        body = self.functions.get(function)
        if body is None:
            return None
        return first_return(body) if body.startswith("{") else body

    def _function(self, name: str) -> tuple[JsConfig, str] | None:
        """The config (this file or an imported module) defining a function, and its name there."""
        if name in self.functions:
            return self, name
        if name in self.imported:
            module = self._module(self.imported[name][0])
            there = self.imported[name][1]
            if module is not None and there in module.functions:
                return module, there
        return None

    def _import(self, name: str) -> tuple[JsConfig, str] | None:
        """The module an imported name comes from, and the value's text there."""
        spec, there = self.imported[name]
        module = self._module(spec)
        if module is None:
            return None
        if there == "default":
            text = module.default_export()
            return (module, text) if text is not None else None
        if there in module.bindings:
            return module, module.bindings[there]
        return None

    def _module(self, spec: str) -> JsConfig | None:
        """A module the config imports (`./shared`, `../en.ts`), read from its repository only."""
        if spec in self._modules:
            return self._modules[spec]
        base = self.path.parent / spec
        candidates = [base] if base.suffix in _MODULE_SUFFIXES else []
        candidates += [base.with_name(base.name + s) for s in _MODULE_SUFFIXES]
        candidates += [base / f"index{s}" for s in _MODULE_SUFFIXES]
        here = self.path.parent.resolve()
        confine = repository_root(here)
        # The config's own dot folder (`.vitepress/`) holds its modules; no other dot folder.
        own = tuple(p for p in (here, *here.parents) if p.name.startswith(".") and p != confine)
        module: JsConfig | None = None
        for path in candidates:
            real = path.resolve()
            if real.is_file() and may_include(real, confine, own):
                try:
                    module = JsConfig.read(real)
                except OSError:
                    module = None
                break
        self._modules[spec] = module
        return module

    def default_export(self) -> str | None:
        """The default export's value as written, the calls that wrap the config unwrapped.

        A config wraps its object in calls that return it (`defineConfig`, `extendConfig(config)`,
        `withMermaid(…)`), or exports a function that returns it: a call of a function the
        config does not define stands for its first argument.
        """
        m = _DEFAULT_EXPORT_RE.search(self.source)
        if m is None:
            return None
        raw = self.source[m.end() : statement_end(self.source, m.end())].strip()
        for _ in range(_MAX_DATA_DEPTH):
            raw = self.resolve(raw)
            body = _body_value(raw)
            if body is not None:
                raw = body
                continue
            call = _CALL_RE.match(raw)
            if call is None or self._function(call.group(1)) is not None:
                break
            args = array_items("{" + raw[call.end() : balanced_end(raw, call.end() - 1) - 1] + "}")
            if not args:
                break
            raw = args[0]
        return raw

    def exported_entries(self) -> dict[str, str]:
        """The default export's object: its raw entries (as written in this file)."""
        raw = self.default_export()
        return (self.options(raw) or {}) if raw is not None else {}

    def exported(self) -> dict[str, Any]:
        """The default export's object as data (its spreads and imports followed)."""
        raw = self.default_export()
        value = self.data(raw) if raw is not None else {}
        return value if isinstance(value, dict) else {}

    def call_argument(self, callee: str) -> dict[str, Any] | None:
        """The object passed to the first call of `callee` in the file (`starlight({…})`)."""
        shape = masked(self.source)
        for m in re.finditer(rf"(?<![\w$.]){re.escape(callee)}\s*\(", shape):
            args = self.source[m.end() : balanced_end(self.source, m.end() - 1) - 1]
            items = array_items("{" + args + "}")
            value = self.data(items[0]) if items else None
            if isinstance(value, dict):
                return value
        return None
