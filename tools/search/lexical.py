"""The lexical engine: tantivy scores sections (heading trail, body) and page titles by BM25.

Why tantivy: a fair benchmark (bench/engines_lexical.py, last at d2f65fa; docs/sources.md) put it level with our
own postings and BM25F within noise on two corpora and ahead on the third, with our page-ranking
policy (tools/search/scoring.py) unchanged on top; a well-kept engine then beats keeping our own.
It indexes our analyzer's terms (`tools.text.index_terms`, computed in tools/search/analysis.py)
through a whitespace tokenizer, so no word is cut or stemmed differently from the rest of search.

Two tantivy indexes per source index, as the benchmark measured them: `sections` (one document
per section with terms: fields `body`, `head`, fast field `sec` = our section id) and `titles`
(one per page: field `title`, fast field `doc` = our page id); both carry the page key (`key`,
raw) so a changed page is deleted by key and added again.

Generations: the SQLite file (tools/search/storage.py) names the generation its rows belong to,
in the same transaction that writes them. A sync writes generation N+1 in a directory of its own
(hard links to N's immutable segment files, then its deletes and adds, one commit, merges
finished) before SQLite commits; a reader opens the generation its SQLite snapshot names. So a
search always reads the section ids of the rows it ranks with, whichever process rebuilt the
index and however far it got. The two newest generations are kept (a reader may still be
between its snapshot and opening the directory); older ones are removed.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import tantivy

from tools.search.anchors import ANCHOR_WEIGHT

log = logging.getLogger(__name__)

TOKENIZER = "ws"
# A section's own words (body and heading trail, one field: BM25F with equal field weights is
# BM25 over their concatenation) and its anchor words (link texts, link-list descriptions), which
# count `ANCHOR_WEIGHT` of an own word (tools/search/anchors.py).
SECTION_FIELDS = ("text", "anchor")
FIELD_BOOST = {"anchor": ANCHOR_WEIGHT}
TITLE_FIELDS = ("title",)
# tantivy's BM25 saturation constant (its fixed k1), used where our policy needs the same scale
# (the calibration ceiling, the anchor field, the vector gate).
K1 = 1.2
# One indexing thread: the machine is shared, and a build is bounded by analysis, not this.
WRITER_HEAP = 64_000_000


def _schema(fields: Sequence[str], id_field: str) -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    for name in fields:
        builder.add_text_field(name, tokenizer_name=TOKENIZER, index_option="freq")
    builder.add_text_field("key", tokenizer_name="raw", index_option="basic")
    builder.add_unsigned_field(id_field, indexed=False, fast=True)
    return builder.build()


_KINDS = {"sections": (SECTION_FIELDS, "sec"), "titles": (TITLE_FIELDS, "doc")}


def _open(path: Path, kind: str) -> tantivy.Index:
    fields, id_field = _KINDS[kind]
    path.mkdir(parents=True, exist_ok=True)
    index = tantivy.Index(_schema(fields, id_field), path=str(path), reuse=True)
    index.register_tokenizer(
        TOKENIZER, tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build()
    )
    return index


def generation_dir(root: Path, generation: int) -> Path:
    """Where one generation of an index's tantivy files lives."""
    return root / f"g{generation:08d}"


def _generations(root: Path) -> list[int]:
    if not root.is_dir():
        return []
    return sorted(int(p.name[1:]) for p in root.iterdir() if p.name[1:].isdigit())


def _link_copy(src: Path, dst: Path) -> None:
    """Copy a generation by hard links (segment files are never rewritten), skipping locks."""
    for dirpath, _, files in os.walk(src):
        target = dst / Path(dirpath).relative_to(src)
        target.mkdir(parents=True, exist_ok=True)
        for name in files:
            if name.endswith(".lock"):
                continue
            try:
                os.link(Path(dirpath) / name, target / name)
            except OSError:  # a file system without hard links
                shutil.copy2(Path(dirpath) / name, target / name)


