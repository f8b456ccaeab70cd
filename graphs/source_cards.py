"""Source cards: every citation of an answer as something a reader can open.

The citation check (`graphs/citations.py`) decides which citations stay in an answer; this module
turns each one that stayed into a card `{ref, kind, title, section, url}` (contract C2 of
docs/web.md), written on the final answer's `additional_kwargs["sources"]` by the citation-check
step, so the chat page, the widget, the report and MCP's `docs_answer` read the same data:

- `ref` is the citation exactly as written in the answer (a URL, `docs/x.md#anchor`,
  `KB <id>`, `label/path:start-end`), so a reader of the text finds it there;
- `kind` is `doc`, `kb` or `code`; `title` the page's or article's title (a file's path);
  `section` the heading path of the cited section (page title left out), `[]` for a whole page;
- `url` is where the reader opens it on the real site: the page's site URL with the cited
  anchor; the article's own web address, else `DOCS_AGENT_KB_BASE_URL` with the id; the code
  root's repository URL (`DOCS_AGENT_CODE_URLS`) with a line anchor in the host's style. With no
  such site it is None, and readers open the server's own viewer (`/chat/source?ref=…`,
  server/web/sources.py), which resolves the same refs with `resolve_ref` below.

Hand-written: the refs and the sources are this project's own; the lookups reuse the sources'
backends (docs index, KB, code roots with the code tools' confinement).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote, urlsplit

from langchain_core.messages import BaseMessage, ToolMessage
from typing_extensions import TypedDict

from graphs.citations import CODE_RE, KB_RE, URL_RE, without_quoted
from tools import Sources
from tools.codebase.roots import PathError, resolve_path

log = logging.getLogger(__name__)

CardKind = Literal["doc", "kb", "code"]
# A page path as a docs folder without a site cites it (`docs/streaming.md#anchor`, `intro.md`):
# a document suffix and an optional anchor. Kept only when a source holds that page.
PAGE_PATH_RE = re.compile(
    r"(?<![\w/.:#-])(?P<path>(?:[\w.-]+/)*[\w-][\w.-]*\.(?:mdx?|markdown|rst|html?|ipynb))"
    r"(?:#(?P<anchor>[\w.:%~-]*[\w%~-]))?(?![\w/-])"
)
_INLINE_CODE_RE = re.compile(r"`[^`\n]+`")
_MAX_CARDS = 50  # an answer citing more is a list, not an answer: the first ones are kept


class SourceCard(TypedDict):
    """One citation as readers open it (contract C2)."""

    ref: str
    kind: CardKind
    title: str
    section: list[str]
    url: str | None


@dataclass(frozen=True)
class ParsedRef:
    """What a ref names: a code range, a KB article or a page (URL or path, with its anchor)."""

    kind: Literal["code", "kb", "page"]
    target: str  # the file path, the article id, or the page URL/path without its anchor
    anchor: str = ""
    start: int = 0
    end: int = 0


def parse_ref(ref: str) -> ParsedRef | None:
    """A ref as a citation of the answer writes it, or None when it is no citation at all."""
    ref = ref.strip()
    if not ref or len(ref) > 2048 or any(ord(c) < 32 for c in ref):
        return None
    code = CODE_RE.fullmatch(ref)
    if code:
        start = int(code.group("start"))
        end = int(code.group("end")) if code.group("end") else start
        return ParsedRef("code", code.group("path"), start=min(start, end), end=max(start, end))
    kb = KB_RE.fullmatch(ref)
    if kb:
        return ParsedRef("kb", kb.group("id"))
    if URL_RE.fullmatch(ref) or PAGE_PATH_RE.fullmatch(ref):
        page, _, anchor = ref.partition("#")
        return ParsedRef("page", page, anchor=anchor)
    return None


def written_refs(text: str) -> list[str]:
    """The citations of an answer as written, in the order they first appear, each once.

    The same rules as the check's (`graphs.citations.extract_citations`): quoted source text
    (code blocks, `>` lines) holds none; a URL in inline code is an example, not a citation; a
    code range is never also read as a page path.
    """
    blank = without_quoted(text, keep_offsets=True)
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for m in CODE_RE.finditer(blank):
        found.append((m.start(), m.group(0)))
        taken.append(m.span())
    for m in KB_RE.finditer(blank):
        found.append((m.start(), f"KB {m.group('id')}"))
    prose = _INLINE_CODE_RE.sub(lambda m: " " * len(m.group(0)), blank)
    for m in URL_RE.finditer(prose):
        found.append((m.start(), m.group(0).rstrip(".,;:")))
        taken.append(m.span())
    for m in PAGE_PATH_RE.finditer(blank):
        if not any(a <= m.start() < b for a, b in taken):
            found.append((m.start(), m.group(0)))
    return list(dict.fromkeys(ref for _, ref in sorted(found)))


def heading_trail(sections: Sequence[Any], anchor: str, title: str = "") -> list[str]:
    """The headings from the page's top down to the section an anchor opens; [] for none.

    The page's own title (a level-0 section, or a level-1 heading equal to the title) is the
    card's title, not part of its trail.
    """
    if not anchor:
        return []
    for i, sec in enumerate(sections):
        ids = sec.anchors if hasattr(sec, "anchors") else (sec.anchor,)
        if anchor not in ids:
            continue
        trail: list[str] = []
        level = sec.level
        for earlier in reversed(sections[: i + 1]):
            if earlier is sec or (0 < earlier.level < level):
                trail.append(earlier.heading)
                level = earlier.level
        trail.reverse()
        return [h for h in trail if h and h != title]
    return []


def web_url(url: str | None) -> str | None:
    """The URL when a browser can open it on the web (`http(s)://host…`), else None."""
    if not url or not url.lower().startswith(("http://", "https://")):
        return None
    try:
        return url if urlsplit(url).netloc else None
    except ValueError:
        return None


def kb_article_url(base: str, article_id: str) -> str | None:
    """An article's help-center URL from `DOCS_AGENT_KB_BASE_URL`: `{id}` filled in, else appended."""
    if not base:
        return None
    key = quote(article_id, safe="/")
    return base.replace("{id}", key) if "{id}" in base else f"{base.rstrip('/')}/{key}"


