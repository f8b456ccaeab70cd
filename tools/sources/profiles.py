"""Site profiles per generator, detected from the docs folder and overridable in settings.

The generator is recognised by its configuration file, in the docs folder or the folder above
it (where MkDocs keeps `mkdocs.yml` beside `docs/`), or for Docusaurus in a site folder beside
it whose docs `path` names it: `mkdocs.yml` → MkDocs, `conf.py` → Sphinx,
`docusaurus.config.*` → Docusaurus, `docs.json` / `mint.json` → Mintlify; none →
plain Markdown with the configured URL rule. Each profile reads what decides URLs and pages
from that file (MkDocs `site_url`, `use_directory_urls`, `nav` (with literate-nav folders),
`docs_dir`, snippet and include-extension `base_path`, toc `slugify`, excluded files, the
Markdown extensions that change how a page reads, all merged over an `INHERIT`ed file;
Docusaurus `url`/`baseUrl`/`trailingSlash`;
Mintlify's `navigation`); any value set in `SiteOptions` wins over what the file says.
A Sphinx profile comes from its own module when installed (`PROFILES["sphinx"]`).
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from tools.sources import jsconfig
from tools.sources.html_site import BUILT_SITE_NOT_PAGES
from tools.sources.site import (
    PART_FOLDERS,
    MarkdownSyntax,
    Site,
    repository_root,
    strip_number_prefix,
)

log = logging.getLogger(__name__)

GENERATORS = ("mkdocs", "sphinx", "docusaurus", "mintlify", "html", "markdown")
# MkDocs plugins that build `.ipynb` files as pages (tools/sources/notebook.py reads them).
NOTEBOOK_PLUGINS = ("mkdocs-jupyter", "mknotebooks")


@dataclass(frozen=True)
class SiteOptions:
    """What settings say about the site; empty / `auto` values leave the profile's own."""

    generator: str = "auto"
    base_url: str = ""
    strip_prefixes: tuple[str, ...] = ()
    path_prefix: str = ""
    url_style: str = "auto"
    slug: str = "auto"
    nav: str = "auto"  # `auto` (the site's navigation when it has one) or `off`
    # `auto`: notebooks are pages where the site builds them (`NOTEBOOK_PLUGINS`, nbsphinx,
    # myst-nb); `on`: wherever the site's page rules admit them; `off`: never.
    notebooks: str = "auto"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


# -- detection -------------------------------------------------------------------------------


def _config_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(generator, config file) candidates: the folder itself first, then the one above it.

    A conf.py that the repository's Read the Docs file names (`sphinx: configuration:`) comes
    first when it lies in the folder (at any depth, `docs/html/conf.py`) or the one above it:
    that is the configuration the site is built with.
    """
    named = _rtd_sphinx_conf(root)
    if named is not None:
        yield "sphinx", named
    for folder in (root, root.parent):
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            if (folder / name).is_file():
                yield "mkdocs", folder / name
        for conf in (folder / "conf.py", folder / "source" / "conf.py"):
            if conf.is_file():
                yield "sphinx", conf
        for conf in sorted(folder.glob("docusaurus.config.*")):
            yield "docusaurus", conf
        for name in ("docs.json", "mint.json"):
            if (folder / name).is_file():
                yield "mintlify", folder / name
    yield from (("docusaurus", conf) for conf in _sibling_docusaurus(root))
    # A released version of Docusaurus docs: `<site>/versioned_docs/version-X`.
    if root.name.startswith("version-") and root.parent.name.endswith("versioned_docs"):
        for conf in sorted(root.parent.parent.glob("docusaurus.config.*")):
            yield "docusaurus", conf


# -- Read the Docs ---------------------------------------------------------------------------

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


def _rtd_sphinx_conf(root: Path) -> Path | None:
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


# The docs plugin's `path` option (Docusaurus: the docs folder, relative to the site's folder).
_DOCS_PATH_RE = re.compile(r"\bpath\s*:\s*(['\"`])([^'\"`]+)\1")


# How far up from the docs folder, and how deep below each folder on the way, a Docusaurus
# site that reads them may lie (`website/` beside `docs/`, `packages/website/` of a monorepo).
_DOCUSAURUS_UP = 3
_DOCUSAURUS_DOWN = ("*/docusaurus.config.*", "*/*/docusaurus.config.*")


def _sibling_docusaurus(root: Path) -> Iterator[Path]:
    """A Docusaurus config elsewhere in the repository whose docs plugin `path` names this folder.

    Docusaurus reads its docs from `path` relative to the site's folder, so a repository may keep
    the docs at its top (`docs/`) and the site beside them (`website/`, `path: '../docs'`) or
    deeper (`packages/website/`, `path: '../../docs'`). The nearest folders are looked at first,
    up to the repository's top (its `.git`), and no further than `_DOCUSAURUS_UP` levels.
    """
    seen: set[Path] = set()
    folder = root
    for _ in range(_DOCUSAURUS_UP):
        if folder.parent == folder:
            break
        folder = folder.parent
        for pattern in _DOCUSAURUS_DOWN:
            for conf in sorted(folder.glob(pattern)):
                if conf in seen or "node_modules" in conf.parts or not conf.is_file():
                    continue
                seen.add(conf)
                if _docs_path_names(conf, root):
                    yield conf
        if (folder / ".git").exists():
            break  # the repository's top: a site outside it does not build these docs


def _docs_path_names(conf: Path, root: Path) -> bool:
    """Whether a `path:` of the config, relative to its folder, is the docs folder."""
    try:
        text = conf.read_text("utf-8", errors="replace")
    except OSError:
        return False
    return any((conf.parent / m.group(2)).resolve() == root for m in _DOCS_PATH_RE.finditer(text))


def detect_generator(root: Path) -> tuple[str, Path | None]:
    """The generator the folder is built with and its configuration file (`markdown`, None: none)."""
    for generator, path in _config_files(root):
        return generator, path
    if any(root.glob("*.html")) and not any(root.rglob("*.md")):
        return "html", None
    return "markdown", None


def detect_site(root: Path, options: SiteOptions | None = None) -> Site:
    """The site profile of a docs folder: detected generator, its config, then the settings' overrides."""
    options = options or SiteOptions()
    root = root.resolve()
    generator, config = detect_generator(root)
    if options.generator not in ("", "auto"):
        generator = options.generator
        config = next((p for g, p in _config_files(root) if g == generator), None)
    build = PROFILES.get(generator)
    try:
        if build is None:
            log.warning(
                "no site profile for %r installed: %s read with the defaults", generator, root
            )
            site = Site(generator=generator, config=str(config or ""))
        else:
            site = build(root, config)
    except Exception as exc:  # noqa: BLE001 — a broken config must not stop the source
        log.warning("could not read %s (%s); using the %s defaults", config, exc, generator)
        site = Site(generator=generator, config=str(config or ""))
    return apply_options(site, options)


