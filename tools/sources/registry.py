"""The generators this package reads, in one registry, and the site profile of a docs folder.

The generator is recognised by its configuration file, in the docs folder or the folder above
it, or elsewhere where the generator says so; none: plain Markdown with the configured URL rule.
Any value set in `SiteOptions` (the settings) wins over what the generator's profile says.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tools.sources.generators.docusaurus.detect import sibling_docusaurus_configs
from tools.sources.generators.docusaurus.profile import docusaurus_site
from tools.sources.generators.html.profile import html_site
from tools.sources.generators.mintlify.profile import mintlify_site
from tools.sources.generators.mkdocs.profile import mkdocs_site
from tools.sources.generators.plain.profile import markdown_site
from tools.sources.generators.sphinx.build import rtd_sphinx_conf
from tools.sources.generators.sphinx.profile import sphinx_site
from tools.sources.site import Site

log = logging.getLogger(__name__)


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


def _config_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(generator, config file) candidates: the folder itself first, then the one above it.

    A conf.py that the repository's Read the Docs file names (`sphinx: configuration:`) comes
    first when it lies in the folder (at any depth, `docs/html/conf.py`) or the one above it:
    that is the configuration the site is built with.
    """
    named = rtd_sphinx_conf(root)
    if named is not None:
        yield "sphinx", named
    for folder in (root, root.parent):
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            if (folder / name).is_file():
                yield "mkdocs", folder / name
        for conf in (folder / "conf.py", folder / "source" / "conf.py"):
            if conf.is_file():
                yield "sphinx", conf
        for conf in sorted(folder.glob("docusaurus.config.*")):
            yield "docusaurus", conf
        for name in ("docs.json", "mint.json"):
            if (folder / name).is_file():
                yield "mintlify", folder / name
    yield from (("docusaurus", conf) for conf in sibling_docusaurus_configs(root))
    # A released version of Docusaurus docs: `<site>/versioned_docs/version-X`.
    if root.name.startswith("version-") and root.parent.name.endswith("versioned_docs"):
        for conf in sorted(root.parent.parent.glob("docusaurus.config.*")):
            yield "docusaurus", conf


def detect_generator(root: Path) -> tuple[str, Path | None]:
    """The generator the folder is built with and its configuration file (`markdown`, None: none)."""
    for generator, path in _config_files(root):
        return generator, path
    if any(root.glob("*.html")) and not any(root.rglob("*.md")):
        return "html", None
    return "markdown", None


def detect_site(root: Path, options: SiteOptions | None = None) -> Site:
    """The site profile of a docs folder: detected generator, its config, then the settings' overrides."""
    options = options or SiteOptions()
    root = root.resolve()
    generator, config = detect_generator(root)
    if options.generator not in ("", "auto"):
        generator = options.generator
        config = next((p for g, p in _config_files(root) if g == generator), None)
    build = PROFILES.get(generator)
    try:
        if build is None:
            log.warning(
                "no site profile for %r installed: %s read with the defaults", generator, root
            )
            site = Site(generator=generator, config=str(config or ""))
        else:
            site = build(root, config)
    except Exception as exc:  # noqa: BLE001 — a broken config must not stop the source
        log.warning("could not read %s (%s); using the %s defaults", config, exc, generator)
        site = Site(generator=generator, config=str(config or ""))
    return apply_options(site, options)


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
        if site.xrefs is not None:  # links in page text follow the pages' addresses
            builder = "dirhtml" if options.url_style == "directory" else "html"
            changes["xrefs"] = replace(site.xrefs, builder=builder)
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
    return replace(site, **changes) if changes else site


ProfileFn = Callable[[Path, Path | None], Site]
PROFILES: dict[str, ProfileFn] = {
    "markdown": markdown_site,
    "mkdocs": mkdocs_site,
    "docusaurus": docusaurus_site,
    "mintlify": mintlify_site,
    "html": html_site,
    "sphinx": sphinx_site,
}
