"""What a docusaurus.config.* says, read as text (tools/sources/generators/docusaurus/jsconfig.py), never run."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.sources.generators.docusaurus import jsconfig

log = logging.getLogger(__name__)


# The string that names the classic preset or the docs plugin in a `presets` / `plugins` entry
# (`['classic', {…}]`, `[require.resolve('@docusaurus/plugin-content-docs'), {…}]`).
_PRESET_NAME_RE = re.compile(r"""(['"])(?:classic|[\w@./-]*preset-classic)\1\s*\)?\s*(?=[,\]])""")
_DOCS_PLUGIN_NAME_RE = re.compile(
    r"""(['"])(?:content-docs|[\w@./-]*plugin-content-docs)\1\s*\)?\s*(?=[,\]])"""
)


@dataclass(frozen=True)
class DocusaurusConfig:
    """What a docusaurus.config.* says, read as text (tools/sources/generators/docusaurus/jsconfig.py), never run.

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


def read_docusaurus_config(config_path: Path) -> DocusaurusConfig:
    """The config file read as text: its source, its `const` strings and objects."""
    source = config_path.read_text("utf-8", errors="replace")
    return DocusaurusConfig(
        config_path, source, jsconfig.top_level_consts(source), jsconfig.const_objects(source)
    )
