"""What a docusaurus.config.* says, read as text (tools/sources/jsconfig.py), never run."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, fields
from pathlib import Path

from tools.sources import jsconfig

log = logging.getLogger(__name__)


# The string that names the classic preset or the docs plugin in a `presets` / `plugins` entry
# (`['classic', {…}]`, `[require.resolve('@docusaurus/plugin-content-docs'), {…}]`).
_PRESET_NAME_RE = re.compile(r"""(['"])(?:classic|[\w@./-]*preset-classic)\1\s*\)?\s*(?=[,\]])""")
_DOCS_PLUGIN_NAME_RE = re.compile(
    r"""(['"])(?:content-docs|[\w@./-]*plugin-content-docs)\1\s*\)?\s*(?=[,\]])"""
)


@dataclass(frozen=True)
class DocusaurusConfig(jsconfig.JsConfig):
    """What a docusaurus.config.* says, read as text (tools/sources/jsconfig.py), never run.

    The shared reader's values, options and bindings; here, the docs plugins' options.
    """

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
    """The config file read as text: its source, its `const` strings, objects and bindings."""
    base = jsconfig.JsConfig.read(config_path)
    return DocusaurusConfig(**{f.name: getattr(base, f.name) for f in fields(base)})
