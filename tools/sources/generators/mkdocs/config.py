"""mkdocs.yml as MkDocs reads it: `INHERIT` merged, and its plugin and extension lists."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import yaml

from tools.sources.reading import repository_root
from tools.sources.yaml_config import read_yaml

log = logging.getLogger(__name__)


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


def listed_options(config: dict[str, Any], key: str, name: str) -> dict[str, Any] | None:
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


def extension_options(config: dict[str, Any], *names: str) -> dict[str, Any] | None:
    """The options of the first of these Markdown extensions mkdocs.yml lists, None if none.

    Python-Markdown's own extensions go by their short name or their module's
    (`abbr`, `markdown.extensions.abbr`).
    """
    for name in names:
        for spelled in (name, f"markdown.extensions.{name}") if "." not in name else (name,):
            options = listed_options(config, "markdown_extensions", spelled)
            if options is not None:
                return options
    return None
