"""Docusaurus docs versions: which one a folder holds, where the site serves it, whether it is built."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from tools.sources import jsconfig
from tools.sources.generators.docusaurus.config import DocusaurusConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _DocsVersion:
    """The docs version a folder holds: its route segment, its sidebar file, whether it is built."""

    segment: str = ""
    sidebar: Path | None = None
    built: bool = True


def _version_names(config: DocusaurusConfig, options: dict[str, str], prefix: str) -> list[str]:
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


def _version_path(config: DocusaurusConfig, options: dict[str, str], name: str) -> str | None:
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


def docs_version(root: Path, config: DocusaurusConfig, options: dict[str, str]) -> _DocsVersion:
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