def apply_options(site: Site, options: SiteOptions) -> Site:
    """The profile with every value the settings set put over it."""
    changes: dict[str, Any] = {}
    if options.base_url:
        changes["base_url"] = options.base_url
    if options.strip_prefixes:
        changes["strip_prefixes"] = options.strip_prefixes
    if options.path_prefix and not (options.base_url or site.base_url):
        changes["path_prefix"] = options.path_prefix
    if options.url_style not in ("", "auto"):
        changes["url_style"] = options.url_style
        if site.xrefs is not None:  # links in page text follow the pages' addresses
            builder = "dirhtml" if options.url_style == "directory" else "html"
            changes["xrefs"] = replace(site.xrefs, builder=builder)
    if options.slug not in ("", "auto"):
        changes["slug"] = options.slug
    if options.nav == "off":
        changes["nav"] = None
    if options.notebooks in ("on", "off"):
        changes["notebooks"] = options.notebooks == "on"
    if options.include:
        changes["include"] = options.include
    if options.exclude:
        changes["exclude"] = site.exclude + options.exclude
    return replace(site, **changes) if changes else site


# -- plain Markdown --------------------------------------------------------------------------


def markdown_site(root: Path, config: Path | None) -> Site:
    """No generator recognised: every Markdown file is a page, URLs from the configured rule."""
    return Site(generator="markdown", slug="mintlify", url_style="plain", not_pages=PART_FOLDERS)


# -- MkDocs ------------------------------------------------------------------------------------


class _TolerantLoader(yaml.SafeLoader):
    """A safe YAML loader that reads MkDocs' `!!python/name:` and `!ENV` tags as plain values.

    mkdocs.yml files use those tags to name Python objects and environment variables; a safe
    loader refuses them, and executing them is not wanted: their text (or default) is enough.
    """


def _tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        return f"{suffix}{value}" if suffix.startswith("tag:yaml.org,2002:python/") else value
    if isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node)
        return items[-1] if suffix == "!ENV" and items else items
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_TolerantLoader.add_multi_constructor("", _tagged)


def read_yaml(path: Path) -> dict[str, Any]:
    """A YAML config as a dict; {} when it is not a mapping."""
    data = yaml.load(path.read_text("utf-8", errors="replace"), Loader=_TolerantLoader)  # noqa: S506
    return data if isinstance(data, dict) else {}


MAX_INHERIT_DEPTH = 8


def _deep_merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """`child` over `parent` as MkDocs merges an inherited config (mergedeep's REPLACE strategy).

    Mappings present in both merge key by key; any other value of the child (a list too: a
    child's `nav` or `markdown_extensions` list replaces the parent's whole) wins.
    """
    out = dict(parent)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def read_mkdocs_config(path: Path) -> dict[str, Any]:
    """mkdocs.yml with the file it inherits (`INHERIT: ../base.yml`) merged under it, as MkDocs does.

    The parent's path is relative to the file that names it, and a parent may inherit in turn.
    One outside the repository, missing, unreadable or leading back to a file already read is
    left out with a warning (MkDocs stops there with an error; a reader still reads the
    child). Relative paths in a parent (`docs_dir`) stay relative to mkdocs.yml, as in MkDocs.
    """
    config = read_yaml(path)
    confine = repository_root(path.parent.resolve())
    seen = {path.resolve()}
    chain: list[dict[str, Any]] = []
    current, data = path, config
    while "INHERIT" in data:
        named = data.pop("INHERIT")
        parent = (current.parent / str(named)).resolve() if named else None
        problem = ""
        if parent is None:
            problem = "names no file"
        elif len(seen) > MAX_INHERIT_DEPTH:
            problem = "inherits too deep"
        elif parent in seen:
            problem = "loops back to a file already read"
        elif not parent.is_relative_to(confine):
            problem = "is outside the repository"
        elif not parent.is_file():
            problem = "does not exist"
        if problem or parent is None:
            log.warning("%s: INHERIT %r %s; left out", current, named, problem)
            break
        try:
            data = read_yaml(parent)
        except (OSError, yaml.YAMLError) as exc:
            log.warning("%s: INHERIT %r cannot be read (%s); left out", current, named, exc)
            break
        seen.add(parent)
        chain.append(data)
        current = parent
    for parent_data in chain:
        config = _deep_merge(parent_data, config)
    return config


