"""The index's former single-module name: its public names, now in the `tools.search` package.

Kept so that code written against `tools.search_index` (branches in flight) still imports;
new code imports from `tools.search`.
"""

from tools.search import (
    Document,
    Hit,
    SearchIndex,
    SourceFile,
    SyncStats,
    index_path,
    merge_rankings,
    snippet_prose,
    term_hashes,
)

__all__ = [
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
