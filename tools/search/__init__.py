"""Persistent, incremental lexical index of whole pages, ranked by section-level BM25F.

Pages are stored whole (the tools read whole pages) but ranked by their sections: a page that
answers in one section should not lose to a long page that mentions every word once. It is
several times faster than FTS5's `bm25()` over section rows and finds the right page far more
often than FTS5 or tantivy over whole pages (bench/engines.py, bench/search_speed.py).

Modules, in the order a page travels:
- `analysis`: what is kept of a parsed page (terms per field, word pairs, snippet prose, links);
  tokenising is `tools.text.index_terms`, shared with queries.
- `storage`: the SQLite file (pages, sections, one postings row per term) and its incremental
  sync by content hash; `postings`: the postings row format.
- `scoring`: BM25F per section, pages ranked by their sections, title field and link prior,
  and calibrated scores; `phrases`: re-ranking by the query's word pairs; `snippets`.
- `index`: `SearchIndex`, storage and scoring behind one lock; `merge`: one ranking from
  several indexes' calibrated scores.
"""

from tools.search.analysis import MAX_INDEXED_CHARS
from tools.search.index import SearchIndex, index_path
from tools.search.merge import merge_rankings
from tools.search.phrases import term_hashes
from tools.search.records import Document, Hit, SourceFile, SyncStats
from tools.search.snippets import snippet_prose

__all__ = [
    "MAX_INDEXED_CHARS",
    "Document",
    "Hit",
    "SearchIndex",
    "SourceFile",
    "SyncStats",
    "index_path",
    "merge_rankings",
    "snippet_prose",
    "term_hashes",
]
