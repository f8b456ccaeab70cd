"""`Generator`: what the registry knows of one site generator, and the shapes of its parts.

A generator package (tools/sources/generators/NAME/) fills one `Generator` record in its
`__init__.py`: how its configuration file is found, the profile that reads it into a `Site`,
its rules' defaults, and its readers by name. The registry (tools/sources/registry.py) lists
the records; it is the only place that names every generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tools.sources.records import Page
from tools.sources.site import GeneratorRules, Site

# A reader: (file relative to the docs folder, its cleaned text, the site, the docs folder, the
# code language of the docs) → its page. Module-level functions: worker processes that parse
# pages are sent them by name.
ReaderFn = Callable[[str, str, Site, Path, str], Page]
# A profile: (docs folder, its config file or None) → the site as that config describes it.
ProfileFn = Callable[[Path, Path | None], Site]
ConfigFinder = Callable[[Path], Iterable[Path]]


def no_config_files(folder: Path) -> Iterable[Path]:
    """A generator recognised without a configuration file (or never by one)."""
    return ()


def never(root: Path) -> bool:
    """A generator only its configuration file (or the settings) name."""
    return False


@dataclass(frozen=True)
class Generator:
    """One site generator: how it is recognised, its profile, its rules' defaults, its readers.

    Detection asks every generator in registry order: first `config_first` (a file that names the
    configuration the site is built with: Read the Docs' `sphinx: configuration:`), then
    `config_files` of the docs folder, then of the folder above it, then `config_elsewhere` (a
    site folder beside the docs); with no config file found, the first whose `detect(root)` holds.
    `rules` makes the rules' defaults, used when its config cannot be read.
    """

    name: str
    profile: ProfileFn
    rules: Callable[[], GeneratorRules] = GeneratorRules
    config_files: ConfigFinder = no_config_files
    config_first: ConfigFinder = no_config_files
    config_elsewhere: ConfigFinder = no_config_files
    detect: Callable[[Path], bool] = never
    readers: Mapping[str, ReaderFn] = field(default_factory=dict)
