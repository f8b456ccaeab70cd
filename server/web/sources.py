"""The server's own viewer of a cited source: every citation opens, with or without a site.

A source card (graphs/source_cards.py) has a `url` when the docs, help center or repository has
a site; with none configured (a docs folder without a base URL: the default) the reader opens
`/chat/source?ref=<the citation as written>` instead:

- `GET /chat/source` is a static shell page on the server's origin (strict CSP like the chat
  page's); its script reads the token the chat page keeps in localStorage and asks
- `GET /chat/api/source?ref=…`, which answers, for any signed-in user or guest (the corpus is
  shared by all of them), `{ref, kind, title, section, url}` plus what to show: the cited
  section of a page (with its subsections, or the whole page without an anchor) or the whole
  KB article as `html`, or the cited code lines with a few lines around them as `lines`.

A ref is resolved exactly as a card is (`graphs.source_cards.resolve_ref`): only a citation of a
source the server holds answers, anything else is a 404; code paths are confined by the code
tools' own rule (`tools.codebase.roots.resolve_path`: no hidden, secret, binary or outside
file). Page and article Markdown is rendered here by markdown-it-py with raw HTML off (escaped)
and its link check on (no `javascript:`), links rewritten to the real site or to plain text
(tools/sources/site_links.py); code lines go out as text for the script to put in text nodes.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from langgraph_sdk import Auth
from markdown_it import MarkdownIt

from graphs.source_cards import Resolved, parse_ref, resolve_ref
from server.web import feedback
from server.web.origins import frame_ancestors
from tools import load_sources
from tools.codebase.roots import is_binary
from tools.presentation.site_links import page_links, source_links

log = logging.getLogger(__name__)

SHELL = Path(__file__).with_name("static") / "source.html"
MAX_MARKDOWN_CHARS = 100_000
MAX_CODE_LINES = 400
CONTEXT_LINES = 5
LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".json": "json",
    ".toml": "toml",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".md": "markdown",
    ".sh": "bash",
    ".html": "html",
    ".css": "css",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}

router = APIRouter()


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    """CommonMark + GFM tables and strikethrough; raw HTML off, so page HTML shows as text."""
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])

    def link_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        tokens[idx].attrSet("rel", "noopener noreferrer")
        tokens[idx].attrSet("target", "_blank")
        return str(renderer.renderToken(tokens, idx, options, env))

    md.add_render_rule("link_open", link_open)
    return md


def _sections_shown(doc: Any, anchor: str) -> tuple[list[Any], bool]:
    """The cited section with its subsections (True), or the whole page (False)."""
    sections = list(doc.sections)
    if anchor:
        for i, sec in enumerate(sections):
            if anchor in sec.anchors:
                end = i + 1
                while end < len(sections) and sections[end].level > sec.level:
                    end += 1
                return sections[i:end], True
    return sections, False


def page_html(resolved: Resolved, anchor: str, sources: Any) -> tuple[str, bool, bool]:
    """The cited part of a page or article as HTML; (html, a section only, cut short)."""
    doc = resolved.document
    backend = sources.docs if resolved.card["kind"] == "doc" else sources.kb
    links = page_links(doc.url, doc.key, source_links(backend))
    shown, is_section = _sections_shown(doc, anchor)
    parts: list[str] = []
    size, cut = 0, False
    for sec in shown:
        heading = sec.heading if sec.level > 0 and sec.heading != doc.title else ""
        block = ("#" * min(sec.level + 1, 6) + " " + heading + "\n\n" if heading else "") + links(
            sec.text
        )
        if size + len(block) > MAX_MARKDOWN_CHARS:
            cut = True
            break
        parts.append(block)
        size += len(block)
    return _markdown().render("\n\n".join(parts)), is_section, cut


def code_lines(resolved: Resolved, start: int, end: int) -> dict[str, Any] | None:
    """The cited lines and a few around them; None when the range is not in the file."""
    path: Path = resolved.file
    if is_binary(path):
        return None
    lines = path.read_text("utf-8", errors="replace").splitlines()
    if start < 1 or start > len(lines):
        return None
    end = min(end, len(lines))
    cut = end - start + 1 > MAX_CODE_LINES
    last_cited = start + MAX_CODE_LINES - 1 if cut else end
    first = max(1, start - CONTEXT_LINES)
    last = min(len(lines), last_cited + CONTEXT_LINES)
    return {
        "language": LANGUAGES.get(path.suffix.lower(), ""),
        "start": start,
        "end": last_cited,
        "total": len(lines),
        "truncated": cut,
        "lines": [{"n": n, "text": lines[n - 1]} for n in range(first, last + 1)],
    }


def source_view(ref: str) -> tuple[int, dict[str, Any]]:
    """(HTTP status, body) for one ref (blocking: index and file reads)."""
    parsed = parse_ref(ref)
    if parsed is None:
        return 404, {"detail": "That is not a citation of a source this server holds."}
    sources = load_sources()
    resolved = resolve_ref(ref, sources)
    if resolved is None:
        return 404, {"detail": "No such source: it may have been moved or removed."}
    body: dict[str, Any] = dict(resolved.card)
    if parsed.kind == "code":
        view = code_lines(resolved, parsed.start, parsed.end)
        if view is None:
            return 404, {"detail": "Those lines are not in the file."}
        return 200, body | view
    if resolved.document is None:  # cited by a help center's own address: open it there
        return 200, body | {"html": "", "section_only": False, "truncated": False}
    html, section_only, cut = page_html(resolved, parsed.anchor, sources)
    return 200, body | {"html": html, "section_only": section_only, "truncated": cut}


def _page_headers() -> dict[str, str]:
    return {
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self'; frame-ancestors {frame_ancestors()}; base-uri 'none'; "
            "form-action 'none'"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-cache",
        "Vary": "Accept-Encoding",
    }


@lru_cache(maxsize=1)
def _shell() -> tuple[bytes, bytes]:
    raw = SHELL.read_bytes()
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


@router.get("/chat/source", include_in_schema=False)
async def source_page(request: Request) -> Response:
    """The viewer's static shell (its script fetches the source with the reader's token)."""
    raw, packed = _shell()
    headers = _page_headers()
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type="text/html; charset=utf-8", headers=headers)
    return Response(raw, media_type="text/html; charset=utf-8", headers=headers)


@router.get("/chat/api/source")
async def source_api(request: Request) -> Response:
    """One cited source as the viewer shows it (any signed-in user or guest; see the module)."""
    try:
        await feedback.caller(request)
    except Auth.exceptions.HTTPException as exc:
        return JSONResponse(
            {"detail": exc.detail}, status_code=exc.status_code, headers=dict(exc.headers or {})
        )
    ref = (request.query_params.get("ref") or "").strip()
    if not ref:
        return JSONResponse({"detail": "Give the citation to open as ?ref=."}, status_code=400)
    try:
        status, body = await asyncio.to_thread(source_view, ref)
    except Exception:  # noqa: BLE001 — a reader sees a plain sentence, the log the rest
        log.exception("source viewer failed on a %d-character ref", len(ref))
        status, body = 503, {"detail": "This source cannot be shown right now; try again shortly."}
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
