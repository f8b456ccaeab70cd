"""Which Sphinx builder a site is built with, from the files that run the build (never conf.py).

Read the Docs' `.readthedocs.yaml`, else the project's tox envs and Sphinx Makefile / make.bat:
`dirhtml` gives `X/` URLs, `html` gives `X.html`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from tools.sources.reading import repository_root
from tools.sources.yaml_config import read_yaml

log = logging.getLogger(__name__)


_RTD_FILES = (".readthedocs.yaml", ".readthedocs.yml")
# `sphinx-build …` / `python -m sphinx …` (or `sphinx.cmd.build`) in a build command, with
# the `cd DIR &&` before it; `make [-C DIR] TARGET` of a Sphinx Makefile.
_SPHINX_BUILD_RE = re.compile(
    r"(?:\bcd\s+(?P<cd>[^\s;&|]+)\s*&&\s*)?"
    r"(?:\bsphinx-build\b|-m\s+sphinx(?:\.cmd\.build)?(?=\s|$))(?P<args>[^;&|\n]*)"
)
_MAKE_RE = re.compile(r"(?:\bcd\s+(?P<cd>[^\s;&|]+)\s*&&\s*)?\bmake(?:\.bat)?\b(?P<args>[^;&|\n]*)")
# sphinx-build's options that take a value (the rest of its arguments are flags or paths).
_SPHINX_VALUE_OPTIONS = frozenset(
    "-c -d -D -A -t -j -w --doctree-dir --conf-dir --define --html-define --tag --jobs "
    "--warning-file".split()
)
# The builders whose output is the site's pages (`singlehtml` is one page: read as `html`).
_PAGE_BUILDERS = frozenset({"html", "dirhtml"})


def read_the_docs(folder: Path) -> tuple[Path, dict[str, Any]] | None:
    """(repository root, settings) of the Read the Docs file of the repository holding `folder`."""
    repo = repository_root(folder)
    for name in _RTD_FILES:
        path = repo / name
        if path.is_file():
            try:
                return repo, read_yaml(path)
            except (OSError, yaml.YAMLError) as exc:
                log.warning("%s: cannot read (%s)", path, exc)
                return None
    return None


def rtd_sphinx_conf(root: Path) -> Path | None:
    """The conf.py Read the Docs builds with (`sphinx: configuration:`), when it is this folder's."""
    found = read_the_docs(root)
    if found is None:
        return None
    repo, data = found
    sphinx = data.get("sphinx")
    named = sphinx.get("configuration") if isinstance(sphinx, dict) else None
    if not isinstance(named, str) or not named.strip():
        return None
    conf = (repo / named.strip()).resolve()
    if conf.is_file() and (conf.is_relative_to(root) or conf.parent == root.parent):
        return conf
    return None