def _document(key: str, id_field: str, value: int, texts: dict[str, str]) -> tantivy.Document:
    doc = tantivy.Document()
    doc.add_text("key", key)
    doc.add_unsigned(id_field, value)
    for name, text in texts.items():
        doc.add_text(name, text)
    return doc


class LexicalWriter:
    """The next generation of an index's tantivy files, written during one sync.

    Opened by the one writer (the caller holds `storage.build_lock`); nothing is visible to
    readers until the caller stores `generation` in SQLite and commits. `inherit=False` starts
    from nothing (the current generation is unreadable: every page is added again).
    """

    def __init__(self, root: Path, current: int, inherit: bool = True) -> None:
        self.root = root
        self.current = current
        self.generation = current + 1
        self.path = generation_dir(root, self.generation)
        if self.path.exists():  # left by a sync that failed before SQLite committed
            shutil.rmtree(self.path)
        old = generation_dir(root, current)
        if inherit and current and old.is_dir():
            _link_copy(old, self.path)
        self._indexes = {kind: _open(self.path / kind, kind) for kind in _KINDS}
        self._writers = {
            kind: index.writer(heap_size=WRITER_HEAP, num_threads=1)
            for kind, index in self._indexes.items()
        }

    def delete(self, key: str) -> None:
        """Drop a page's sections and title."""
        for writer in self._writers.values():
            writer.delete_documents_by_term("key", key)

    def add(
        self,
        key: str,
        doc_id: int,
        title_terms: str,
        sections: Sequence[tuple[int, str, str, str]],
    ) -> None:
        """Add a page: its title-field terms and (section id, own, anchor, heading-trail terms)."""
        writers = self._writers
        for sec_id, own, anchor, head in sections:
            text = f"{own} {head}" if own and head else own or head
            if text or anchor:  # a section without terms is no document (as benchmarked)
                writers["sections"].add_document(
                    _document(key, "sec", sec_id, {"text": text, "anchor": anchor})
                )
        if title_terms:
            writers["titles"].add_document(_document(key, "doc", doc_id, {"title": title_terms}))

    def commit(self) -> None:
        """Write everything and finish merging: the generation's files are final after this."""
        for writer in self._writers.values():
            writer.commit()
        for writer in self._writers.values():
            writer.wait_merging_threads()
        self._writers.clear()
        self._indexes.clear()

    def discard(self) -> None:
        """Remove the unpublished generation (the sync failed)."""
        for writer in self._writers.values():
            try:
                writer.rollback()
            except Exception:  # the directory goes anyway
                log.debug("tantivy rollback failed", exc_info=True)
        self._writers.clear()
        self._indexes.clear()
        shutil.rmtree(self.path, ignore_errors=True)

    def prune(self) -> None:
        """After SQLite committed this generation: remove all but it and the one before."""
        for generation in _generations(self.root):
            if generation < self.current or generation > self.generation:
                shutil.rmtree(generation_dir(self.root, generation), ignore_errors=True)


def has_generation(root: Path, generation: int) -> bool:
    """Whether the generation SQLite names is on disk and of this schema (0: empty, always).

    A generation deleted by hand, or written with other fields (an older build of this code),
    is not: the writer then indexes every page again.
    """
    if not generation:
        return True
    try:
        LexicalReader(root, generation)
    except (OSError, ValueError):
        return False
    return True