def _nav_pages(entries: Any) -> Iterator[tuple[str, str]]:
    """(page path, nav title) of a MkDocs `nav`, in order; links to other sites left out."""
    if isinstance(entries, str):
        if "://" not in entries and not entries.startswith(("/", "#")):
            yield entries.removeprefix("./"), ""
    elif isinstance(entries, list):
        for entry in entries:
            yield from _nav_pages(entry)
    elif isinstance(entries, dict):
        for title, value in entries.items():
            if isinstance(value, str):
                for path, _ in _nav_pages(value):
                    yield path, str(title)
            else:
                yield from _nav_pages(value)


_LIST_ITEM_RE = re.compile(
    r"^[ \t]*(?:[-*+]|\d+\.)[ \t]+(?:\[([^\]]*)\]\(<?([^)>\s]+)>?\)|(\S+)[ \t]*$)"
)
_MAX_NAV_DEPTH = 8


def _literate_nav(
    docs_dir: Path, entries: list[tuple[str, str]], options: dict[str, Any]
) -> list[tuple[str, str]]:
    """The nav with mkdocs-literate-nav's folders expanded into their pages.

    The plugin reads a folder's nav from the Markdown lists of its nav file (`nav_file`,
    default `SUMMARY.md`); a folder named in the nav (`guide/`) stands for that folder's nav, and
    a folder without a nav file for all its pages. With no `nav` in mkdocs.yml, the docs folder's
    own nav file is the nav. `implicit_index` puts a folder's index page first.
    """
    nav_file = str(options.get("nav_file") or "SUMMARY.md")
    implicit = options.get("implicit_index") is True
    if not entries:
        if not (docs_dir / nav_file).is_file():
            return entries
        entries = [("", "")]
    out: list[tuple[str, str]] = []
    for path, title in entries:
        if path == "" or path.endswith("/") or (docs_dir / path).is_dir():
            out.extend(_folder_nav(docs_dir, path.strip("/"), nav_file, implicit, 0))
        else:
            out.append((path, title))
    return list(dict.fromkeys(out))


def _folder_nav(
    docs_dir: Path, folder: str, nav_file: str, implicit: bool, depth: int
) -> list[tuple[str, str]]:
    """(page, title) of one folder's literate nav, its sub-folders expanded in place."""
    base = docs_dir / folder if folder else docs_dir
    prefix = f"{folder}/" if folder else ""
    out: list[tuple[str, str]] = []
    if depth > _MAX_NAV_DEPTH or not base.is_dir():
        return out
    index = next((n for n in ("index.md", "README.md") if (base / n).is_file()), None)
    if implicit and index:
        out.append((prefix + index, ""))
    if not (base / nav_file).is_file():
        pages = sorted(p.relative_to(docs_dir).as_posix() for p in base.rglob("*.md"))
        return out + [(p, "") for p in pages]
    text = (base / nav_file).read_text("utf-8", errors="replace")
    for line in text.splitlines():
        m = _LIST_ITEM_RE.match(line)
        if not m:
            continue
        target = (m.group(2) or m.group(3) or "").split("#")[0]
        if not target or "://" in target or target.startswith(("/", "mailto:")):
            continue
        rel = posixpath.normpath(prefix + target.removeprefix("./"))
        if target.endswith("/") or (docs_dir / rel).is_dir():
            out.extend(_folder_nav(docs_dir, rel, nav_file, implicit, depth + 1))
        elif rel.endswith(".md") and (docs_dir / rel).is_file():
            out.append((rel, (m.group(1) or "").strip()))
    return out


def _listed_config(config: dict[str, Any], key: str, name: str) -> dict[str, Any] | None:
    """The options of one entry of a `markdown_extensions` or `plugins` list.

    {} when the entry is listed bare, None when it is not listed: both lists take a name or a
    one-key mapping of a name to its options.
    """
    listed = config.get(key) or []
    if isinstance(listed, dict):  # MkDocs also takes a mapping of names to their options
        listed = [{k: v} for k, v in listed.items()]
    for entry in listed if isinstance(listed, list) else []:
        if entry == name:
            return {}
        if isinstance(entry, dict) and name in entry:
            value = entry[name]
            return value if isinstance(value, dict) else {}
    return None


def _extension(config: dict[str, Any], *names: str) -> dict[str, Any] | None:
    """The options of the first of these Markdown extensions mkdocs.yml lists, None if none.

    Python-Markdown's own extensions go by their short name or their module's
    (`abbr`, `markdown.extensions.abbr`).
    """
    for name in names:
        for spelled in (name, f"markdown.extensions.{name}") if "." not in name else (name,):
            options = _listed_config(config, "markdown_extensions", spelled)
            if options is not None:
                return options
    return None


