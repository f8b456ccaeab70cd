"""What the search tools tell a model about the corpus language (`DOCS_AGENT_CORPUS_LANGUAGE`).

Why: the pages are written in one language (English by default) and lexical search matches
words. A model that searches in the user's language still gets pages through the vector fusion
(tools/search/fusion.py), but fewer and less precisely; told the corpus language, and told when
a query matched weakly, it can search again with the pages' own terms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tools.search import Hit
from tools.search.fusion import GATE

# Function words of English questions that are not also common words of the other languages
# users write in (no "to", "do", "in": Polish and German have them too).
_ENGLISH_MARKERS = frozenset(
    "the how what why which where when does can should is are my with from not and of".split()
)
_NON_LATIN = re.compile(r"[^\W\d_a-zA-Z]")


def description_note(corpus_language: str) -> str:
    """The sentence the search tools' descriptions end with."""
    lang = corpus_language.strip() or "English"
    return (
        f" The pages are written in {lang}: search with {lang} terms even when the user writes "
        "in another language, and keep identifiers (class, function, option and error names) "
        "exactly as they are."
    )


def in_corpus_language(query: str, corpus_language: str) -> bool | None:
    """Whether the query reads as written in the corpus language: True, False, or None (unsure).

    Only English is recognised (by its function words, and by letters outside ASCII); for
    another corpus language the answer is None.
    """
    if corpus_language.strip().lower() not in {"english", "en"}:
        return None
    words = re.findall(r"[^\W\d_]+", query.lower())
    if any(w in _ENGLISH_MARKERS for w in words):
        return True
    if any(_NON_LATIN.search(w) for w in words):
        return False
    return None


def weak_match_note(hits: Sequence[Hit], query: str, corpus_language: str) -> str:
    """A line for a search result whose query matched the pages' words weakly, else "".

    Weak means the best hit's calibrated score is under the fusion gate (the best page holds
    less than half of what the query says, see tools/search/fusion.py); it is only said for a
    query that does not read as the corpus language, where searching in it is the fix.
    """
    if in_corpus_language(query, corpus_language):
        return ""
    scores = [h.calibrated for h in hits]
    if any(s is None for s in scores):
        return ""
    if hits and max(s or 0.0 for s in scores) >= GATE:
        return ""
    lang = corpus_language.strip() or "English"
    found = "These results were matched mostly by meaning" if hits else "Nothing matched"
    return (
        f"Note: the pages are in {lang} and this query matched their words weakly. {found}; "
        f"search again with the {lang} terms for the question (keep identifiers as they are)."
    )
