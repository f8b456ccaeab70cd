"""Fusion of the lexical ranking with section vectors: untouched when confident, blended when weak.

The gate and the weights follow from what the two scores mean, not from a sweep:

- A hit's calibrated lexical score `c` is its BM25 score over the most the query could score
  (every query term saturated in one section, a missing term counted at its idf), scaled by the
  index's typical page gain (`SearchIndex.search`, `merge_rankings`). A query term found once in
  a section of average length earns idf × (k1 + 1) × 1 / (k1 + 1) = idf, i.e. 1 / (k1 + 1) of its
  ceiling. So `c` ≈ 1 / (k1 + 1) ≈ 0.45 reads "every query word is in the best section once",
  and `GATE` = ½ / (k1 + 1) ≈ 0.23 reads "the best page holds at most half of what the query
  says". Above it the words themselves found the page: the lexical ranking is returned
  as it is, and the query is not even embedded (English questions stay exactly as before, and
  as fast). A question in another language matches only its identifiers and loan words, and
  falls below it.
- Below the gate the lexical ranking is still evidence, in proportion to how close it came:
  its weight is w = c_top / GATE (0 when nothing matched, 1 at the gate, so the blend
  joins the untouched ranking without a jump).
- The vector side's evidence for a page is its best section's cosine similarity, measured from
  the query's background (its mean similarity over all sections, what an unrelated section
  scores) as a share of the way to an identical text: e = (cos − bg) / (1 − bg), in [0, 1],
  lifted by the page's link prior exactly as its lexical score is (relative to the median
  page, so the scale stays; `VectorStore.set_priors`).
- The vectors read the words the lexical side could not: the query less the identifiers and
  acronyms that the index holds (`unread_words`). A weak query is often one in another language
  that matched only such words ("LLM", "OpenAI", "API"), written alike in every language; they
  are already counted in `c`, and left in a short sentence they pull its vector to the pages
  about them (every LLM integration page) rather than to the question asked. The blend adds
  the two sides' evidence, which assumes each word counts once. A query left with no word
  has no vector side.
- The blend is w · c + (1 − w) · GATE · e. The vector evidence is put on the lexical scale at
  most at the gate: similarity of meaning alone is never worth more than a borderline lexical
  match. So a fused score stays below every confident source's best hit, and fused results of
  docs and KB still merge on one scale (`merge_rankings`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from tools.search import Hit
from tools.search.lexical import K1
from tools.search.vectors import QUERY_CHARS, VectorStore
from tools.text import index_terms, is_identifier

# The calibrated lexical score at which a ranking is trusted as it is (see the module docstring).
GATE = 0.5 / (K1 + 1.0)
# How many of the closest pages by vector join the candidates: enough to fill any result list
# the tools ask for by default, a small share of a corpus.
VECTOR_CANDIDATES = 20
# Letters and digits all in upper case, two or more, starting with a letter: an acronym.
_ACRONYM_RE = re.compile(r"[A-Z][A-Z0-9]+")
_PUNCTUATION = "¿?¡!.,;:()[]{}\"'«»„“”`"


def unread_words(query: str, known: Callable[[list[str]], set[str]]) -> str:
    """The query without the identifiers and acronyms that the lexical side read.

    Those are the words written alike in every language ("LLM", "OpenAI", `tool_calls`,
    "KeyError"), matched exactly by the index when it holds them (`known`: which index terms
    it holds). Every other word stays, even one the index holds: a word of another language
    that some page happens to quote ("estado", "final") is no lexical evidence worth the
    name, and the encoder needs it to read the sentence.
    """
    tokens = query[:QUERY_CHARS].split()  # all the encoder reads of it
    words = [token.strip(_PUNCTUATION) for token in tokens]
    terms = [index_terms(word) if _written_alike(word) else [] for word in words]
    held = known([t for ts in terms for t in ts])
    return " ".join(tok for tok, ts in zip(tokens, terms, strict=True) if not held.intersection(ts))


def _written_alike(word: str) -> bool:
    """An identifier (CamelCase, snake_case, CONSTANT) or an acronym ("LLM", "API", "GPT4")."""
    return is_identifier(word) or bool(_ACRONYM_RE.fullmatch(word))


def lexical_weight(hits: Sequence[Hit]) -> float | None:
    """The lexical ranking's weight in [0, 1]: 1 means confident (leave it); None: no calibration."""
    if any(h.calibrated is None for h in hits):
        return None
    top = max((h.calibrated or 0.0 for h in hits), default=0.0)
    return min(1.0, top / GATE)


def fuse(
    hits: Sequence[Hit],
    query: str,
    vectors: VectorStore | None,
    limit: int,
    collections: Sequence[str] | None = None,
) -> list[Hit]:
    """The final ranking of one index from its lexical `hits` (best first) and `query`.

    `query` is what the vectors read: the question, or the part of it the lexical side could
    not read (`unread_words`); an empty one leaves the lexical ranking as it is.

    Returns the lexical hits themselves (the first `limit`) when they are confident, carry no
    calibrated score, or there are no vectors; otherwise the blend described in the module
    docstring, with each hit's `score` and `calibrated` set to its fused score. Pages found by
    their vectors alone are kept to `collections` when given, as the lexical search is.
    """
    weight = lexical_weight(hits)
    if vectors is None or weight is None or weight >= 1.0 or not query.strip():
        return list(hits[:limit])
    sim = vectors.similarity(query, [h.key for h in hits])
    if sim is None:
        return list(hits[:limit])
    fused: dict[str, tuple[float, Hit | None]] = {}
    for lexical in hits:
        evidence = sim.evidence(lexical.key)
        score = weight * (lexical.calibrated or 0.0) + (1.0 - weight) * GATE * evidence
        fused[lexical.key] = (score, lexical)
    wanted = set(collections) if collections else None
    for key in sim.top(VECTOR_CANDIDATES, wanted):
        if key not in fused:
            fused[key] = ((1.0 - weight) * GATE * sim.evidence(key), None)
    order = sorted(fused.items(), key=lambda kv: -kv[1][0])[:limit]
    new = [key for key, (_, hit) in order if hit is None]
    described = {info.key: (info, sec) for info, sec in vectors.describe(sim, new)}
    out: list[Hit] = []
    for key, (score, hit) in order:
        if score <= 0:
            continue
        if hit is not None:
            out.append(replace(hit, score=score, calibrated=score))
        elif key in described:
            info, sec = described[key]
            out.append(
                Hit(
                    info.key,
                    info.url,
                    info.title,
                    info.collection,
                    score,
                    section=sec.heading,
                    anchor=sec.anchor,
                    snippet=sec.snippet,
                    calibrated=score,
                )
            )
    return out


def warming_note(source: Any, hits: Sequence[Hit]) -> str:
    """One line for a search whose vector side is still being built, else "".

    Said only when the ranking was weak (the vectors would have been read: a question in
    another language, most often), so the model knows why such a question may find little now.
    """
    vectors: Any = getattr(source, "vectors", None)
    warming = getattr(vectors, "warming", None)
    if vectors is None or not callable(warming) or not warming():
        return ""
    weight = lexical_weight(hits)
    if weight is not None and weight >= 1.0:
        return ""
    done, total = vectors.page_count(), len(source.index)
    return (
        f"Note: search by meaning (for questions in other languages) is still warming up "
        f"({done} of {total} pages so far); results may be incomplete, try again shortly."
    )
