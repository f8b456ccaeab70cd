"""The tool catalog: one factory module per domain, one `create_all_tools()` for the graphs.

A group is in the catalog only when its source is configured and present, so the model is never
offered a tool that cannot run.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from settings import current
from settings.sources import SourceSettings

if TYPE_CHECKING:  # only for hints: importing `tools.search` in an index worker stays light
    from langchain_core.tools import BaseTool

    from tools.sources.contract import DocsSource, KnowledgeBase

log = logging.getLogger(__name__)


@dataclass
class Sources:
    """The live backends behind the tools (None when a source is off).

    `docs` and `kb` answer the source contract (tools/sources/contract.py); what else one can do
    (a local index to warm, an upstream to refresh) is asked with its capability protocol.
    """

    settings: SourceSettings
    docs: DocsSource | None = None
    kb: KnowledgeBase | None = None
    code_roots: list[Any] = field(default_factory=list)


@lru_cache(maxsize=8)
def load_sources(settings: SourceSettings | None = None) -> Sources:
    """Open every configured source once per process; in a server, start building the indexes.

    Elsewhere (tests, scripts) the indexes are synced lazily on first use.
    """
    from tools.build_index import warm_up
    from tools.code import code_roots
    from tools.docs import docs_source
    from tools.kb import kb_backend

    settings = settings or current().sources
    sources = Sources(settings, docs_source(settings), kb_backend(settings), code_roots(settings))
    warm_up(sources)
    return sources


def create_docs_group(sources: Sources) -> list[BaseTool]:
    """search_docs / get_doc_page, when a docs source is present."""
    from tools.docs import create_docs_tools

    if sources.docs is None:
        return []
    return create_docs_tools(sources.docs, sources.settings.corpus_language)


def create_kb_group(sources: Sources) -> list[BaseTool]:
    """search_support_articles / get_article_content, when a KB is present."""
    from tools.kb import create_kb_tools

    if sources.kb is None:
        return []
    return create_kb_tools(sources.kb, sources.settings.corpus_language)


def create_code_group(sources: Sources) -> list[BaseTool]:
    """search_code / list_directory / read_code_file, when a code root exists."""
    from tools.code import create_code_tools

    if not sources.code_roots:
        return []
    return create_code_tools(sources.code_roots, sources.settings.code_timeout_s)


def create_memory_group() -> list[BaseTool]:
    """save_memory / list_memories / delete_memory on the platform store (DOCS_AGENT_MEMORY=false: off).

    The store comes from the server at run time; without one the tools answer with a clear message.
    """
    from tools.memory import create_memory_tools, memory_enabled

    return create_memory_tools() if memory_enabled() else []


def create_all_tools(sources: Sources | None = None) -> list[BaseTool]:
    """The flat catalog for docs_agent: every group whose source is present, plus memory."""
    sources = sources or load_sources()
    tools = create_docs_group(sources) + create_kb_group(sources) + create_code_group(sources)
    if not tools:
        log.warning("no knowledge source is configured or present: the agent has no tools")
    return tools + create_memory_group()
