"""What the chat page shows before the first question: welcome, example questions, disclaimer.

A team sets them (`DOCS_AGENT_WEB_WELCOME`, `DOCS_AGENT_WEB_EXAMPLES` joined by `|`,
`DOCS_AGENT_WEB_DISCLAIMER`); the widget can override them per site (query parameters, read by
the page). With nothing set, the examples come from the docs being served: the titles of the
first pages of the site's navigation, or of the shallowest pages when the site has none, so a
fresh install shows topics its readers can really ask about. Welcome and disclaimer then fall
back to the page's own text in the reader's language (the server sends null).
"""

from __future__ import annotations

import logging
from typing import Any

from settings import current
from settings.web import MAX_EXAMPLES, MAX_TEXT, WebSettings

log = logging.getLogger(__name__)


_corpus_examples: list[str] | None = None


def configured(web: WebSettings | None = None) -> dict[str, Any]:
    """The team's own first screen (None / [] where unset; settings/web.py trims and caps it)."""
    web = current().web if web is None else web
    return {"welcome": web.welcome, "examples": list(web.examples), "disclaimer": web.disclaimer}


def titles_in_reading_order(docs: Any, limit: int = MAX_EXAMPLES) -> list[str]:
    """Titles of the first pages a reader of the site meets (the home page left out).

    Navigation order when the site has one; else shallow paths first, alphabetically. A title
    comes from the navigation or, once the index holds the page, from the page itself; a page
    with neither is skipped. Never starts an index build (the first question would wait).
    """
    site = docs.site
    if site.nav:
        rels = list(site.nav[1:])  # the first entry is the home page: not a question
    else:
        keys = docs.index.keys() if getattr(docs, "_synced", False) else []
        rels = sorted(
            (k for k in keys if not k.rsplit("/", 1)[-1].startswith(("index.", "README."))),
            key=lambda k: (k.count("/"), k),
        )
    titles: list[str] = []
    for rel in rels:
        title = site.title_for(rel)
        if not title and getattr(docs, "_synced", False):
            doc = docs.index.get(rel)
            title = doc.title if doc is not None else None
        title = (title or "").strip()
        if title and title not in titles:
            titles.append(title[:MAX_TEXT])
        if len(titles) >= limit:
            break
    return titles


def corpus_examples() -> list[str]:
    """Example topics from the served docs (computed once, when the index can answer)."""
    global _corpus_examples
    if _corpus_examples is not None:
        return _corpus_examples
    try:
        from tools import load_sources

        # Any docs source: a local folder has a site (navigation, titles), an llms.txt site not.
        docs: Any = load_sources().docs
        if docs is None or getattr(docs, "site", None) is None:
            _corpus_examples = []
            return _corpus_examples
        found = titles_in_reading_order(docs)
    except Exception:  # noqa: BLE001 — the first screen must never fail over example topics
        log.warning("first screen: no example topics from the docs", exc_info=True)
        return []
    if found or getattr(docs, "_synced", False) or docs.site.nav:
        _corpus_examples = found  # final; otherwise asked again once the index is built
    return found


def first_screen() -> dict[str, Any]:
    """The first screen's settings as `/chat/api/config` sends them."""
    screen = configured()
    if not screen["examples"]:
        screen["examples"] = corpus_examples()
    return screen
