"""A Sphinx project as a site: which files are pages, their URLs, and the toctree navigation.

Pages, URLs and navigation follow `sphinx-build -b html`: `<docname>.html` under `html_baseurl`,
`exclude_patterns` with Sphinx's glob rules, `:orphan:` pages still built, and a file only pulled in
by `.. include::` is a fragment, not a page. conf.py is read by config.py, never run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

from tools.sources.generators.sphinx.config import SphinxConfig, read_conf
from tools.sources.generators.sphinx.options import RstOptions
from tools.sources.generators.sphinx.rst import parse_rst
from tools.sources.generators.sphinx.targets import (
    PageTargets,
    XrefTargets,
    merge_targets,
    recording_xref_uses,
)
from tools.sources.generators.sphinx.toctree import toctree_blocks
from tools.sources.generators.sphinx.xref_scan import scan_page
from tools.sources.records import Page

# Jupyter's autosave copies are never pages (nbsphinx excludes them too).
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", ".tox", ".ipynb_checkpoints"}
# Sphinx adds these to every project's exclusions (sphinx/project.py, EXCLUDE_PATHS).
_ALWAYS_EXCLUDED = ("**/_sources", ".#*", "**/.#*", "*.lproj/**")


@lru_cache(maxsize=256)
def _pattern(glob: str) -> re.Pattern[str]:
    """Sphinx's glob (sphinx/util/matching.py): `**` crosses folders, `*` and `?` do not."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = glob.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = glob[i + 1 : end]
                neg = body.startswith("!")
                out.append("[" + ("^/" if neg else "") + re.escape(body.lstrip("!")) + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def excluded(rel_path: str, patterns: Iterable[str]) -> bool:
    """Whether a path (or one of its folders) matches one of Sphinx's `exclude_patterns`."""
    parts = rel_path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(_pattern(p).match(prefix) for p in patterns for prefix in prefixes)


@lru_cache(maxsize=32)
def _cached_site(root: str, mtime: float) -> SphinxSite:
    return SphinxSite(Path(root))


def _cached_options(root: str, mtime: float) -> RstOptions:
    return _cached_site(root, mtime).options


def sphinx_config(root: Path) -> SphinxConfig:
    """The conf.py settings of a Sphinx folder, read once (until conf.py changes)."""
    conf = root / "conf.py"
    return _cached_site(str(root), conf.stat().st_mtime if conf.is_file() else 0.0).config


def sphinx_options(root: Path) -> RstOptions:
    """The reader options of a Sphinx folder, read from its conf.py once (until it changes).

    For callers that parse page by page (worker processes): `parse_rst(rel, text, options)`.
    """
    conf = root / "conf.py"
    mtime = conf.stat().st_mtime if conf.is_file() else 0.0
    return _cached_options(str(root), mtime)


@dataclass
class Navigation:
    """The toctree graph: each page's toctree children, and what the root doc reaches.

    `reachable` is in navigation order (breadth first from the root document); `parents` gives
    each listed page its place: the page that reaches it first from the root, else the first
    page (by path) that lists it.
    """

    children: dict[str, list[str]] = field(default_factory=dict)
    listed: set[str] = field(default_factory=set)
    reachable: list[str] = field(default_factory=list)
    parents: dict[str, str] = field(default_factory=dict)

    def parent_of(self, docname: str) -> str | None:
        """The page under which `docname` sits in the navigation (None for the root, orphans)."""
        return self.parents.get(docname)


class SphinxSite:
    """A Sphinx source folder (with `conf.py`): its pages, their URLs and its navigation."""

    def __init__(self, root: Path, config: SphinxConfig | None = None) -> None:
        self.root = root
        conf = root / "conf.py"
        self.config = config or (read_conf(conf) if conf.is_file() else SphinxConfig())
        self.options = self.config.rst_options(root)

    def docname(self, rel_path: str) -> str:
        """`how-to/fixtures.rst` → `how-to/fixtures` (Sphinx's document name)."""
        for suffix in self.config.source_suffixes:
            if rel_path.endswith(suffix):
                return rel_path[: -len(suffix)]
        return rel_path.rsplit(".", 1)[0]

    def is_myst(self, rel_path: str) -> bool:
        """Whether the file is read as MyST: a Markdown page of a project that enables MyST, or a notebook."""
        lower = rel_path.lower()
        if lower.endswith(".ipynb"):
            return self.config.reads_notebooks
        return self.config.reads_myst and lower.endswith((".md", ".markdown"))

    def is_rst(self, rel_path: str) -> bool:
        """Whether the file is reStructuredText (a Sphinx site may also hold MyST Markdown)."""
        return rel_path.endswith(self.config.rst_suffixes)

    def url_for(self, rel_path: str) -> str:
        """The built page's address: `html_baseurl` + docname + `.html` (the canonical link)."""
        page = self.docname(rel_path) + self.config.html_file_suffix
        base = self.config.html_baseurl
        return (base.rstrip("/") + "/" + page) if base else page

    def source_files(self) -> list[str]:
        """Every source file Sphinx would build, relative to the root, sorted."""
        patterns = (
            *self.config.exclude_patterns,
            *self.config.templates_path,
            *_ALWAYS_EXCLUDED,
        )
        out: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            rel_dir = Path(dirpath).relative_to(self.root).as_posix()
            for name in filenames:
                if not name.endswith(self.config.source_suffixes):
                    continue
                rel = name if rel_dir == "." else f"{rel_dir}/{name}"
                if not excluded(rel, patterns):
                    out.append(rel)
        return sorted(out)

    def parse(self, rel_path: str, text: str | None = None) -> Page:
        """The page of one source file (read from disk unless `text` is given)."""
        path = self.root / rel_path
        if text is None:
            text = path.read_text(encoding="utf-8", errors="replace")
        return parse_page(
            rel_path, text, replace(self.options, xrefs=self.xrefs), self.config, path
        )

    def navigation(self, pages: Mapping[str, Page]) -> Navigation:
        """Toctree children of each page and the pages reachable from the root document."""
        docnames = {self.docname(rel): rel for rel in pages}
        nav = Navigation()
        for rel, page in pages.items():
            doc = self.docname(rel)
            kids: list[str] = []
            for toctree in page.meta.get("toctrees", ()):
                for entry in toctree.get("entries", ()):
                    kids.extend(self._resolve(doc, entry["target"], toctree.get("glob"), docnames))
            nav.children[doc] = list(dict.fromkeys(k for k in kids if k != doc))
            nav.listed.update(nav.children[doc])
        root_doc = self.config.root_doc
        seen = {root_doc}
        queue = [root_doc] if root_doc in docnames else []
        while queue:
            doc = queue.pop(0)
            nav.reachable.append(doc)
            for kid in nav.children.get(doc, ()):
                if kid not in seen:
                    seen.add(kid)
                    nav.parents[kid] = doc
                    queue.append(kid)
        for doc in sorted(nav.children):
            for kid in nav.children[doc]:
                nav.parents.setdefault(kid, doc)
        return nav

    @staticmethod
    def _resolve(
        doc: str, target: str, glob: bool | None, docnames: Mapping[str, str]
    ) -> list[str]:
        """A toctree entry as document names: relative to the page's folder, `/` from the root."""
        if "://" in target or target.startswith("mailto:") or target == "self":
            return []
        folder = doc.rsplit("/", 1)[0] if "/" in doc else ""
        path = (
            target[1:] if target.startswith("/") else (f"{folder}/{target}" if folder else target)
        )
        path = os.path.normpath(path).replace(os.sep, "/")
        if path not in docnames and path.rsplit(".", 1)[0] in docnames:
            path = path.rsplit(".", 1)[0]  # an entry may name the file (`install.rst`)
        if glob and any(c in target for c in "*?["):
            pattern = _pattern(path)
            return sorted(d for d in docnames if pattern.match(d))
        return [path] if path in docnames else []

    def quick_navigation(self) -> Navigation:
        """The toctree navigation from the toctree directives alone (no full parse of pages)."""
        return self.scan()[0]

    def scan(self) -> tuple[Navigation, XrefTargets]:
        """The navigation and the cross-reference targets, from one read of every source file.

        Neither needs a full parse: the toctree directives are parsed on their own, the
        targets are read from their lines (`tools.sources.generators.sphinx.targets`).
        """
        from tools.sources.generators.sphinx.myst.page import myst_toctree_blocks, scan_myst_page
        from tools.sources.notebook import notebook_markdown

        pages: dict[str, Page] = {}
        targets: list[PageTargets] = []
        for rel in self.source_files():
            text = (self.root / rel).read_text(encoding="utf-8", errors="replace")
            if rel.lower().endswith(".ipynb"):
                text = notebook_markdown(text).text
            myst = self.is_myst(rel)
            blocks = myst_toctree_blocks(text) if myst else toctree_blocks(text)
            toctrees = (
                parse_rst(rel, "\n\n".join(blocks), self.options).meta.get("toctrees", [])
                if blocks
                else []
            )
            pages[rel] = Page(rel, "", "", [], {"toctrees": toctrees})
            # A Markdown (MyST) page is a `:doc:` target too; its own links are Markdown already.
            rst = self.is_rst(rel)
            doc = self.docname(rel)
            if myst:
                targets.append(scan_myst_page(doc, text, self.options))
            else:
                targets.append(scan_page(doc, text, self.options) if rst else PageTargets(doc))
        return self.navigation(pages), merge_targets(targets, self.config.html_file_suffix)

    @cached_property
    def xrefs(self) -> XrefTargets:
        """The site's cross-reference targets (scanned once, on first use)."""
        return self.scan()[1]

    def pages(self, parsed: Mapping[str, Page]) -> list[str]:
        """The files that are pages: not excluded, and not a fragment only included elsewhere."""
        included = {dep for page in parsed.values() for dep in page.meta.get("includes", ())}
        listed = self.navigation(parsed).listed
        return [
            rel
            for rel in parsed
            if rel not in included
            or self.docname(rel) in listed
            or self.docname(rel) == self.config.root_doc
        ]


def read_sphinx_page(rel: str, text: str, root: Path, xrefs: XrefTargets | None = None) -> Page:
    """One page of the Sphinx folder `root`, for callers that read page by page.

    Module-level (worker processes get it by name); conf.py is read once per folder and
    change (`sphinx_options`). `xrefs` are the site's targets (`SphinxSite.scan`, carried by
    the site profile): with them cross-references become links, without them text.
    `page.meta` carries `toctrees`, `orphan`, `includes`, `warnings`, and `lookups`: the
    targets its references looked up, with what each found (`recording_xref_uses`).
    """
    options = sphinx_options(root)
    if xrefs is not None:
        options = replace(options, xrefs=xrefs)
    return parse_page(rel, text, options, sphinx_config(root), root / rel)


def parse_page(rel: str, text: str, options: RstOptions, config: SphinxConfig, path: Path) -> Page:
    """A source file's page: MyST for Markdown where the site reads it (and notebooks), else rst.

    `page.meta["lookups"]` holds the targets its references looked up (`recording_xref_uses`).
    """
    lower = rel.lower()
    with recording_xref_uses() as uses:
        # A notebook comes here as its Markdown (tools/sources/readers.py `read_notebook`).
        if lower.endswith(".ipynb") or (config.reads_myst and lower.endswith((".md", ".markdown"))):
            from tools.sources.generators.sphinx.myst.config import myst_config
            from tools.sources.generators.sphinx.myst.page import parse_myst

            page = parse_myst(rel, text, options, myst_config(config.myst), path)
        else:
            page = parse_rst(rel, text, options, source_path=path)
    if uses:
        page.meta["lookups"] = uses
    return page
