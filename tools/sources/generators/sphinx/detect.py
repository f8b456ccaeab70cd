"""How a Sphinx site is recognised: the conf.py Read the Docs names, else `conf.py` or `source/conf.py`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tools.sources.generators.sphinx.build import rtd_sphinx_conf


def config_files(folder: Path) -> Iterable[Path]:
    """The Sphinx conf.py of a folder (`conf.py`, or `source/conf.py` of a split layout)."""
    return [conf for conf in (folder / "conf.py", folder / "source" / "conf.py") if conf.is_file()]


def named_config(root: Path) -> Iterable[Path]:
    """The conf.py the repository's Read the Docs file builds with, when it is this folder's."""
    named = rtd_sphinx_conf(root)
    return [named] if named is not None else []
