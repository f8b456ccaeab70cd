"""The source contract: what the rest of the code sees of any docs folder, whatever its format.

Records (defined with the Markdown reader, which was first; every reader produces them):

- `Page`: a file's page: `title`, `description`, `meta` (front matter, nav position, extra ids)
  and its `sections` in document order; `heading_paths()` gives each section's heading trail;
- `Section`: a heading and the clean text under it: `heading` (plain words, no markup),
  `level`, `text` (Markdown, code fenced with its language), `anchor` (the id the site gives
  the heading, cited as `url#anchor`), `ids` (other ids the site serves for it: explicit
  targets, labels), `anchors` (all of them) and `code_blocks` (`CodeBlock(language, code)`);
- `Site`: the generator's profile: `url_for(rel, meta)`, `is_page(rel)`, `reader_for(rel)`,
  `title_for(rel)`, `nav_position(rel)`.

Behind it, one reader per markup (`READERS`, tools/sources/readers.py) and one profile per
generator (`PROFILES`, tools/sources/profiles.py), chosen from the folder's content. A source
(`DocsSource`: a folder, an llms.txt site) lists and syncs its pages into a search index and
answers `search`, `find` and `get` with `Hit` and `Document` records (tools/search/records.py).
"""

from __future__ import annotations

from typing import Protocol

from tools.search.records import Document, Hit, SyncStats
from tools.sources.readers import READERS, read_page
from tools.sources.records import CodeBlock, Page, Section
from tools.sources.registry import PROFILES, SiteOptions, detect_site
from tools.sources.site import Site

__all__ = [
    "PROFILES",
    "READERS",
    "CodeBlock",
    "DocsSource",
    "Page",
    "Section",
    "Site",
    "SiteOptions",
    "detect_site",
    "read_page",
]


class DocsSource(Protocol):
    """What the tools, the citation check and the benches use of a docs source."""

    def sync(self) -> SyncStats:
        """Bring the index in line with the source (changed pages only)."""
        ...

    def search(self, query: str, limit: int, collections: list[str] | None = None) -> list[Hit]:
        """Ranked pages for a query, each with its best section's heading and anchor."""
        ...

    def find(self, ref: str) -> Document | None:
        """A page by URL (with or without anchor), key or path."""
        ...

    def get(self, key: str) -> Document | None:
        """A page by its exact key."""
        ...
