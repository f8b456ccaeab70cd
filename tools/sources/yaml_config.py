"""YAML configuration files read safely, with the tags generators' configs use read as plain values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


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
