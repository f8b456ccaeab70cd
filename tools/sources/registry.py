"""The generators this package reads, in one registry, and the site profile of a docs folder.

Each generator is one package under tools/sources/generators/ whose `GENERATOR` record says how it
is recognised, the profile that reads its configuration into a `Site`, and its readers; this
module lists them, in the order detection asks them, and is the only place that names them all.
The generator is recognised by its configuration file, in the docs folder or the folder above
it, or where the generator says (a site beside the docs); none: plain Markdown with the configured
URL rule. Any value set in `SiteOptions` (the settings) wins over what the generator's profile says.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tools.sources.generator import Generator, ReaderFn
from tools.sources.generators import (
    antora,
    docusaurus,
    gitbook,
    html,
    hugo,
    mdbook,
    mintlify,
    mkdocs,
    plain,
    quarto,
    sphinx,
    starlight,
    vitepress,
)
from tools.sources.site import GeneratorRules, Site
from tools.sources.unread import unread_config_note, unread_configs

log = logging.getLogger(__name__)

# Every generator, in the order detection asks them (plain Markdown, which takes any folder, last).
GENERATORS: tuple[Generator, ...] = (
    mkdocs.GENERATOR,
    sphinx.GENERATOR,
    docusaurus.GENERATOR,
    vitepress.GENERATOR,
    starlight.GENERATOR,
    mintlify.GENERATOR,
    mdbook.GENERATOR,
    gitbook.GENERATOR,
    hugo.GENERATOR,
    quarto.GENERATOR,
    antora.GENERATOR,
    html.GENERATOR,
    plain.GENERATOR,
)


def generator_names() -> tuple[str, ...]:
    """Every generator's name, in registry order (what `DOCS_AGENT_DOCS_GENERATOR` takes)."""
    return tuple(g.name for g in GENERATORS)


def generator_named(name: str) -> Generator | None:
    """The generator of that name, None when none is registered."""
    return next((g for g in GENERATORS if g.name == name), None)


def generator_readers() -> dict[str, ReaderFn]:
    """Every generator's own readers by name (tools/sources/readers.py adds Markdown's and notebooks')."""
    out: dict[str, ReaderFn] = {}
    for generator in GENERATORS:
        out.update(generator.readers)
    return out


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
    # `auto`: the site's default locale; `all`: every locale; else a locale's key, folder or
    # language tag (`zh`, `pt-BR`).
    locale: str = "auto"


def _config_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(generator, config file) candidates, in the order the first one wins.

    A config file that names the site's own configuration comes first (Read the Docs'
    `sphinx: configuration:`); then the docs folder's config files, then the folder above it
    (where MkDocs keeps `mkdocs.yml` beside `docs/`); then those a generator finds elsewhere (a
    Docusaurus site beside the docs whose docs plugin reads them).
    """
    for generator in GENERATORS:
        for path in generator.config_first(root):
            yield generator.name, path
    for folder in (root, root.parent):
        for generator in GENERATORS:
            for path in generator.config_files(folder):
                yield generator.name, path
    for generator in GENERATORS:
        for path in generator.config_elsewhere(root):
            yield generator.name, path


def detect_generator(root: Path) -> tuple[str, Path | None]:
    """The generator the folder is built with and its configuration file (`markdown`, None: none)."""
    for generator, path in _config_files(root):
        return generator, path
    for candidate in GENERATORS:
        if candidate.detect(root):
            return candidate.name, None
    return plain.GENERATOR.name, None


def detect_site(root: Path, options: SiteOptions | None = None) -> Site:
    """The site profile of a docs folder: detected generator, its config, then the settings' overrides."""
    options = options or SiteOptions()
    root = root.resolve()
    name, config = detect_generator(root)
    if options.generator not in ("", "auto"):
        name = options.generator
        config = next((p for g, p in _config_files(root) if g == name), None)
    generator = generator_named(name)
    try:
        if generator is None:
            log.warning("no site profile for %r installed: %s read with the defaults", name, root)
            site = Site(rules=GeneratorRules(name=name), config=str(config or ""))
        else:
            site = generator.profile(root, config)
    except Exception as exc:  # noqa: BLE001 — a broken config must not stop the source
        log.warning("could not read %s (%s); using the %s defaults", config, exc, name)
        rules = generator.rules() if generator is not None else GeneratorRules(name=name)
        site = Site(rules=rules, config=str(config or ""))
    site = apply_options(site, options)
    return replace(site, notes=site.notes + tuple(_unsure(root, site, name)))


def _unsure(root: Path, site: Site, name: str) -> list[str]:
    """What the profile could not know, said to the site's owner (docs/sources.md, "Loud when unsure").

    A generator that names the site's address in a setting (`base_url_setting`) but has none
    cites file paths; a folder read as plain Markdown beside the config of a generator no
    package here reads is read with the wrong rules.
    """
    out: list[str] = []
    setting = site.rules.base_url_setting
    if setting and not site.base_url:
        out.append(
            f"no base URL for {root}: citations are the files' paths instead of the "
            f"site's addresses; set `{setting}` in the site's config or DOCS_AGENT_DOCS_BASE_URL"
        )
    if name == plain.GENERATOR.name:
        out.extend(unread_config_note(*found) for found in unread_configs(root, generator_names()))
    return out


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
        rules = site.rules.with_url_style(options.url_style)  # links follow the pages' addresses
        if rules is not site.rules:
            changes["rules"] = rules
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
    locale = _chosen_locale(site, options.locale)
    if locale != site.locale:
        changes["locale"] = locale
    return replace(site, **changes) if changes else site


def _chosen_locale(site: Site, wanted: str) -> str | None:
    """The key of the locale the settings pick (None: all of them); the site's own when unknown."""
    wanted = wanted.strip().lower()
    if wanted in ("", "auto"):
        return site.locale
    if wanted == "all":
        return None
    for locale in site.locales:
        if wanted in locale.names():
            return locale.key
    known = ", ".join(n for loc in site.locales for n in loc.names()[:1]) or "none"
    log.warning(
        "DOCS_AGENT_DOCS_LOCALE=%s: the site has no such locale (its locales: %s); "
        "reading its default locale",
        wanted,
        known,
    )
    return site.locale