def _strings_in(value: Any) -> Iterator[str]:
    """Every string of a YAML value (build commands sit in lists, `jobs` in nested mappings)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings_in(item)


def _command_builder(command: str, base: Path, source: Path) -> str | None:
    """The builder of a `sphinx-build` command line run in `base` that builds `source`.

    As sphinx-build reads its arguments: `-M BUILDER SOURCE OUT` first (make mode), or the
    last `-b` / `--builder` (a later one wins, as in make mode's options); the first path is
    the source folder. None when the line builds another folder or names no builder.
    """
    m = _SPHINX_BUILD_RE.search(command)
    if m is None:
        return None
    if m.group("cd"):
        base = base / m.group("cd").strip("'\"")
    words = [w.strip("'\"") for w in m.group("args").split()]
    builder, paths = None, []
    if words[:1] == ["-M"] and len(words) > 2:
        builder, paths, words = words[1], [words[2]], words[4:]
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-b", "--builder") and i + 1 < len(words):
            builder, i = words[i + 1], i + 2
            continue
        if word.startswith("--builder="):
            builder = word.split("=", 1)[1]
        elif word.startswith("-b") and len(word) > 2 and not word.startswith("--"):
            builder = word[2:]
        elif word in _SPHINX_VALUE_OPTIONS:
            i += 1
        elif not word.startswith("-") and not word.startswith("$"):
            paths.append(word)
        elif word.startswith("$") and not paths:
            return None  # the source folder is a variable: not known to be this one
        i += 1
    if builder is None or (paths and (base / paths[0]).resolve() != source):
        return None
    return builder


def _make_builder(command: str, base: Path, source: Path) -> str | None:
    """The builder of `make [-C DIR] TARGET` (or `make.bat TARGET`) run in `base`.

    Known when that folder's Makefile builds `source` with Sphinx (`makefile_builder`).
    """
    m = _MAKE_RE.search(command)
    if m is None:
        return None
    if m.group("cd"):
        base = base / m.group("cd").strip("'\"")
    words = m.group("args").split()
    target = "html"
    i = 0
    while i < len(words):
        if words[i] in ("-C", "--directory") and i + 1 < len(words):
            base, i = base / words[i + 1].strip("'\""), i + 2
            continue
        if not words[i].startswith("-") and "=" not in words[i]:
            target = words[i]
        i += 1
    return makefile_builder(base.resolve(), source, target)


_MAKE_VAR = re.compile(r"^(?P<name>[A-Za-z_][\w]*)\s*[:?+]?=\s*(?P<value>.*)$", re.MULTILINE)
_BAT_VAR = re.compile(r"^\s*set\s+\"?(?P<name>[A-Za-z_]\w*)=(?P<value>[^\"\n]*)", re.I | re.M)


def makefile_builder(folder: Path, source: Path, target: str = "html") -> str | None:
    """The builder `make TARGET` in `folder` runs for `source` (None: no Sphinx Makefile there).

    Sphinx's Makefile (and make.bat) runs `sphinx-build -M TARGET SOURCEDIR BUILDDIR
    $(SPHINXOPTS)`; a `-b` in SPHINXOPTS (or in a rule of the project's own) then wins, as
    sphinx-build reads a later builder over an earlier one.
    """
    for name in ("Makefile", "makefile", "make.bat"):
        path = folder / name
        try:
            text = path.read_text("utf-8", errors="replace") if path.is_file() else ""
        except OSError:
            continue
        if "sphinx" not in text.lower():
            continue
        if name == "make.bat":
            values = {m["name"]: m["value"].strip() for m in _BAT_VAR.finditer(text)}
            lines = [line.replace("%1", target) for line in text.splitlines()]
            expand = re.compile(r"%(\w+)%")
        else:
            values = {m["name"]: m["value"].strip() for m in _MAKE_VAR.finditer(text)}
            lines = _make_recipe(text, target)
            expand = re.compile(r"\$[({](\w+)[)}]")
        values.setdefault("SPHINXBUILD", "sphinx-build")
        for line in lines:
            line = line.replace("$@", target)
            builder = _command_builder(_expand(line, expand, values), folder, source)
            if builder:
                return builder
    return None


def _expand(line: str, pattern: re.Pattern[str], values: dict[str, str]) -> str:
    """A Makefile / make.bat line with its variables replaced (a few levels deep)."""
    for _ in range(4):
        line = pattern.sub(lambda v: values.get(v.group(1), ""), line)
    return line


def _make_recipe(text: str, target: str) -> list[str]:
    """The recipe lines of the Makefile rule that makes `target` (its own, else a `%:` one)."""
    rules: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("\t") and current is not None:
            current.append(line.strip().lstrip("@-"))
            continue
        head = re.match(r"^([^\s:=#][^:=]*?)\s*::?(?!=)", line)
        current = None
        if head:
            current = []
            for name in head.group(1).split():
                rules.setdefault(name, current)
    return rules.get(target) or rules.get("%") or []


def _tox_commands(repo: Path) -> Iterator[tuple[str, str, Path]]:
    """(env, command, folder it runs in) of each command of the repository's tox envs."""
    import configparser
    import tomllib

    ini = repo / "tox.ini"
    if ini.is_file():
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read(ini, encoding="utf-8")
        except (configparser.Error, OSError, UnicodeDecodeError) as exc:
            log.warning("%s: cannot read (%s)", ini, exc)
        else:
            for section in parser.sections():
                env = section.removeprefix("testenv:")
                if not section.startswith("testenv"):
                    continue
                where = parser.get(section, "changedir", fallback="") or parser.get(
                    section, "change_dir", fallback=""
                )
                folder = repo / _tox_vars(where, repo) if where else repo
                for command in parser.get(section, "commands", fallback="").splitlines():
                    yield env, _tox_vars(command, repo), folder
    for path, table in ((repo / "tox.toml", ()), (repo / "pyproject.toml", ("tool", "tox"))):
        if not path.is_file():
            continue
        try:
            data: Any = tomllib.loads(path.read_text("utf-8", errors="replace"))
        except (tomllib.TOMLDecodeError, OSError) as exc:
            log.warning("%s: cannot read (%s)", path, exc)
            continue
        for key in table:
            data = data.get(key) if isinstance(data, dict) else None
        envs = data.get("env") if isinstance(data, dict) else None
        for env, conf in (envs or {}).items() if isinstance(envs, dict) else ():
            if not isinstance(conf, dict):
                continue
            change = conf.get("change_dir") or conf.get("changedir")
            folder = repo / _tox_vars(change, repo) if isinstance(change, str) else repo
            for item in conf.get("commands") or ():
                words = item if isinstance(item, list) else [item]
                command = " ".join(str(w) for w in words if isinstance(w, str | int))
                yield str(env), _tox_vars(command, repo), folder


def _tox_vars(text: str, repo: Path) -> str:
    """The tox substitutions that name folders (`{toxinidir}`), the others left out."""
    text = text.replace("{toxinidir}", str(repo)).replace("{tox_root}", str(repo))
    return re.sub(r"\{[^{}]*\}", "", text)


def _hinted_builder(source: Path, repo: Path) -> str | None:
    """The page builder the project's own build files give `source`, without Read the Docs.

    A tox env's command that builds the folder (`sphinx-build -b dirhtml docs …`, `make -C
    docs dirhtml`; an env named for the docs first), else what `make html` of the folder's
    Sphinx Makefile / make.bat runs (its SPHINXOPTS may name `-b dirhtml`).
    """
    found: list[tuple[bool, str]] = []
    for env, command, folder in _tox_commands(repo):
        builder = _command_builder(command, folder, source) or _make_builder(
            command, folder, source
        )
        if builder in _PAGE_BUILDERS:
            found.append(("doc" not in env.lower(), builder))
    if found:
        return min(found, key=lambda f: f[0])[1]
    for folder in dict.fromkeys((source, source.parent)):
        builder = makefile_builder(folder, source)
        if builder in _PAGE_BUILDERS:
            return builder
    return None


def rtd_builder(source: Path, config: Path | None) -> str:
    """The Sphinx builder the site of the folder `source` is built with (`html` by default).

    The builder is chosen outside conf.py. With a `.readthedocs.yaml` (the site's deploy) it
    decides alone: the `-b` / `-M` of a `sphinx-build` (or `make`) line in its `build:
    commands:` / `jobs:` that builds this folder, else `sphinx: builder:` (when its
    `configuration`, if any, is this conf.py), else `html`. Without one, the project's own
    build files hint (`_hinted_builder`: tox envs, the Makefile).
    """
    found = read_the_docs(source)
    if found is None:
        hinted = _hinted_builder(source, repository_root(source))
        return hinted or "html"
    repo, data = found
    build = data.get("build")
    if isinstance(build, dict):
        for command in _strings_in([build.get("commands"), build.get("jobs")]):
            builder = _command_builder(command, repo, source) or _make_builder(
                command, repo, source
            )
            if builder in _PAGE_BUILDERS:
                return builder
    sphinx = data.get("sphinx")
    if isinstance(sphinx, dict):
        named = sphinx.get("configuration")
        if isinstance(named, str) and config is not None:
            if (repo / named.strip()).resolve() != config.resolve():
                return "html"
        builder = sphinx.get("builder")
        if isinstance(builder, str) and builder.strip():
            return builder.strip()
    return "html"
