"""Every variable the code reads is documented, and every documented variable is read.

The proof has three parts. (1) Only settings/ reads the environment: no other module of the
package touches `os.environ` or `os.getenv` (but for the few that pass the whole environment on
to a child process, named below). (2) The names settings/ reads are collected by reading every
section through a recording environment (`Reader.names_read`), plus every variable name spelled
out in settings/ as a whole string (so a read that only happens on some path is counted too),
plus the client examples', which read their own two names. (3) Those names, `DOCS_AGENT_*` and
`AUTH_*`, are exactly the ones `.env.example` lists and exactly the ones docs/configuration.md
lists (issue 31 item 10: the configuration page names every variable the code reads).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from settings import SECTIONS, Settings

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ("settings", "tools", "graphs", "server", "commands")
NAME_RE = re.compile(r"\b(?:DOCS_AGENT|AUTH)_[A-Z0-9_]*[A-Z0-9]\b")
# Modules outside settings/ that touch `os.environ`, and why: they hand the whole environment to
# settings/ with an engine's precedence, or on to a child process; they read no variable of their own.
PASS_ENVIRONMENT_ON = {
    "tools/search/workers.py": "the index's parse workers get this process's environment",
    "commands/local_stack.py": "settings as Aegra reads them; Aegra's process gets them too",
    "commands/check_auth.py": "settings as the engine named on the command line reads them",
}
# Names in the text of the docs that are not variables of ours: the misspellings the auth check
# refuses (docs/auth.md shows them), shown in .env.example's comment the same way.
NOT_VARIABLES = {"DOCS_AGENT_AUTH_TOKENS"}


class RecordingEnv(dict[str, str]):
    """An environment with nothing set (as `langgraph dev` runs) that notes every name asked for."""

    def __init__(self) -> None:
        super().__init__(LANGGRAPH_RUNTIME_EDITION="inmem")  # dev mode: valid with nothing set
        self.asked: set[str] = set()

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)


def _python_files(*folders: str) -> Iterator[Path]:
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _reads_environment(path: Path) -> bool:
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                return True
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in ("environ", "getenv") for alias in node.names):
                return True
    return False


def _string_names(path: Path) -> set[str]:
    """Variable names spelled out as a whole string constant in `path`."""
    tree = ast.parse(path.read_text("utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and NAME_RE.fullmatch(node.value)
    }


def names_the_code_reads() -> set[str]:
    env = RecordingEnv()
    settings = Settings(env)
    for name in SECTIONS:
        getattr(settings, name)  # an empty environment is valid for every section
    recorded = env.asked | settings.reader.names_read
    spelled: set[str] = set()
    for path in [*_python_files("settings"), *_python_files("client_examples")]:
        spelled |= _string_names(path)
    return {n for n in recorded | spelled if NAME_RE.fullmatch(n)}


def names_in(relative: str) -> set[str]:
    return set(NAME_RE.findall((ROOT / relative).read_text("utf-8"))) - NOT_VARIABLES


def test_only_settings_reads_the_environment() -> None:
    readers = {
        str(path.relative_to(ROOT))
        for path in _python_files(*PACKAGE)
        if _reads_environment(path) and path.parts[len(ROOT.parts)] != "settings"
    }
    assert readers == set(PASS_ENVIRONMENT_ON), (
        "read the environment through settings/ (a typed section), not os.environ: "
        f"{sorted(readers - set(PASS_ENVIRONMENT_ON))}"
    )


def test_every_section_reads_something_and_an_empty_environment_is_valid() -> None:
    settings = Settings(RecordingEnv())
    assert settings.check() == []
    assert len(names_the_code_reads()) >= 80


def test_env_example_lists_every_variable_the_code_reads_and_no_other() -> None:
    code, documented = names_the_code_reads(), names_in(".env.example")
    assert sorted(code - documented) == [], "add these to .env.example"
    assert sorted(documented - code) == [], "no code reads these: remove them from .env.example"


def test_configuration_page_lists_every_variable_the_code_reads_and_no_other() -> None:
    code, documented = names_the_code_reads(), names_in("docs/configuration.md")
    assert sorted(code - documented) == [], "add these to docs/configuration.md"
    assert sorted(documented - code) == [], "no code reads these: remove them from the page"