def _markdown_syntax(config: dict[str, Any]) -> MarkdownSyntax:
    """What the site's Markdown extensions change in how its pages read (`MarkdownSyntax`).

    `abbr` also comes with Python-Markdown's `extra` and with `pymdownx.extra`.
    """
    keys = _extension(config, "pymdownx.keys")
    key_map = (keys or {}).get("key_map")
    snippets = _extension(config, "pymdownx.snippets") or {}
    append = snippets.get("auto_append") or []
    return MarkdownSyntax(
        inlinehilite=_extension(config, "pymdownx.inlinehilite") is not None,
        keys=keys is not None,
        key_separator=str((keys or {}).get("separator", "+") or ""),
        key_camel_case=(keys or {}).get("camel_case") is True,
        key_map=tuple((str(k), str(v)) for k, v in key_map.items())
        if isinstance(key_map, dict)
        else (),
        emoji=_extension(config, "pymdownx.emoji") is not None,
        abbr=_extension(config, "abbr", "extra", "pymdownx.extra") is not None,
        auto_append=tuple(str(a) for a in ([append] if isinstance(append, str) else append)),
    )


def _include_extensions(config: dict[str, Any], project: Path) -> tuple[tuple[str, ...], str]:
    """The include extensions the site lists (`mdx_include`, `include_variants`) and their base folder.

    `mdx_include` and `markdown_include` read `{! file !}` from their `base_path`, by default the
    folder MkDocs runs in (the project's); `markdown_include_variants` reads `{* file *}` the
    same way.
    """
    names: list[str] = []
    base = "."
    for extension in ("mdx_include", "markdown_include.include", "markdown_include"):
        options = _listed_config(config, "markdown_extensions", extension)
        if options is not None:
            names.append("mdx_include")
            base = str(options.get("base_path") or base)
            break
    if _listed_config(config, "markdown_extensions", "markdown_include_variants") is not None:
        names.append("include_variants")
    return tuple(names), str((project / base).resolve()) if names else ""


def _mkdocs_slug(config: dict[str, Any]) -> str:
    """The toc extension's slug rule: Python-Markdown's default, or its Unicode variant."""
    toc = _extension(config, "toc") or {}
    named = str(toc.get("slugify") or "")
    return (
        "python-markdown-unicode"
        if "uslugify" in named or "unicode" in named
        else "python-markdown"
    )


def _gitignore_globs(value: Any) -> tuple[str, ...]:
    """MkDocs `exclude_docs` (gitignore lines) as globs relative to the docs folder."""
    lines = value.splitlines() if isinstance(value, str) else list(value or [])
    out: list[str] = []
    for line in lines:
        line = str(line).strip()
        if not line or line.startswith(("#", "!")):
            continue
        out.append(line.lstrip("/"))
    return tuple(out)


def mkdocs_site(root: Path, config_path: Path | None) -> Site:
    """MkDocs: `site_url`, directory URLs (`X/`) unless `use_directory_urls: false`, `nav`, snippets."""
    config = read_mkdocs_config(config_path) if config_path else {}
    project = config_path.parent if config_path else root
    docs_dir = (project / str(config.get("docs_dir") or "docs")).resolve()
    page_dir = ""
    if docs_dir != root and docs_dir.is_relative_to(root):
        page_dir = docs_dir.relative_to(root).as_posix() + "/"
    directory_urls = config.get("use_directory_urls", True) is not False
    nav_entries = list(_nav_pages(config.get("nav"))) if config.get("nav") else []
    literate = _listed_config(config, "plugins", "literate-nav")
    if literate is not None:
        nav_entries = _literate_nav(docs_dir, nav_entries, literate)
    snippets = _extension(config, "pymdownx.snippets")
    base_paths = (snippets or {}).get("base_path", ["."])
    base_paths = [base_paths] if isinstance(base_paths, str) else list(base_paths or ["."])
    snippet_dirs = tuple(str((project / str(p)).resolve()) for p in base_paths)
    # Snippet folders inside the docs folder hold parts of pages, not pages.
    not_pages = [
        Path(d).relative_to(docs_dir).as_posix() + "/**"
        for d in snippet_dirs
        if Path(d).is_relative_to(docs_dir) and Path(d) != docs_dir
    ]
    theme = config.get("theme")
    if isinstance(theme, dict) and theme.get("custom_dir"):
        custom = (project / str(theme["custom_dir"])).resolve()
        if custom.is_relative_to(docs_dir) and custom != docs_dir:
            not_pages.append(custom.relative_to(docs_dir).as_posix() + "/**")
    exclude = list(_gitignore_globs(config.get("exclude_docs")))
    excluded = _listed_config(config, "plugins", "exclude")
    if excluded:
        globs = excluded.get("glob") or []
        exclude.extend(str(g) for g in ([globs] if isinstance(globs, str) else globs))
    # MkDocs never builds dot files, and treats a `templates` folder as theme files.
    not_pages.extend([".*", "templates/**"])
    includes, include_base = _include_extensions(config, project)
    notebooks = any(_listed_config(config, "plugins", p) is not None for p in NOTEBOOK_PLUGINS)
    return Site(
        generator="mkdocs",
        base_url=str(config.get("site_url") or ""),
        url_style="directory" if directory_urls else "html",
        slug=_mkdocs_slug(config),
        page_dir=page_dir,
        nav=tuple(path for path, _ in nav_entries) if nav_entries else None,
        titles=tuple((path, title) for path, title in nav_entries if title),
        exclude=tuple(exclude),
        not_pages=tuple(not_pages),
        snippet_dirs=snippet_dirs + (str(docs_dir),),
        project_root=str(project.resolve()),
        files_root=str(repository_root(project.resolve())),
        includes=includes,
        include_base=include_base,
        syntax=_markdown_syntax(config),
        config=str(config_path or ""),
        notebooks=notebooks,
    )