def code_url(base: str, path: str, start: int, end: int) -> str:
    """A file's line range on its repository host, in that host's anchor style.

    `{path}`, `{start}`, `{end}` in `base` make it a template (any host); otherwise GitLab
    (`#L10-20`), Bitbucket (`#lines-10:20`) and GitHub/Gitea/Forgejo (`#L10-L20`) by host name.
    """
    rel = quote(path, safe="/")
    if "{path}" in base:
        return base.replace("{path}", rel).replace("{start}", str(start)).replace("{end}", str(end))
    host = (urlsplit(base).hostname or "").lower()
    url = f"{base.rstrip('/')}/{rel}"
    if start <= 0:
        return url
    if "gitlab" in host:
        return url + (f"#L{start}-{end}" if end > start else f"#L{start}")
    if "bitbucket" in host:
        return url + (f"#lines-{start}:{end}" if end > start else f"#lines-{start}")
    return url + (f"#L{start}-L{end}" if end > start else f"#L{start}")


@dataclass(frozen=True)
class Resolved:
    """A ref resolved against the sources: its card, and what the viewer shows of it."""

    card: SourceCard
    document: Any = None  # the page or article (tools.search.Document) for doc and kb refs
    file: Any = None  # the confined absolute path of a code ref
    root_label: str = ""
    rel_path: str = ""


