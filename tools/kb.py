"""Knowledge-base tools in two steps: titles first, then whole articles.

`search_support_articles` returns titles and ids only; `get_article_content` returns whole
articles, at most 5 per call.

Two steps because a KB search that returns bodies floods the context: titles are enough to
choose, and the model reads only what it chose.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from settings.sources import SourceSettings
from tools.artifacts import ArticleArtifact, SearchHitArtifact
from tools.feedback import FEEDBACK_DESCRIPTION, emit_feedback
from tools.presentation.corpus_language import description_note, weak_match_note
from tools.presentation.failures import partial_note, unavailable
from tools.presentation.render import render_document_parts
from tools.presentation.site_links import hit_snippets, page_links, source_links
from tools.search import Hit
from tools.search.embeddings import Embedder, configured_embedder
from tools.search.fusion import warming_note
from tools.sources.contract import KnowledgeBase
from tools.sources.corpus import SUFFIXES, FolderCorpus, UrlRule, repo_prefix
from tools.sources.live.fetch import SourceUnavailable

MAX_ARTICLES_PER_CALL = 5
MAX_SEARCH_RESULTS = 100
ARTICLE_LIMIT = 8_000


def article_id(rel: str) -> str:
    """A KB article's id: its path without extension."""
    return rel.rsplit(".", 1)[0]


def top_folder(rel: str) -> str:
    """A KB article's collection: its top folder (`general` at the top level)."""
    return rel.split("/", 1)[0] if "/" in rel else "general"


class FolderKnowledgeBase(FolderCorpus):
    """KB articles in a folder: ids are paths without extension, top folders are collections."""

    def __init__(
        self,
        root: Any,
        index_dir: Any,
        language: str = "python",
        embedder: Embedder | None = None,
    ) -> None:
        super().__init__(
            root,
            "kb",
            index_dir,
            # With no `source_url` in the frontmatter the citation is the file path itself.
            UrlRule(path_prefix=repo_prefix(root)),
            language=language,
            key_for=article_id,
            collection_for=top_folder,
            url_from_meta="source_url",
            embedder=embedder,
        )

    def search(self, query: str, limit: int, collections: list[str] | None = None) -> list[Hit]:
        """Ranked articles, without snippets: the KB search lists titles and ids only."""
        return self.ranked(query, limit, collections, snippets=False)

    def list_collections(self) -> list[str]:
        """Top folders that hold articles."""
        self.ensure_synced()
        return self.index.collections()


def kb_backend(settings: SourceSettings) -> KnowledgeBase | None:
    """The configured KB: a help-center API when `DOCS_AGENT_KB_URL` is set, else the folder."""
    if settings.kb_url:
        from tools.sources.live.help_center import HelpCenterKnowledgeBase

        return HelpCenterKnowledgeBase(settings.kb_url, settings.kb_token, live=settings.live)
    if settings.kb_dir is not None and has_articles(settings.kb_dir):
        return FolderKnowledgeBase(
            settings.kb_dir,
            settings.index_dir,
            settings.docs_lang,
            configured_embedder(settings.embeddings),
        )
    return None


def has_articles(root: Path) -> bool:
    """Whether a KB folder holds an article: an empty one offers no KB tools."""
    if not root.is_dir():
        return False
    for _, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        if any(n.endswith(SUFFIXES) and not n.startswith(".") for n in filenames):
            return True
    return False


def run_locale(query: str) -> str | None:
    """The user's language as a help-center locale ("pl"), None for English or outside a run.

    From the run's `context.language` when it names one, else read from the query (the
    offline model searches with the user's own words). English is the default locale's.
    """
    try:
        from langgraph.runtime import get_runtime

        runtime = get_runtime()
        setting = str(getattr(getattr(runtime, "context", None), "language", "") or "auto")
    except (ImportError, RuntimeError, LookupError):
        setting = "auto"
    # The detection lives with the offline model's phrases; imported late: tools load alone.
    from graphs.offline.language import resolve_language

    code = resolve_language(setting, query)
    return None if code == "en" else code


class SearchArticlesArgs(BaseModel):
    """Arguments of `search_support_articles`."""

    query: str = Field(description="Keywords: the error message, symptom or question.")
    collections: str = Field(
        default="all", description='"all", or comma-separated collection names to search in.'
    )
    limit: int = Field(default=50, description="How many titles to return (1-100).")
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


class GetArticlesArgs(BaseModel):
    """Arguments of `get_article_content`."""

    article_ids: list[str] = Field(description="Up to 5 article ids from search_support_articles.")
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


