"""The order in which the offline model trusts its sources: the search's own merged ranking.

The docs and KB searches of a turn return their hits with calibrated scores (`SearchHitArtifact`);
they are merged here by the very function that merges them for the retrieval figures
(`tools.search.merge_rankings`), so what the offline model reads, and the order in which it quotes,
is the ranking that found the pages — no second scorer over fragments.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, ToolMessage

from tools.search import Hit, merge_rankings

SEARCHES = {"search_docs": "docs", "search_support_articles": "kb"}


@dataclass(frozen=True)
class RankedSource:
    """One docs page or KB article, in merged rank order, with the section that matched best."""

    kind: str  # "docs" | "kb"
    ref: str  # the page URL (docs) or the article id (kb): what the read tool takes
    title: str
    section: str
    anchor: str
    snippet: str = ""

    @property
    def section_ref(self) -> str | None:
        """What to pass as `section` to read just the matching part; None for the whole page."""
        if not self.section or self.section == self.title:
            return None
        return self.anchor or self.section


def _hits(message: ToolMessage, kind: str) -> list[Hit]:
    hits = []
    for a in message.artifact if isinstance(message.artifact, list) else []:
        if not isinstance(a, dict):
            continue
        ref = str(a.get("url") if kind == "docs" else a.get("id") or "")
        if not ref:
            continue
        score = a.get("score")
        hits.append(
            Hit(
                key=ref,
                # merge_rankings lists a page once per URL; an article without one is its own.
                url=str(a.get("url") or f"kb:{ref}"),
                title=str(a.get("title") or ref),
                collection=str(a.get("collection") or ""),
                score=float(score or 0.0),
                section=str(a.get("section") or ""),
                anchor=str(a.get("anchor") or ""),
                snippet=str(a.get("snippet") or ""),
                calibrated=float(score) if isinstance(score, int | float) else None,
            )
        )
    return hits


def ranked_sources(messages: Iterable[BaseMessage], limit: int = 10) -> list[RankedSource]:
    """The docs and KB hits of these messages in merged order (the latest non-empty search each)."""
    latest: dict[str, list[Hit]] = {}
    for m in messages:
        if isinstance(m, ToolMessage) and m.status != "error" and m.name in SEARCHES:
            kind = SEARCHES[m.name]
            hits = _hits(m, kind)
            if hits:
                latest[kind] = hits
    rankings = [(kind, latest[kind]) for kind in ("docs", "kb") if kind in latest]
    return [
        RankedSource(kind, h.key, h.title, h.section, h.anchor, h.snippet)
        for kind, h in merge_rankings(rankings, limit=limit)
    ]
