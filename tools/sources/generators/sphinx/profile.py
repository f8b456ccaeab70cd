"""The Sphinx site profile: `html_baseurl`, the builder's URL style, the toctrees' pages, cross-reference targets."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tools.sources.generators.sphinx.build import rtd_builder
from tools.sources.generators.sphinx.rules import SphinxRules
from tools.sources.site import Site


def sphinx_site(root: Path, config_path: Path | None) -> Site:
    """Sphinx: `html_baseurl` + `<docname>.html`, the pages its toctrees list (and the root doc).

    Built with `dirhtml` (`rtd_builder`), pages are `<docname>/` and an `index` its folder.

    conf.py is read, never run (tools/sources/generators/sphinx/config.py); the toctrees are read from their
    directives alone, so the navigation is known before any page is parsed in full. Built pages
    no toctree lists are `:orphan:` pages, and files only pulled in by `.. include::` are parts of
    pages: neither is in the navigation, so neither counts (`DOCS_AGENT_DOCS_NAV=off` keeps every
    file Sphinx builds).
    """
    from tools.sources.generators.sphinx.project import SphinxSite

    source = (config_path.parent if config_path else root).resolve()
    page_dir = ""
    if source != root and source.is_relative_to(root):
        page_dir = source.relative_to(root).as_posix() + "/"
    sphinx = SphinxSite(source)
    built = sphinx.source_files()
    nav, xrefs = sphinx.scan()
    by_doc = {sphinx.docname(rel): rel for rel in built}
    order = [d for d in nav.reachable if d in by_doc]
    listed = sorted((nav.listed | {sphinx.config.root_doc}) - set(order))
    in_nav = [by_doc[d] for d in [*order, *listed] if d in by_doc]
    conf = sphinx.config
    not_pages = tuple(f"{t.strip('/')}/**" for t in conf.templates_path) + ("_build/**",)
    directory = rtd_builder(source, config_path) == "dirhtml"
    return Site(
        rules=SphinxRules(
            xrefs=replace(xrefs, builder="dirhtml" if directory else "html"),
            myst=conf.reads_myst,
        ),
        base_url=conf.html_baseurl,
        url_style="directory" if directory else "html",
        slug="docutils",
        page_dir=page_dir,
        nav=tuple(in_nav) if in_nav else None,
        built=tuple(built),
        not_pages=not_pages,
        project_root=str(source),
        config=str(config_path or ""),
        notebooks=conf.reads_notebooks,
    )