def create_kb_tools(kb: KnowledgeBase, corpus_language: str = "English") -> list[BaseTool]:
    """The two-step KB tools over a backend; `corpus_language` is the articles' language.

    Links in the articles shown are the site's URLs where articles have them
    (tools/presentation/site_links.py); otherwise only their text is shown.
    """
    pages = source_links(kb)

    def search_support_articles(
        query: str, collections: str = "all", limit: int = 50, feedback_to_user: str = ""
    ) -> tuple[str, list[SearchHitArtifact]]:
        emit_feedback(feedback_to_user)
        if not query.strip():
            return "The query is empty: give a few keywords.", []
        limit = max(1, min(int(limit), MAX_SEARCH_RESULTS))
        wanted = None
        if collections and collections.strip().lower() != "all":
            wanted = [c.strip() for c in collections.split(",") if c.strip()]
            known = kb.list_collections()
            unknown = [c for c in wanted if c not in known]
            if unknown:
                return (
                    f"Unknown collection(s): {', '.join(unknown)}. Known: {', '.join(known)}.",
                    [],
                )
        try:
            if getattr(kb, "localized", False):
                hits = kb.search(query, limit, wanted, locale=run_locale(query))  # type: ignore[call-arg]
            else:
                hits = kb.search(query, limit, wanted)
        except SourceUnavailable as exc:
            raise unavailable("kb", exc.reason) from exc
        note = weak_match_note(hits, query, corpus_language)
        note = "\n".join(n for n in (note, warming_note(kb, hits)) if n)
        problem = getattr(kb, "sections_problem", None)
        if problem:
            partial = partial_note("kb", f"partly read: their sections did not load ({problem})")
            note = f"{note}\n{partial}" if note else partial
        hits = hit_snippets(hits, pages)
        if not hits:
            return f"No support articles found for {query!r}." + (f"\n{note}" if note else ""), []
        lines = [f"{len(hits)} articles for {query!r} (id — title [collection]):"]
        lines += [f"- {h.key} — {h.title} [{h.collection}]" for h in hits]
        lines.append("Read the relevant ones with get_article_content(article_ids=[...]).")
        if note:
            lines.append(note)
        artifact: list[SearchHitArtifact] = [
            {
                "id": h.key,
                "title": h.title,
                "url": h.url,
                "collection": h.collection,
                "section": h.section,
                "anchor": h.anchor,
                "score": h.calibrated,
                "snippet": h.snippet,
            }
            for h in hits
        ]
        return "\n".join(lines), artifact

    def get_article_content(
        article_ids: list[str], feedback_to_user: str = ""
    ) -> tuple[str, list[ArticleArtifact]]:
        emit_feedback(feedback_to_user)
        ids = [str(i).strip() for i in (article_ids or []) if str(i).strip()]
        if not ids:
            return "No article ids given: pass ids from search_support_articles.", []
        notes: list[str] = []
        if len(ids) > MAX_ARTICLES_PER_CALL:
            notes.append(
                f"Only the first {MAX_ARTICLES_PER_CALL} of {len(ids)} ids were read; "
                f"ask again for: {', '.join(ids[MAX_ARTICLES_PER_CALL:])}."
            )
            ids = ids[:MAX_ARTICLES_PER_CALL]
        parts: list[str] = []
        found: list[ArticleArtifact] = []
        missing: list[str] = []
        failed: dict[str, str] = {}
        for article_id in dict.fromkeys(ids):
            try:
                doc = kb.get(article_id)
            except SourceUnavailable as exc:
                failed[article_id] = exc.reason
                continue
            if doc is None:
                missing.append(article_id)
                continue
            text, sections = render_document_parts(
                doc, limit=ARTICLE_LIMIT, links=page_links(doc.url, doc.key, pages)
            )
            found.append({"id": doc.key, "title": doc.title, "url": doc.url, "sections": sections})
            parts.append(f"## Article {doc.key}\n" + text)
        if failed and not found:
            raise unavailable("kb", next(iter(failed.values())))
        if failed:
            reason = next(iter(failed.values()))
            notes.append(
                partial_note("kb", f"partly read: {', '.join(failed)} could not be read ({reason})")
            )
        if missing:
            notes.append(f"Unknown article id(s): {', '.join(missing)}.")
        return "\n\n---\n\n".join(parts + notes), found

    return [
        StructuredTool.from_function(
            search_support_articles,
            name="search_support_articles",
            description=(
                "Search support articles (troubleshooting, FAQ, error references): returns titles, "
                "ids and collections only, never bodies. Then read the relevant ones with "
                "get_article_content. Best for error messages, symptoms and 'why does X fail'."
                + description_note(corpus_language)
            ),
            args_schema=SearchArticlesArgs,
            response_format="content_and_artifact",
            handle_tool_error=True,  # a failed source is an error result that names it
        ),
        StructuredTool.from_function(
            get_article_content,
            name="get_article_content",
            description="Read whole support articles by id (at most 5 per call), as found by search_support_articles.",
            args_schema=GetArticlesArgs,
            response_format="content_and_artifact",
            handle_tool_error=True,
        ),
    ]