def _lookup(backend: Any, method: str, key: str) -> Any:
    """A backend lookup whose failure means "not found here", never a crash (logged)."""
    fn = getattr(backend, method, None) if backend is not None else None
    if fn is None:
        return None
    try:
        return fn(key)
    except Exception as exc:  # noqa: BLE001 — a source that failed is a card without details
        log.warning("source card lookup %s(%r) failed: %s", method, key, exc)
        return None


def resolve_ref(
    ref: str, sources: Sources, articles: dict[str, tuple[str, str]] | None = None
) -> Resolved | None:
    """The card of one ref and the source behind it; None when no source holds it.

    `articles` (id → title, URL) is what the turn read already: a help-center article then
    needs no second request.
    """
    parsed = parse_ref(ref)
    if parsed is None:
        return None
    settings = sources.settings
    if parsed.kind == "code":
        try:
            root, full = resolve_path(sources.code_roots, parsed.target, want="file")
        except PathError:
            return None
        rel = full.relative_to(root.path).as_posix()
        base = dict(settings.code_urls).get(root.label, "")
        url = code_url(base, rel, parsed.start, parsed.end) if base else None
        card = SourceCard(ref=ref, kind="code", title=f"{root.label}/{rel}", section=[], url=url)
        return Resolved(card, file=full, root_label=root.label, rel_path=rel)
    if parsed.kind == "kb":
        known = (articles or {}).get(parsed.target)
        doc = None if known else _lookup(sources.kb, "get", parsed.target)
        if doc is not None:
            known = (doc.title, doc.url)
        if known is None:
            return None
        title, own = known
        url = web_url(own) or kb_article_url(settings.kb_base_url, parsed.target)
        card = SourceCard(ref=ref, kind="kb", title=title, section=[], url=url)
        return Resolved(card, document=doc)
    doc = _lookup(sources.docs, "find", parsed.target)
    kind: CardKind = "doc"
    if doc is None:
        doc = _lookup(sources.kb, "find", parsed.target)
        kind = "kb"
    if doc is None:
        # A help center's article cited by its own address (the KB has no index to look in).
        page = parsed.target.rstrip("/")
        for title, own in (articles or {}).values():
            if own and own.split("#", 1)[0].rstrip("/") == page and web_url(own):
                card = SourceCard(ref=ref, kind="kb", title=title, section=[], url=ref)
                return Resolved(card)
        return None
    anchor = parsed.anchor if any(parsed.anchor in s.anchors for s in doc.sections) else ""
    url = web_url(doc.url.split("#", 1)[0])
    if url is None and kind == "kb":
        url = kb_article_url(settings.kb_base_url, doc.key)
    elif url is not None and anchor:
        url = f"{url}#{anchor}"
    section = heading_trail(doc.sections, anchor, doc.title)
    card = SourceCard(ref=ref, kind=kind, title=doc.title, section=section, url=url)
    return Resolved(card, document=doc)


def articles_read(messages: Iterable[BaseMessage]) -> dict[str, tuple[str, str]]:
    """The KB articles a turn's `get_article_content` calls returned: id → (title, URL)."""
    found: dict[str, tuple[str, str]] = {}
    for m in messages:
        if isinstance(m, ToolMessage) and m.name == "get_article_content":
            for art in m.artifact if isinstance(m.artifact, list) else []:
                if isinstance(art, dict) and art.get("id"):
                    found[str(art["id"])] = (
                        str(art.get("title") or art["id"]),
                        str(art.get("url") or ""),
                    )
    return found


def source_cards(text: str, sources: Sources, turn: Iterable[BaseMessage] = ()) -> list[SourceCard]:
    """One card per citation of a (checked) answer, in the order they appear.

    A ref no source holds (a path mentioned in prose, an article that just disappeared) gets no
    card: every card opens something.
    """
    articles = articles_read(turn)
    cards: list[SourceCard] = []
    for ref in written_refs(text)[:_MAX_CARDS]:
        resolved = resolve_ref(ref, sources, articles)
        if resolved is not None:
            cards.append(resolved.card)
    return cards
