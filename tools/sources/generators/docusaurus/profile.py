"""The Docusaurus site profile: `url` + `baseUrl` + the docs route, versions, sidebar, partials."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.docusaurus.config import read_docusaurus_config
from tools.sources.generators.docusaurus.rules import DocusaurusRules
from tools.sources.generators.docusaurus.sidebar import sidebar_docs, sidebar_file
from tools.sources.generators.docusaurus.versions import docs_version
from tools.sources.site import PART_FOLDERS, Site

# Docusaurus leaves out files and folders whose name starts with `_` (partials), and test
# folders (its default `exclude`).
_DOCUSAURUS_NOT_PAGES = ("_*", "__tests__", *PART_FOLDERS)


def docusaurus_site(root: Path, config_path: Path | None) -> Site:
    """Docusaurus: `url` + `baseUrl` + the docs route, front-matter `id`/`slug`, `_` files are partials.

    The config is JavaScript; only its literals are read (it is not run), and the docs
    plugin's options are those of the plugin whose `path` is this folder. A computed value
    falls back to Docusaurus' default with a warning; settings say it instead (docs/sources.md).
    """
    if config_path is None:
        return Site(
            rules=DocusaurusRules(route_base="docs"),
            slug="github",
            not_pages=_DOCUSAURUS_NOT_PAGES,
        )
    config = read_docusaurus_config(config_path)
    options = config.docs_options(root)
    env = "DOCS_AGENT_DOCS_BASE_URL"
    url = str(config.top("url", "", env)).rstrip("/")
    base = str(config.top("baseUrl", "/", env))
    route = str(config.value(options.get("routeBasePath"), "routeBasePath", "docs", env))
    version = docs_version(root, config, options)
    route = "/".join(p for p in (route.strip("/"), version.segment) if p)
    # `trailingSlash` undefined: each permalink as computed (a folder's index doc ends with
    # `/`); true: every one does; false: none does.
    trailing = config.top("trailingSlash", None, "DOCS_AGENT_DOCS_URL_STYLE")
    style = {True: "directory", False: "plain"}.get(trailing, "index-slash")
    exclude = config.value(
        options.get("exclude"), "the docs plugin's exclude", [], "DOCS_AGENT_DOCS_EXCLUDE"
    )
    sidebar = version.sidebar
    if sidebar is None:
        named = config.value(options.get("sidebarPath"), "sidebarPath", None, "DOCS_AGENT_DOCS_NAV")
        if named is not False:  # `sidebarPath: false`: no sidebar
            sidebar = sidebar_file(config_path.parent, named if isinstance(named, str) else "")
    nav = sidebar_docs(root, sidebar) if sidebar is not None else None
    return Site(
        rules=DocusaurusRules(route_base=route),
        base_url=(url + "/" + base.strip("/")).rstrip("/") if url else "",
        url_style=style,
        slug="github",
        nav=nav,
        # The plugin's globs are relative to the docs folder: `README.md` is the top one only.
        exclude=tuple(g if "/" in g else f"./{g}" for g in map(str, exclude)),
        not_pages=_DOCUSAURUS_NOT_PAGES,
        built=None if version.built else (),
        # The site's folder: `@site/…` imports start there.
        project_root=str(config_path.parent.resolve()),
        config=str(config_path),
    )
