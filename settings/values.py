"""How a variable's text becomes a value: one vocabulary for every section of the settings.

Every section reads its variables through a `Reader`, so a boolean means the same thing
everywhere and a bad value is reported the same way everywhere:

- a flag is `true/false`, `1/0`, `yes/no` or `on/off` (any case, spaces around ignored); unset or
  empty keeps the default; anything else is a `SettingError` naming the variable;
- a whole number or a number that does not parse, or falls under its floor, is a `SettingError`
  naming the variable, unless the section says it keeps its default then (`lenient=True`: the
  agent's tuning numbers and the per-user limits, which were documented that way before this
  package; a lenient reader logs the bad value, naming the variable, instead of failing);
- a closed choice takes one of its values (lower-cased) or is a `SettingError` listing them.

A `Reader` also remembers every name it was asked for (`names_read`): the test that every
variable the code reads is documented (tests/unit/settings/test_variables.py) reads the sections
with an empty environment and compares that list with `.env.example` and docs/configuration.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

log = logging.getLogger("settings")

TRUE_WORDS = frozenset({"true", "1", "yes", "on"})
FALSE_WORDS = frozenset({"false", "0", "no", "off"})
FLAG_WORDS = "true/false, 1/0, yes/no or on/off"


class SettingError(ValueError):
    """A variable whose value cannot be used: the start must fail, and the message names it."""


def parse_flag(name: str, raw: str) -> bool:
    """`raw` as a boolean of the one vocabulary; SettingError naming `name` for anything else."""
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise SettingError(f"{name}={raw!r}: use {FLAG_WORDS}.")


def split_list(raw: str, sep: str = ",") -> tuple[str, ...]:
    """`a, b,,c` → ('a', 'b', 'c'): the parts of a comma-separated list, blanks dropped."""
    return tuple(part.strip() for part in raw.split(sep) if part.strip())


class Reader:
    """Typed reads of one environment mapping, every name remembered (see the module docstring)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        """Read from `env` (the process environment as the server sees it, or a test's dict)."""
        self.env = env
        self.names_read: set[str] = set()

    def raw(self, name: str) -> str | None:
        """The value as set (None when unset), unstripped: secrets are taken byte for byte."""
        self.names_read.add(name)
        return self.env.get(name)

    def text(self, name: str, default: str = "") -> str:
        """The value stripped; `default` when unset or blank."""
        return (self.raw(name) or "").strip() or default

    def flag(self, name: str, default: bool) -> bool:
        """A boolean of the one vocabulary; `default` when unset or blank."""
        raw = self.raw(name) or ""
        return parse_flag(name, raw) if raw.strip() else default

    def whole(
        self, name: str, default: int, *, minimum: int | None = None, lenient: bool = False
    ) -> int:
        """A whole number, at least `minimum`; `default` when unset or blank (see `lenient`)."""
        raw = (self.raw(name) or "").strip()
        if not raw:
            return default
        try:
            value = int(raw)
        except ValueError:
            self._bad(name, raw, default, "a whole number", minimum, lenient)
            return default
        if minimum is not None and value < minimum:
            self._bad(name, raw, default, "a whole number", minimum, lenient)
            return default
        return value

    def number(
        self, name: str, default: float, *, minimum: float | None = None, lenient: bool = False
    ) -> float:
        """A number (decimals allowed), at least `minimum`; `default` when unset or blank."""
        raw = (self.raw(name) or "").strip()
        if not raw:
            return default
        try:
            value = float(raw)
        except ValueError:
            self._bad(name, raw, default, "a number", minimum, lenient)
            return default
        if value != value or (minimum is not None and value < minimum):  # NaN, or under the floor
            self._bad(name, raw, default, "a number", minimum, lenient)
            return default
        return value

    def _bad(
        self,
        name: str,
        raw: str,
        default: float,
        kind: str,
        minimum: float | None,
        lenient: bool,
    ) -> None:
        """Log the bad value (lenient: the caller keeps the default) or raise, naming it."""
        floor = f" >= {minimum:g}" if minimum is not None else ""
        if lenient:
            log.error("%s=%r is not %s%s; using %s", name, raw, kind, floor, default)
            return
        raise SettingError(f"{name}={raw!r}: give {kind}{floor}.")

    def words(self, name: str, sep: str = ",") -> tuple[str, ...]:
        """The parts of a comma-separated list (blanks dropped)."""
        return split_list(self.raw(name) or "", sep)

    def choice(self, name: str, choices: Iterable[str], default: str | None = None) -> str:
        """One of `choices` (lower-cased); the first choice (or `default`) when unset or blank."""
        options = tuple(choices)
        value = self.text(name).lower() or (default if default is not None else options[0])
        if value not in options:
            raise SettingError(f"{name}={value!r}: use one of {', '.join(options)}")
        return value

    def names(self, prefix: str) -> dict[str, str]:
        """Every set variable whose name starts with `prefix`, as set (for checks of unknown names)."""
        found = {k: v for k, v in self.env.items() if k.startswith(prefix)}
        self.names_read.update(found)
        return found