# -- Docusaurus --------------------------------------------------------------------------------


# The string that names the classic preset or the docs plugin in a `presets` / `plugins` entry
# (`['classic', {…}]`, `[require.resolve('@docusaurus/plugin-content-docs'), {…}]`).
_PRESET_NAME_RE = re.compile(r"""(['"])(?:classic|[\w@./-]*preset-classic)\1\s*\)?\s*(?=[,\]])""")
_DOCS_PLUGIN_NAME_RE = re.compile(
    r"""(['"])(?:content-docs|[\w@./-]*plugin-content-docs)\1\s*\)?\s*(?=[,\]])"""
)


# Docusaurus leaves out files and folders whose name starts with `_` (partials), and test
# folders (its default `exclude`).
_DOCUSAURUS_NOT_PAGES = ("_*", "__tests__", *PART_FOLDERS)


@dataclass(frozen=True)
class _DocusaurusConfig:
    """What a docusaurus.config.* says, read as text (tools/sources/jsconfig.py), never run.

    `consts` are the file's `const NAME = '…'` strings (template literals use them), `objects`
    its `const NAME = {…}` objects (what `...NAME` spreads and a bare `NAME` option names).
    """

    path: Path
    source: str
    consts: dict[str, str]
    objects: dict[str, str] = field(default_factory=dict)

    def value(self, raw: str | None, setting: str, default: Any, env: str) -> Any:
        """A literal value; a computed one falls back to `default` with a warning naming `env`."""
        if raw is None:
            return default
        value = jsconfig.literal(raw, self.consts)
        if value is jsconfig.NOT_LITERAL or (
            not isinstance(value, type(default)) and default is not None
        ):
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
            self.source[m.end() : jsconfig.value_end(self.source, m.end())].strip()
            for m in re.finditer(rf"(?<![\w$.]){key}\s*:", self.source)
        ]
        for raw in raws:
            value = jsconfig.literal(raw, self.consts)
            if value is not jsconfig.NOT_LITERAL:
                return value
        return self.value(raws[0], key, default, env) if raws else default

    def options(self, raw: str) -> dict[str, str] | None:
        """The entries of an options object written in place or named by a const; else None."""
        return jsconfig.object_entries(raw, self.objects)

    def docs_plugins(self) -> list[dict[str, str]]:
        """The option objects (raw values) of each docs plugin: the preset's `docs`, then plugins."""
        text = self.source
        out: list[dict[str, str]] = []
        for m in _PRESET_NAME_RE.finditer(text):
            raw = text[m.end() + 1 : jsconfig.value_end(text, m.end() + 1)]
            preset = self.options(raw) or {}
            docs = preset.get("docs")
            if docs is None:
                # The preset's docs plugin with its defaults, or with options an unread spread
                # of the preset's options may hold.
                out.append({k: v for k, v in preset.items() if k == jsconfig.SPREAD})
                continue
            inner = self.options(docs)
            if inner is not None:
                out.append(inner)
            elif docs.strip() != "false":  # `docs: false`: the preset has no docs plugin
                out.append({jsconfig.SPREAD: docs})
        for m in _DOCS_PLUGIN_NAME_RE.finditer(text):
            raw = text[m.end() + 1 : jsconfig.value_end(text, m.end() + 1)]
            out.append(self.options(raw) or {})
        return out

    def docs_options(self, root: Path) -> dict[str, str]:
        """The options of the docs plugin whose `path` is this docs folder.

        A folder no plugin names (a released version's `versioned_docs/version-X`) belongs to
        the default plugin (no `id`, or `id: 'default'`). Options that a computed spread
        (`...require('./docs')`) or value may set are said, in a warning: Docusaurus' defaults
        stand for them.
        """
        plugins = self.docs_plugins() or [{}]
        folder = self.path.parent
        chosen = None
        for options in plugins:
            path = jsconfig.literal(options.get("path", "'docs'"), self.consts)
            if isinstance(path, str) and (folder / path).resolve() == root:
                chosen = options
                break
        if chosen is None:
            default = [
                o
                for o in plugins
                if jsconfig.literal(o.get("id", "'default'"), self.consts) == "default"
            ]
            chosen = (default or plugins)[0]
        if jsconfig.SPREAD in chosen:
            self.computed(
                "the docs plugin's options",
                chosen[jsconfig.SPREAD],
                "Docusaurus' defaults for the options it may set",
                "DOCS_AGENT_DOCS_BASE_URL, DOCS_AGENT_DOCS_NAV or DOCS_AGENT_DOCS_EXCLUDE",
            )
        return chosen


def _read_docusaurus_config(config_path: Path) -> _DocusaurusConfig:
    source = config_path.read_text("utf-8", errors="replace")
    return _DocusaurusConfig(
        config_path, source, jsconfig.top_level_consts(source), jsconfig.const_objects(source)
    )


