"""The sources' settings as the tools use them: read by settings/sources.py, checked here.

Reading moved to the one configuration path (settings/: `SourceSettings`, `LiveSourceSettings`,
the `.env` reader); these names stay importable from here for the modules and tests that import
them so. What stays here is the one check the settings cannot make from the bottom of the
package: the generator and slug names, which the generators' registry knows
(tools/sources/registry.py). tools/docs.py checks them whenever it opens a docs source.
"""

from __future__ import annotations

from settings.dotenv import REPO_ROOT, SERVER_MODULES, configured_env, env_file
from settings.sources import URL_STYLE_CHOICES, LiveSourceSettings, SourceSettings
from settings.values import SettingError

__all__ = [
    "REPO_ROOT",
    "SERVER_MODULES",
    "URL_STYLE_CHOICES",
    "LiveSourceSettings",
    "SourceSettings",
    "check_site_choices",
    "configured_env",
    "env_file",
    "generator_choices",
    "slug_choices",
]


def generator_choices() -> tuple[str, ...]:
    """`auto` and every generator the registry lists (tools/sources/registry.py): one list."""
    from tools.sources.registry import generator_names  # on use: importing settings stays light

    return ("auto", *generator_names())


def slug_choices() -> tuple[str, ...]:
    """`auto` and every slug rule (tools/sources/slugs.py, with those the generators add)."""
    import tools.sources.registry  # noqa: F401 - the generators add their own rules on import
    from tools.sources.slugs import SLUG_RULES

    return ("auto", *SLUG_RULES)


def check_site_choices(settings: SourceSettings) -> SourceSettings:
    """`settings` when its generator and slug are ones the registry knows; else SettingError."""
    for name, value, choices in (
        ("GENERATOR", settings.docs_generator, generator_choices()),
        ("SLUG", settings.docs_slug, slug_choices()),
    ):
        if value not in choices:
            raise SettingError(f"DOCS_AGENT_DOCS_{name}={value!r}: use one of {', '.join(choices)}")
    return settings
