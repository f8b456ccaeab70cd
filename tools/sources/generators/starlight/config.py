"""What an `astro.config.*` with Starlight says, read as text (tools/sources/jsconfig), never run.

Astro's `site`, `base`, `trailingSlash`, `build.format` and `srcDir`; Starlight's (the options
passed to the integration: `starlight({…})`) `title`, `locales`, `defaultLocale` and `sidebar`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.sources.jsconfig import SPREAD, JsConfig

ENV_BASE_URL = "DOCS_AGENT_DOCS_BASE_URL"
# `import starlight from '@astrojs/starlight'`: the name the integration is called by.
_IMPORT_RE = re.compile(r"""import\s+([A-Za-z_$][\w$]*)\s+from\s+['"]@astrojs/starlight['"]""")


@dataclass(frozen=True)
class StarlightLocale:
    """One entry of Starlight's `locales`: its key (`root`, `zh-cn`), language tag and label."""

    key: str
    lang: str = ""
    label: str = ""


@dataclass(frozen=True)
class StarlightConfig:
    """The options of one Starlight site that this package reads (defaults: Astro's, Starlight's)."""

    path: Path
    site: str = ""
    base: str = "/"
    trailing_slash: str = "ignore"
    build_format: str = "directory"
    src_dir: str = "./src"
    title: str = ""
    locales: tuple[StarlightLocale, ...] = ()
    default_locale: str = ""
    sidebar: list[Any] = field(default_factory=list)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def read_starlight_config(path: Path) -> StarlightConfig:
    """The config read as text; a computed value is the default, with a warning naming the setting."""
    config = JsConfig.read(path)
    data = config.exported()
    given_build = data.get("build")
    build: dict[str, Any] = given_build if isinstance(given_build, dict) else {}
    name = _IMPORT_RE.search(config.source)
    options = config.call_argument(name.group(1) if name else "starlight") or {}
    title = options.get("title")
    if isinstance(title, dict):  # a title per language: the root's, or the first
        title = title.get("en") or next((v for v in title.values() if isinstance(v, str)), "")
    locales = []
    given = options.get("locales")
    for key, value in (given if isinstance(given, dict) else {}).items():
        if key != SPREAD and isinstance(value, dict):
            locales.append(
                StarlightLocale(key, _text(value.get("lang")), _text(value.get("label")))
            )
    sidebar = options.get("sidebar")
    url_style = "DOCS_AGENT_DOCS_URL_STYLE"
    return StarlightConfig(
        path=path,
        site=config.setting(data, "site", "", ENV_BASE_URL),
        base=config.setting(data, "base", "/", ENV_BASE_URL),
        trailing_slash=config.setting(data, "trailingSlash", "ignore", url_style),
        build_format=config.setting(build, "format", "directory", url_style),
        src_dir=config.setting(data, "srcDir", "./src", "DOCS_AGENT_DOCS_DIR"),
        title=_text(title),
        locales=tuple(locales),
        default_locale=_text(options.get("defaultLocale")),
        sidebar=sidebar if isinstance(sidebar, list) else [],
    )