@dataclass(frozen=True)
class _DocsVersion:
    """The docs version a folder holds: its route segment, its sidebar file, whether it is built."""

    segment: str = ""
    sidebar: Path | None = None
    built: bool = True


def _version_names(config: _DocusaurusConfig, options: dict[str, str], prefix: str) -> list[str]:
    """The versions the docs plugin builds, newest first (plugin-content-docs `readVersionNames`).

    `current` (the docs folder itself, unless `includeCurrentVersion: false`), then the names
    of `versions.json` (unless `disableVersioning: true`), kept to those `onlyIncludeVersions`
    lists when it is set.
    """
    env = "DOCS_AGENT_DOCS_BASE_URL"
    try:
        names = json.loads((config.path.parent / f"{prefix}versions.json").read_text("utf-8"))
    except (OSError, ValueError):
        names = []
    names = [str(v) for v in names] if isinstance(names, list) else []
    if config.value(options.get("disableVersioning"), "disableVersioning", False, env):
        names = []
    if config.value(options.get("includeCurrentVersion"), "includeCurrentVersion", True, env) and (
        "current" not in names
    ):
        names.insert(0, "current")
    raw = options.get("onlyIncludeVersions")
    only = jsconfig.literal(raw, config.consts) if raw is not None else None
    if only is not None and not (isinstance(only, list) and all(isinstance(v, str) for v in only)):
        config.computed("onlyIncludeVersions", str(raw), "every version", env)
    elif only:
        names = [n for n in names if n in only]
    return names


def _version_path(config: _DocusaurusConfig, options: dict[str, str], name: str) -> str | None:
    """The route segment `versions: { NAME: { path } }` gives a version, else None (the default)."""
    raw = options.get("versions")
    if raw is None:
        return None
    env = "DOCS_AGENT_DOCS_BASE_URL"
    versions = config.options(raw)
    if versions is None or jsconfig.SPREAD in versions:
        config.computed("the docs plugin's versions", raw, "each version's default path", env)
    entry = (versions or {}).get(name)
    one = config.options(entry) if entry is not None else None
    if entry is not None and (one is None or jsconfig.SPREAD in one):
        config.computed(f"versions[{name!r}]", entry, "its default path", env)
    raw_path = (one or {}).get("path")
    if raw_path is None:
        return None
    path = jsconfig.literal(raw_path, config.consts)
    if not isinstance(path, str):
        config.computed(f"versions[{name!r}].path", raw_path, "its default path", env)
        return None
    return path


def _docusaurus_version(
    root: Path, config: _DocusaurusConfig, options: dict[str, str]
) -> _DocsVersion:
    """The docs version this folder holds: where the site serves it, its sidebar, if it is built.

    Docusaurus serves the last version (`lastVersion`, by default the newest released one it
    builds, else `current`) at the docs route, `current` (the `docs/` folder) at `next/`, and
    every other version at its name; `versions: { NAME: { path } }` names a version's segment
    instead, the last one's too. `versioned_docs/version-X` is version X. A version that
    `onlyIncludeVersions` or `includeCurrentVersion: false` leaves out is not built at all.
    """
    folder = config.path.parent
    env = "DOCS_AGENT_DOCS_BASE_URL"
    plugin_id = config.value(options.get("id"), "the docs plugin's id", "default", env)
    prefix = "" if plugin_id == "default" else f"{plugin_id}_"
    names = _version_names(config, options, prefix)
    released = [n for n in names if n != "current"]
    last = config.value(
        options.get("lastVersion"), "lastVersion", released[0] if released else "current", env
    )
    name, sidebar = "current", None
    versioned = folder / f"{prefix}versioned_docs"
    if root.parent == versioned.resolve() and root.name.startswith("version-"):
        name = root.name.removeprefix("version-")
        named = folder / f"{prefix}versioned_sidebars" / f"version-{name}-sidebars.json"
        sidebar = named if named.is_file() else None
    path = _version_path(config, options, name)
    if path is None:
        path = "" if name == last else "next" if name == "current" else name
    if name not in names:
        log.warning(
            "%s: the docs plugin builds no version %r (versions.json, onlyIncludeVersions, "
            "includeCurrentVersion): the site has no page of %s",
            config.path,
            name,
            root,
        )
    return _DocsVersion(path.strip("/"), sidebar, name in names)


