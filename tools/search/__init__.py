"""Persistent, incremental lexical index of whole pages, ranked by their sections' BM25.

Pages are stored whole (the tools read whole pages) but ranked by their sections: a page that
answers in one section should not lose to a long page that mentions every word once. The BM25
itself is tantivy's (a well-kept engine, level with our former own postings and BM25F within
noise on every corpus: docs/sources.md); what no library has, the ranking policy over it, is
ours. It finds the right page far more often than FTS5 or tantivy over whole pages
(bench/engines.py, bench/search_speed.py).

Modules, in the order a page travels:
- `analysis`: what is kept of a parsed page (terms per field, word pairs, snippet prose, links);
  tokenising is `tools.text.index_terms`, shared with queries.
- `storage`: the SQLite file (pages, sections, the lexical engine's generation) and its
  incremental sync by content hash; `lexical`: the tantivy indexes of sections and page titles,
  one generation per SQLite snapshot.
- `scoring`: the ranking policy over tantivy's BM25: pages ranked by their sections, title
  field, anchor field and link prior, and calibrated scores; `phrases`: re-ranking by the
  query's word pairs; `snippets`.
- `index`: `SearchIndex`, storage and scoring behind one lock; `merge`: one ranking from
  several indexes' calibrated scores.
- `vectors`, `embeddings`, `fusion`: section vectors (int8, memory-mapped, one page row per
  page, built behind the lexical index) and their fusion with a weak lexical ranking.
- `snapshot`: published, immutable generations of all of it, read by any number of replicas.
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
