"""What VitePress decides beyond the common site fields: routes (rewrites, clean URLs), its reader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tools.sources.generators.vitepress.rewrites import Rewrite, rewritten
from tools.sources.site import GeneratorRules, Site

# The Markdown VitePress builds: `.md` only (no MDX).
PAGE_SUFFIX = ".md"


@dataclass(frozen=True)
class VitePressRules(GeneratorRules):
    """VitePress: each `.md` is a page, served at its rewritten path.

    `rewrites` are the config's rules; `clean_urls` drops `.html`; `src_dir` is the pages'
    folder (`@/` of snippet imports and includes starts there) and `files_root` the folder
    imported files may come from (the repository holding the site); `labels` the container
    titles by kind, per locale key (`""`: the config's own); `site_title` the config's title.
    """

    name: str = "vitepress"
    rewrites: tuple[Rewrite, ...] = ()
    clean_urls: bool = False
    src_dir: str = ""
    files_root: str = ""
    labels: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    site_title: str = ""

    nav_lists_pages: ClassVar[bool] = False
    reads_raw: ClassVar[bool] = True

    def reader_for(self, site: Site, rel: str) -> str | None:
        """`.md` files are read by the VitePress reader; other Markdown suffixes are no pages."""
        if rel.lower().endswith(PAGE_SUFFIX):
            return "vitepress"
        return super().reader_for(site, rel) if rel.lower().endswith(".ipynb") else None

    def served_path(self, path: str) -> str:
        """The page's path as VitePress serves it (`en/guide/x.md` → `guide/x.md` by a rewrite)."""
        return rewritten(path, self.rewrites)

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """`guide/x.md` → `guide/x` (`guide/x.html` without clean URLs); `guide/index.md` → `guide/`."""
        stem = self.served_path(path)[: -len(PAGE_SUFFIX)]
        if stem == "index":
            return ""
        if stem.endswith("/index"):
            return stem[: -len("index")]
        return stem if self.clean_urls else stem + ".html"

    def labels_for(self, locale: str | None) -> dict[str, str]:
        """The container labels of a locale (the config's own where the locale sets none)."""
        table = {key: dict(pairs) for key, pairs in self.labels}
        merged = dict(table.get("", {}))
        merged.update(table.get(locale or "", {}))
        return merged