def docusaurus_site(root: Path, config_path: Path | None) -> Site:
    """Docusaurus: `url` + `baseUrl` + the docs route, front-matter `id`/`slug`, `_` files are partials.

    The config is JavaScript; only its literals are read (it is not run), and the docs
    plugin's options are those of the plugin whose `path` is this folder. A computed value
    falls back to Docusaurus' default with a warning; settings say it instead (docs/sources.md).
    """
    if config_path is None:
        return Site(
            generator="docusaurus",
            slug="github",
            route_base="docs",
            not_pages=_DOCUSAURUS_NOT_PAGES,
        )
    config = _read_docusaurus_config(config_path)
    options = config.docs_options(root)
    env = "DOCS_AGENT_DOCS_BASE_URL"
    url = str(config.top("url", "", env)).rstrip("/")
    base = str(config.top("baseUrl", "/", env))
    route = str(config.value(options.get("routeBasePath"), "routeBasePath", "docs", env))
    version = _docusaurus_version(root, config, options)
    route = "/".join(p for p in (route.strip("/"), version.segment) if p)
    # `trailingSlash` undefined: each permalink as computed (a folder's index doc ends with
    # `/`); true: every one does; false: none does.
    trailing = config.top("trailingSlash", None, "DOCS_AGENT_DOCS_URL_STYLE")
    style = {True: "directory", False: "plain"}.get(trailing, "index-slash")
    exclude = config.value(
        options.get("exclude"), "the docs plugin's exclude", [], "DOCS_AGENT_DOCS_EXCLUDE"
    )
    sidebar = version.sidebar
    if sidebar is None:
        named = config.value(options.get("sidebarPath"), "sidebarPath", None, "DOCS_AGENT_DOCS_NAV")
        if named is not False:  # `sidebarPath: false`: no sidebar
            sidebar = _sidebar_file(config_path.parent, named if isinstance(named, str) else "")
    nav = _docusaurus_sidebar(root, sidebar) if sidebar is not None else None
    return Site(
        generator="docusaurus",
        base_url=(url + "/" + base.strip("/")).rstrip("/") if url else "",
        url_style=style,
        slug="github",
        route_base=route,
        nav=nav,
        # The plugin's globs are relative to the docs folder: `README.md` is the top one only.
        exclude=tuple(g if "/" in g else f"./{g}" for g in map(str, exclude)),
        not_pages=_DOCUSAURUS_NOT_PAGES,
        built=None if version.built else (),
        # The site's folder: `@site/…` imports start there.
        project_root=str(config_path.parent.resolve()),
        config=str(config_path),
    )


def _sidebar_file(folder: Path, named: str) -> Path | None:
    """The sidebar file `sidebarPath` names (Node adds a missing extension), else `sidebars.*`."""
    exts = ("", ".js", ".ts", ".json", ".cjs", ".mjs")
    candidates = [folder / f"{named}{ext}" for ext in exts] if named else []
    candidates += [folder / f"sidebars{ext}" for ext in exts[1:]]
    return next((c for c in candidates if c.is_file()), None)


# A doc id in a sidebar: an array item (`['intro', 'guides/x']`) or an `id:` value.
# An `autogenerated` item (`{ type: 'autogenerated', dirName: 'guides' }`) in its place. A
# quoted JSON key after a comma (`"type": "doc", "id": "x"`) is no array item.
_SIDEBAR_ITEM_RE = re.compile(
    r"""(?P<auto>\{[^{}]*['"]autogenerated['"][^{}]*\})"""
    r"""|(?:\bid['"]?\s*:\s*|[\[,]\s*)(['"])([\w./-]+)\2(?!\s*:)"""
)
_DIR_NAME_RE = re.compile(r"""\bdirName['"]?\s*:\s*(['"])([^'"]*)\1""")
# What only running a sidebar file tells (jsconfig.code_shape of it): a doc named by a computed
# id (`id: rule.name`), items built in code (`rules.map(…)`), items brought from a module
# (`require('./api-sidebar')`, an `import` that is not of types only).
_COMPUTED_SIDEBAR_RE = re.compile(
    r"""\bid\s*:\s*(?!'')[A-Za-z_$(]|\.(?:flat)?map\s*\(|\brequire\s*\("""
    r"""|^\s*import\s+(?!type\b)[^;]*?\bfrom\b""",
    re.M,
)


def _doc_id(rel: str, text: str) -> str:
    """A Docusaurus doc's id: its folders and front-matter `id` (else file name), number prefixes gone."""
    folder, _, name = rel.rpartition("/")
    parts = [strip_number_prefix(p) for p in folder.split("/") if p]
    stem = strip_number_prefix(name.rsplit(".", 1)[0])
    m = re.match(r"\A\ufeff?---\s*\n(.*?)\n---", text, re.S)
    explicit = re.search(r"^id:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", m.group(1), re.M) if m else None
    return "/".join([*parts, explicit.group(1).strip() if explicit else stem])


def _docusaurus_sidebar(root: Path, sidebar: Path) -> tuple[str, ...] | None:
    """The docs a sidebar lists, in order; None when it lists none or is unreadable.

    The sidebar file is JavaScript (or JSON) and is not run: its doc ids are read as the string
    items of its arrays and its `id:` values, and an `autogenerated` item stands, where it is,
    for every doc under its `dirName` (`.`: the whole docs folder). A sidebar computed in code
    (`_COMPUTED_SIDEBAR_RE`) gives None: its docs cannot be read without running it.
    """
    text = sidebar.read_text("utf-8", errors="replace")
    if sidebar.suffix != ".json":
        computed = _COMPUTED_SIDEBAR_RE.search(jsconfig.code_shape(text))
        if computed is not None:
            # Docusaurus builds every doc, in a sidebar or not: when only running the sidebar
            # would tell its docs, every doc counts rather than the few it writes out.
            log.warning(
                "%s: the sidebar is computed (%s…); every doc of %s counts as a page. "
                "DOCS_AGENT_DOCS_INCLUDE / DOCS_AGENT_DOCS_EXCLUDE choose them instead",
                sidebar,
                computed.group(0).strip(),
                root,
            )
            return None
    by_id: dict[str, str] = {}
    for path in sorted(root.rglob("*.md*")):
        if path.suffix in (".md", ".mdx") and path.is_file():
            rel = path.relative_to(root).as_posix()
            if any(part.startswith("_") for part in rel.split("/")):
                continue  # a partial (`_x.md`, `_parts/`): never a doc
            head = path.read_text("utf-8", errors="replace")[:2000]
            by_id.setdefault(_doc_id(rel, head), rel)
    pages: list[str] = []
    for m in _SIDEBAR_ITEM_RE.finditer(text):
        if m.group("auto") is None:
            if m.group(3) in by_id:
                pages.append(by_id[m.group(3)])
            continue
        named = _DIR_NAME_RE.search(m.group("auto"))
        folder = (named.group(2) if named else ".").strip("/").removeprefix("./")
        pages.extend(
            rel
            for rel in sorted(by_id.values())
            if folder in ("", ".") or rel.startswith(folder + "/")
        )
    pages = list(dict.fromkeys(pages))
    return tuple(pages) if pages else None


