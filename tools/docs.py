"""Documentation tools: `search_docs` (ranked pages) and `get_doc_page` (a whole page or a section)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from tools.artifacts import PageArtifact, SearchHitArtifact
from tools.feedback import FEEDBACK_DESCRIPTION, emit_feedback
from tools.presentation.corpus_language import description_note, weak_match_note
from tools.presentation.failures import partial_note, unavailable
from tools.presentation.render import render_document_parts, render_hits
from tools.presentation.site_links import hit_snippets, page_links, source_links
from tools.search.embeddings import configured_embedder
from tools.search.fusion import warming_note
from tools.settings import SourceSettings, check_site_choices
from tools.sources.contract import DocsSource, ReportsStatus
from tools.sources.corpus import FolderCorpus, UrlRule, repo_prefix
from tools.sources.registry import SiteOptions, detect_site
from tools.sources.site import Site

MAX_RESULTS = 20


def docs_source(settings: SourceSettings) -> DocsSource | None:
    """The configured docs: an llms.txt site when `DOCS_AGENT_LLMS_TXT_URL` is set, else the folder."""
    check_site_choices(settings)
    if settings.llms_txt_url:
        from tools.sources.live.llms_txt import LlmsTxtCorpus

        return LlmsTxtCorpus(
            settings.llms_txt_url,
            settings.index_dir,
            settings.docs_lang,
            embedder=configured_embedder(settings.embeddings),
            live=settings.live,
        )
    root = settings.docs_dir
    if root is None or not root.is_dir():
        return None
    return FolderCorpus(
        root,
        "docs",
        settings.index_dir,
        docs_url_rule(settings, root),
        language=settings.docs_lang,
        embedder=configured_embedder(settings.embeddings),
        site=docs_site(settings, root),
        hide_release_notes=settings.docs_release_notes == "hide",
    )


def live_status(corpus: DocsSource) -> tuple[str, list[str]]:
    """What a live docs source (an llms.txt site) could not do at its last refresh, and its caps."""
    return corpus.status() if isinstance(corpus, ReportsStatus) else ("", [])


def docs_url_rule(settings: SourceSettings, root: Path) -> UrlRule:
    """The configured URL rule: base URL and prefixes; repo-relative paths without a base URL."""
    prefix = "" if settings.docs_base_url else repo_prefix(root)
    return UrlRule(settings.docs_base_url, settings.docs_strip_prefixes, prefix)


def docs_site(settings: SourceSettings, root: Path) -> Site:
    """The docs folder's site profile: detected from its config files, the settings put over it."""
    rule = docs_url_rule(settings, root)
    site = detect_site(
        root,
        SiteOptions(
            generator=settings.docs_generator,
            base_url=rule.base_url,
            strip_prefixes=rule.strip_prefixes,
            path_prefix=rule.path_prefix,
            url_style=settings.docs_url_style,
            slug=settings.docs_slug,
            nav=settings.docs_nav,
            notebooks=settings.docs_notebooks,
            include=settings.docs_include,
            exclude=settings.docs_exclude,
            locale=settings.docs_locale,
        ),
    )
    # A folder inside this repository without a base URL is cited by its repo-relative path.
    if not site.base_url and rule.path_prefix:
        site = replace(site, path_prefix=rule.path_prefix)
    return site


class SearchDocsArgs(BaseModel):
    """Arguments of `search_docs`."""

    query: str = Field(
        description="Keywords as a person would type them: product terms, API names, error text."
    )
    limit: int = Field(default=5, description="How many pages to return (1-20).")
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


class GetDocPageArgs(BaseModel):
    """Arguments of `get_doc_page`."""

    url_or_path: str = Field(description="A URL or path exactly as `search_docs` returned it.")
    section: str | None = Field(
        default=None,
        description="A heading to read just that section (with its subsections); null for the whole page.",
    )
    feedback_to_user: str = Field(description=FEEDBACK_DESCRIPTION)


def create_docs_tools(corpus: DocsSource, corpus_language: str = "English") -> list[BaseTool]:
    """`search_docs` and `get_doc_page` over any corpus with `search`/`find` (folder or llms.txt).

    `corpus_language` is the language the pages are written in (`DOCS_AGENT_CORPUS_LANGUAGE`).
    Links in what the tools show are the site's URLs (tools/presentation/site_links.py).
    """
    pages = source_links(corpus)

    def search_docs(
        query: str, limit: int = 5, feedback_to_user: str = ""
    ) -> tuple[str, list[SearchHitArtifact]]:
        emit_feedback(feedback_to_user)
        if not query.strip():
            return "The query is empty: give a few keywords.", []
        limit = max(1, min(int(limit), MAX_RESULTS))
        hits = hit_snippets(corpus.search(query, limit), pages)
        problem, caps = live_status(corpus)
        cached = isinstance(corpus, FolderCorpus) and len(corpus.index) > 0
        if problem and not hits and not cached:
            raise unavailable("docs", problem)  # nothing cached: the site's failure, not "none"
        artifact: list[SearchHitArtifact] = [
            {
                "url": h.url,
                "title": h.title,
                "key": h.key,
                "section": h.section,
                "anchor": h.anchor,
                "score": h.calibrated,
                "snippet": h.snippet,
            }
            for h in hits
        ]
        note = weak_match_note(hits, query, corpus_language)
        note = "\n".join(n for n in (note, warming_note(corpus, hits)) if n)
        live = [partial_note("docs", f"partly indexed: {cap}") for cap in caps]
        if problem:
            live.append(partial_note("docs", f"served from the cached copy: {problem}"))
        note = "\n".join(([note] if note else []) + live)
        text = render_hits(hits, query, "pages")
        return (f"{text}\n\n{note}" if note else text), artifact

    def get_doc_page(
        url_or_path: str, section: str | None = None, feedback_to_user: str = ""
    ) -> tuple[str, PageArtifact]:
        emit_feedback(feedback_to_user)
        doc = corpus.find(url_or_path)
        if doc is None:
            return (
                f"No page {url_or_path!r}. Use a URL or path exactly as search_docs returned it.",
                {},
            )
        text, sections = render_document_parts(
            doc, section, links=page_links(doc.url, doc.key, pages)
        )
        artifact: PageArtifact = {
            "url": doc.url,
            "title": doc.title,
            "key": doc.key,
            "section": section,
            "sections": sections,
            "outline": [s.heading for s in doc.sections if s.heading and s.heading != doc.title],
        }
        return text, artifact

    return [
        StructuredTool.from_function(
            search_docs,
            name="search_docs",
            description=(
                "Search the product documentation; returns ranked pages with URL, best-matching "
                "section and a snippet. Snippets are not enough to answer: read the best page with "
                "get_doc_page. For error messages and known problems also try search_support_articles."
                + description_note(corpus_language)
            ),
            args_schema=SearchDocsArgs,
            response_format="content_and_artifact",
            handle_tool_error=True,  # a failed source is an error result that names it
        ),
        StructuredTool.from_function(
            get_doc_page,
            name="get_doc_page",
            description=(
                "Read a documentation page found by search_docs: the whole page, or one section by "
                "heading. Long pages are cut; the note at the end names the sections left out."
            ),
            args_schema=GetDocPageArgs,
            response_format="content_and_artifact",
        ),
    ]