def _idf(n: int, df: int) -> float:
    """BM25's idf, as tantivy computes it."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


class LexicalReader:
    """One generation's searchers: the section and title scores a search ranks pages with."""

    def __init__(self, root: Path, generation: int) -> None:
        self.generation = generation
        self._searchers: dict[str, Any] = {}
        self._schemas: dict[str, Any] = {}
        if not generation:
            return
        path = generation_dir(root, generation)
        for kind in _KINDS:
            if not (path / kind / "meta.json").is_file():
                raise FileNotFoundError(f"lexical index generation missing: {path / kind}")
            index = _open(path / kind, kind)
            index.config_reader(reload_policy="Manual", num_warmers=0)
            self._schemas[kind] = index.schema
            self._searchers[kind] = index.searcher()

    def _query(self, kind: str, terms: Sequence[str]) -> Any:
        """Every term in every field; in a section, each field under the section's idf.

        tantivy gives each field its own idf, so a word common in sections but rare as link
        text would weigh more as an anchor word than as an own word. Each field's clause is
        boosted by (section idf / field idf) × its field weight: a term is as rare in a section
        whichever field holds it, as in BM25F, and an anchor word counts `ANCHOR_WEIGHT` of an
        own one.
        """
        schema = self._schemas[kind]
        searcher = self._searchers[kind]
        if kind == "titles":
            return tantivy.Query.boolean_query(
                [
                    (tantivy.Occur.Should, tantivy.Query.term_query(schema, field, term))
                    for term in terms
                    for field in TITLE_FIELDS
                ]
            )
        n = searcher.num_docs
        clauses = []
        for term in terms:
            dfs = {field: searcher.doc_freq(field, term) for field in SECTION_FIELDS}
            section_idf = _idf(n, max(dfs.values()))
            for field, df in dfs.items():
                if not df:
                    continue
                boost = FIELD_BOOST.get(field, 1.0) * section_idf / _idf(n, df)
                query = tantivy.Query.term_query(schema, field, term)
                clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(query, boost)))
        return tantivy.Query.boolean_query(clauses)

    def _scores(
        self, kind: str, terms: Sequence[str], limit: int, size: int
    ) -> np.ndarray[Any, Any]:
        """Scores of the `limit` best documents as an array by our id (`size` long)."""
        out = np.zeros(size, np.float64)
        searcher = self._searchers.get(kind)
        if searcher is None or not terms:
            return out
        hits = searcher.search(self._query(kind, terms), limit, count=False).hits
        if not hits:
            return out
        ids = np.array(
            searcher.fast_field_values(
                "sec" if kind == "sections" else "doc", [a for _, a in hits]
            ),
            np.int64,
        )
        scores = np.array([s for s, _ in hits], np.float64)
        inside = ids < size  # same generation as the rows; a guard, not a filter that matters
        out[ids[inside]] = scores[inside]
        return out

    def section_scores(self, terms: Sequence[str], limit: int, size: int) -> np.ndarray[Any, Any]:
        """BM25 of the best `limit` sections (heading trail and body, summed), by section id."""
        return self._scores("sections", terms, limit, size)

    def title_scores(self, terms: Sequence[str], limit: int, size: int) -> np.ndarray[Any, Any]:
        """BM25 of the best `limit` pages' title fields (title, description, path), by page id."""
        return self._scores("titles", terms, limit, size)

    def section_term_weights(self, terms: Sequence[str], n_sections: int) -> list[float]:
        """Each matched term's idf × (k1 + 1) over sections: the calibration's ceiling parts.

        A term's section frequency is its larger field's (body or heading trail).
        """
        searcher = self._searchers.get("sections")
        if searcher is None:
            return []
        weights = []
        for term in terms:
            df = max(searcher.doc_freq(field, term) for field in SECTION_FIELDS)
            if df:
                weights.append((K1 + 1.0) * math.log(1.0 + (n_sections - df + 0.5) / (df + 0.5)))
        return weights

    def terms_with_prefix(self, prefix: str, limit: int) -> list[tuple[str, int]]:
        """Section terms that begin with `prefix`, with their section counts, most common first.

        tantivy walks its term dictionary (a sorted FST) for this: what an instant search
        completes the word being typed with (server/web/search.py).
        """
        searcher = self._searchers.get("sections")
        if searcher is None or not prefix:
            return []
        found = searcher.terms_with_prefix(SECTION_FIELDS[0], prefix, limit=limit)
        return [(str(term), int(count)) for term, count in found]

    def known_terms(self, terms: Sequence[str]) -> set[str]:
        """Those of the terms some section or title holds."""
        known: set[str] = set()
        for kind, fields in (("sections", SECTION_FIELDS), ("titles", TITLE_FIELDS)):
            searcher = self._searchers.get(kind)
            if searcher is None:
                continue
            known.update(
                t for t in terms if t not in known and any(searcher.doc_freq(f, t) for f in fields)
            )
        return known