# -- Mintlify ----------------------------------------------------------------------------------


def _json_pages(node: Any) -> Iterator[str]:
    """Every page named under a `pages` list of a Mintlify navigation, in order."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pages" and isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        yield item
                    else:
                        yield from _json_pages(item)
            else:
                yield from _json_pages(value)
    elif isinstance(node, list):
        for item in node:
            yield from _json_pages(item)


def mintlify_site(root: Path, config_path: Path | None) -> Site:
    """Mintlify: URLs are paths without suffix; the pages of `navigation` are the site's pages."""
    nav: tuple[str, ...] | None = None
    prefix = ""
    if config_path is not None:
        data = json.loads(config_path.read_text("utf-8", errors="replace"))
        names = list(dict.fromkeys(_json_pages(data.get("navigation") or data)))
        if config_path.parent != root and config_path.parent.resolve() != root:
            prefix = ""
        pages: list[str] = []
        for name in names:
            stem = name.strip("/")
            for suffix in (".mdx", ".md"):
                if (config_path.parent / (stem + suffix)).is_file():
                    full = (config_path.parent / (stem + suffix)).resolve()
                    if full.is_relative_to(root):
                        pages.append(full.relative_to(root).as_posix())
                    break
        nav = tuple(pages) if pages else None
    return Site(
        generator="mintlify",
        url_style="plain",
        slug="mintlify",
        nav=nav,
        path_prefix=prefix,
        not_pages=PART_FOLDERS,
        config=str(config_path or ""),
    )


# -- Sphinx --------------------------------------------------------------------------------------


def sphinx_site(root: Path, config_path: Path | None) -> Site:
    """Sphinx: `html_baseurl` + `<docname>.html`, the pages its toctrees list (and the root doc).

    Built with `dirhtml` (`rtd_builder`), pages are `<docname>/` and an `index` its folder.

    conf.py is read, never run (tools/sources/sphinx_site.py); the toctrees are read from their
    directives alone, so the navigation is known before any page is parsed in full. Built pages
    no toctree lists are `:orphan:` pages, and files only pulled in by `.. include::` are parts of
    pages: neither is in the navigation, so neither counts (`DOCS_AGENT_DOCS_NAV=off` keeps every
    file Sphinx builds).
    """
    from tools.sources.sphinx_site import SphinxSite

    source = (config_path.parent if config_path else root).resolve()
    page_dir = ""
    if source != root and source.is_relative_to(root):
        page_dir = source.relative_to(root).as_posix() + "/"
    sphinx = SphinxSite(source)
    built = sphinx.source_files()
    nav, xrefs = sphinx.scan()
    by_doc = {sphinx.docname(rel): rel for rel in built}
    order = [d for d in nav.reachable if d in by_doc]
    listed = sorted((nav.listed | {sphinx.config.root_doc}) - set(order))
    in_nav = [by_doc[d] for d in [*order, *listed] if d in by_doc]
    conf = sphinx.config
    not_pages = tuple(f"{t.strip('/')}/**" for t in conf.templates_path) + ("_build/**",)
    directory = rtd_builder(source, config_path) == "dirhtml"
    return Site(
        generator="sphinx",
        base_url=conf.html_baseurl,
        url_style="directory" if directory else "html",
        slug="docutils",
        page_dir=page_dir,
        nav=tuple(in_nav) if in_nav else None,
        built=tuple(built),
        not_pages=not_pages,
        project_root=str(source),
        config=str(config_path or ""),
        xrefs=replace(xrefs, builder="dirhtml" if directory else "html"),
        myst=conf.reads_myst,
        notebooks=conf.reads_notebooks,
    )


# -- built HTML ------------------------------------------------------------------------------


def html_site(root: Path, config: Path | None) -> Site:
    """A folder of built `.html` pages: URLs keep their `.html`, a canonical link wins."""
    return Site(
        generator="html",
        url_style="html",
        slug="docutils",
        not_pages=BUILT_SITE_NOT_PAGES,
    )


ProfileFn = Callable[[Path, Path | None], Site]
PROFILES: dict[str, ProfileFn] = {
    "markdown": markdown_site,
    "mkdocs": mkdocs_site,
    "docusaurus": docusaurus_site,
    "mintlify": mintlify_site,
    "html": html_site,
    "sphinx": sphinx_site,
}
