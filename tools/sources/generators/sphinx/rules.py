"""What Sphinx decides beyond the common site fields: MyST pages, cross-reference targets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from tools.sources.site import GeneratorRules, Site

if TYPE_CHECKING:  # only a hint: importing the registry does not import docutils
    from tools.sources.generators.sphinx.targets import XrefTargets


@dataclass(frozen=True)
class SphinxRules(GeneratorRules):
    """Sphinx: `.rst` pages, and `.md` ones as MyST when conf.py loads myst-parser / myst-nb.

    `xrefs`: where each label, document and described object is (cross-references become
    links). Site-wide like the navigation, and like it no part of the index's identity (not in
    repr).
    """

    name: str = "sphinx"
    xrefs: XrefTargets | None = field(default=None, repr=False, compare=False)
    myst: bool = False

    # nbsphinx and myst-nb read a notebook's Markdown cells as MyST.
    notebook_reader: ClassVar[str] = "myst"
    base_url_setting: ClassVar[str] = "html_baseurl (conf.py)"

    def reader_for(self, site: Site, rel: str) -> str | None:
        """MyST for `.md` pages when the project reads MyST; the rest as on any site."""
        if self.myst and rel.lower().endswith((".md", ".markdown")):
            return "myst"
        return super().reader_for(site, rel)

    def with_url_style(self, url_style: str) -> SphinxRules:
        """Links in page text follow the pages' addresses: `directory` is the dirhtml builder's."""
        if self.xrefs is None:
            return self
        builder = "dirhtml" if url_style == "directory" else "html"
        return replace(self, xrefs=replace(self.xrefs, builder=builder))

    @property
    def uses_changed(self) -> Callable[[Mapping[str, str]], bool] | None:
        """Whether a target a page's references used moved (the page is read again then)."""
        return self.xrefs.uses_changed if self.xrefs is not None else None
