"""Citation check: every citation in an answer is verified against the sources before it leaves.

Three kinds of citation are recognised:
- documentation links: `http(s)://…` URLs (bare or as markdown links) and `docs/….md(x)` paths —
  valid when the docs index (or the KB, whose articles also have URLs) holds that page; a
  `#anchor` the page does not have is dropped (the link then opens the page's top);
- knowledge-base articles: `KB <id>` — valid when the KB has that article;
- code: `<root>/<path>:<start>-<end>` (or `:<line>`) — valid when the file exists under a code root
  and `1 ≤ start ≤ end ≤` its line count.

A reversed range is swapped, an end past the file is clamped to its last line; anything else that
does not verify (a missing page, article or file, a start past the end of the file) is removed.
Code blocks and `>` quotes are quoted source text, not citations, and are left as written: which
lines they are is CommonMark's reading of the answer (markdown-it-py), so a fence indented under
a list item, a `~~~` fence or indented code count as code too. The
counts come back in a `CitationReport` that the graph stores in state. Hand-written because no
library checks citations against *these* sources; the checks reuse the tools' own backends.

What the turn's read tools returned (`ReadSources`, built from their artifacts) is consulted
first: a page, article or file the agent read is known to exist, and a file's line count comes
with it, so most citations verify without another backend lookup.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, ToolMessage
from markdown_it import MarkdownIt

from tools import Sources
from tools.codebase.roots import PathError, resolve_path

log = logging.getLogger(__name__)

# `label/dir/file.py:10-20` or `:10`; the path needs a slash and an extension.
CODE_RE = re.compile(
    r"(?P<path>\b[\w.-]+(?:/[\w.-]+)+\.\w+):(?P<start>\d+)(?:\s*[-–]\s*(?P<end>\d+))?"
)
URL_RE = re.compile(r"https?://[^\s)\]>`'\"]+")
MD_LINK_RE = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<url>https?://[^)\s]+)\)")
# An article id has a folder, a digit, `-` or `_` in it: "KB faq/retention", "KB 360012": so the
# words of a title ("Docs, KB and code sources") are never taken for a citation and removed.
KB_RE = re.compile(r"\bKB (?P<id>(?=[\w./-]*[/\d_-])\w(?:[\w./-]*[\w/-])?)")
# Quoted source text — code blocks and `>` quote lines — is the source's, not a citation.
DOC_PATH_RE = re.compile(r"(?<![\w/.:-])(?P<path>docs/[\w./-]+\.(?:mdx?|markdown|rst|html?))\b")


@dataclass
class CitationReport:
    """What the check found: totals and one row per citation that was changed or removed."""

    checked: int = 0
    valid: int = 0
    fixed: int = 0
    removed: int = 0
    details: list[dict[str, Any]] = field(default_factory=list)

    @property
    def invalid(self) -> int:
        """Citations that did not verify as written (fixed + removed)."""
        return self.fixed + self.removed

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for graph state."""
        return asdict(self) | {"invalid": self.invalid}


def _page_key(ref: str) -> str:
    return ref.rstrip(".,;:").split("#", 1)[0].rstrip("/")


@dataclass
class ReadSources:
    """What a turn's read tools returned: page URLs, article ids and code files with line counts."""

    pages: set[str] = field(default_factory=set)
    articles: set[str] = field(default_factory=set)
    files: dict[str, int] = field(default_factory=dict)

    def add_artifact(self, tool: str, artifact: Any) -> None:
        """Record one tool result's artifact (read tools, and `ask_*` researchers' `read`)."""
        if tool == "get_doc_page" and isinstance(artifact, dict) and artifact.get("url"):
            self.pages.add(_page_key(str(artifact["url"])))
        elif tool == "get_article_content" and isinstance(artifact, list):
            for art in artifact:
                if isinstance(art, dict) and art.get("id"):
                    self.articles.add(str(art["id"]))
                    if art.get("url"):
                        self.pages.add(_page_key(str(art["url"])))
        elif tool == "read_code_file" and isinstance(artifact, dict) and artifact.get("file"):
            self.files[str(artifact["file"])] = int(artifact.get("total") or 0)
        elif isinstance(artifact, dict) and isinstance(artifact.get("read"), dict):
            read = artifact["read"]
            self.pages.update(read.get("pages") or [])
            self.articles.update(read.get("articles") or [])
            self.files.update(read.get("files") or {})

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (a researcher hands it up in its tool artifact)."""
        return {
            "pages": sorted(self.pages),
            "articles": sorted(self.articles),
            "files": dict(self.files),
        }


def read_sources(messages: Iterable[BaseMessage]) -> ReadSources:
    """The sources this turn's tool results name in their artifacts (failed calls skipped)."""
    read = ReadSources()
    for m in messages:
        if isinstance(m, ToolMessage) and m.status != "error":
            read.add_artifact(str(m.name or ""), m.artifact)
    return read


class CitationChecker:
    """Checks citations against one set of sources (docs index, KB, code roots)."""

    def __init__(self, sources: Sources) -> None:
        """Keep the sources; the KB's URL set is built lazily on the first URL check."""
        self.sources = sources
        self._kb_urls: set[str] | None = None
        self._line_counts: dict[str, int | None] = {}
        self._read = ReadSources()

    # -- single checks -------------------------------------------------------------------------

    def page_exists(self, ref: str) -> bool:
        """A docs page or KB article has this URL or path (anchor and trailing slash ignored)."""
        ref = ref.rstrip(".,;:")
        if _page_key(ref) in self._read.pages:
            return True
        docs, kb = self.sources.docs, self.sources.kb
        try:
            if docs is not None and docs.find(ref) is not None:
                return True
            if kb is not None and hasattr(kb, "find") and kb.find(ref) is not None:
                return True
        except Exception as exc:  # noqa: BLE001 — a backend error means "not verified", never a crash
            log.warning("citation check could not look up %r: %s", ref, exc)
            return False
        return ref.split("#", 1)[0].rstrip("/") in self._kb_url_set()

    def anchor_exists(self, ref: str) -> bool | None:
        """Whether a docs URL's `#anchor` opens a section of its page; None when it cannot tell.

        Every id the site serves for a section counts (its heading's anchor, explicit ids,
        labels: `Section.anchors`). Pages the docs index does not hold (KB articles, other
        sites) and lookups that fail are not judged.
        """
        page, _, anchor = ref.partition("#")
        docs = self.sources.docs
        if not anchor or docs is None:
            return None
        try:
            doc = docs.find(page)
        except Exception as exc:  # noqa: BLE001 — a backend error means "not verified", never a crash
            log.warning("citation check could not look up %r: %s", page, exc)
            return None
        if doc is None:
            return None
        return any(anchor in getattr(s, "anchors", (s.anchor,)) for s in doc.sections)

    def _checked_anchor(self, url: str, report: CitationReport) -> str:
        """The URL, with an anchor its page does not have dropped (the page itself is right)."""
        if self.anchor_exists(url) is False:
            page = url.partition("#")[0]
            report.fixed += 1
            report.details.append(
                {
                    "kind": "docs",
                    "citation": url,
                    "action": "fixed",
                    "to": page,
                    "reason": "no such section on the page",
                }
            )
            return page
        report.valid += 1
        return url

    def article_exists(self, article_id: str) -> bool:
        """The KB has an article with this id."""
        if article_id.rstrip(".,;:") in self._read.articles:
            return True
        kb = self.sources.kb
        if kb is None:
            return False
        try:
            return kb.get(article_id) is not None or kb.get(article_id.rstrip(".,;:")) is not None
        except Exception as exc:  # noqa: BLE001 — a backend error means "not verified", never a crash
            log.warning("citation check could not look up article %r: %s", article_id, exc)
            return False

    def line_count(self, path: str) -> int | None:
        """Lines of a file under a code root, or None when there is no such file."""
        if self._read.files.get(path):
            return self._read.files[path]
        if path not in self._line_counts:
            try:
                _, full = resolve_path(self.sources.code_roots, path, want="file")
                self._line_counts[path] = len(
                    full.read_text("utf-8", errors="replace").splitlines()
                )
            except (PathError, OSError):
                self._line_counts[path] = None
        return self._line_counts[path]

    def _kb_url_set(self) -> set[str]:
        if self._kb_urls is None:
            urls: set[str] = set()
            kb = self.sources.kb
            index = getattr(kb, "index", None)
            if index is not None and kb is not None and hasattr(kb, "ensure_synced"):
                kb.ensure_synced()
                for key in index.keys():
                    doc = index.get(key)
                    if doc is not None and doc.url:
                        urls.add(doc.url.split("#", 1)[0].rstrip("/"))
            self._kb_urls = urls
        return self._kb_urls

    # -- whole answers -------------------------------------------------------------------------

    def check(self, text: str, read: ReadSources | None = None) -> tuple[str, CitationReport]:
        """The answer with every citation verified, fixed or removed, and the report.

        `read`: what this turn's tools returned, trusted before any backend lookup.
        """
        if read is not None:
            view = copy.copy(self)  # shares the caches; the read sources are this call's only
            view._read = read
            return view.check(text)
        report = CitationReport()
        # Code blocks and quotes are source text, not citations: a URL inside one is left alone.
        parts = split_quoted(text)
        for i in range(0, len(parts), 2):
            part = self._check_code(parts[i], report)
            part = self._check_kb(part, report)
            part = self._check_links(part, report)
            parts[i] = self._check_doc_paths(part, report)
        return _tidy("".join(parts)), report

    def _check_code(self, text: str, report: CitationReport) -> str:
        def fix(m: re.Match[str]) -> str:
            path, start = m.group("path"), int(m.group("start"))
            end = int(m.group("end")) if m.group("end") else start
            report.checked += 1
            total = self.line_count(path)
            if total is None:
                return _removed(report, "code", m.group(0), "no such file under the code roots")
            reason = []
            if start > end:
                start, end = end, start
                reason.append("reversed range swapped")
            if start < 1 or start > total:
                return _removed(
                    report, "code", m.group(0), f"line {start} outside the file's {total} lines"
                )
            if end > total:
                end = total
                reason.append(f"end clamped to the file's {total} lines")
            new = f"{path}:{start}-{end}" if m.group("end") or start != end else f"{path}:{start}"
            if reason:
                report.fixed += 1
                report.details.append(
                    {
                        "kind": "code",
                        "citation": m.group(0),
                        "action": "fixed",
                        "to": new,
                        "reason": "; ".join(reason),
                    }
                )
                return new
            report.valid += 1
            return m.group(0)

        return CODE_RE.sub(fix, text)

    def _check_kb(self, text: str, report: CitationReport) -> str:
        def fix(m: re.Match[str]) -> str:
            report.checked += 1
            if self.article_exists(m.group("id")):
                report.valid += 1
                return m.group(0)
            return _removed(report, "kb", m.group(0), "no such article")

        return KB_RE.sub(fix, text)

    def _check_links(self, text: str, report: CitationReport) -> str:
        def fix_md(m: re.Match[str]) -> str:
            report.checked += 1
            if self.page_exists(m.group("url")):
                url = self._checked_anchor(m.group("url"), report)
                return m.group(0) if url == m.group("url") else f"[{m.group('text')}]({url})"
            _removed(report, "docs", m.group("url"), "no such page or article")
            return m.group("text")

        # Markdown links first (their text survives removal); then the bare URLs left over.
        # A URL in inline code (`http://127.0.0.1:8123`) is an example value, not a citation.
        parts = re.split(r"(\[[^\]]*\]\(https?://[^)\s]+\)|`[^`\n]+`)", text)
        out = []
        for part in parts:
            if part.startswith("`"):
                out.append(part)
                continue
            if MD_LINK_RE.fullmatch(part):
                out.append(MD_LINK_RE.sub(fix_md, part))
                continue

            def fix_bare(m: re.Match[str]) -> str:
                url = m.group(0).rstrip(".,;:")
                tail = m.group(0)[len(url) :]
                report.checked += 1
                if self.page_exists(url):
                    return self._checked_anchor(url, report) + tail
                return _removed(report, "docs", url, "no such page or article") + tail

            out.append(URL_RE.sub(fix_bare, part))
        return "".join(out)

    def _check_doc_paths(self, text: str, report: CitationReport) -> str:
        def fix(m: re.Match[str]) -> str:
            report.checked += 1
            if self.page_exists(m.group("path")):
                report.valid += 1
                return m.group(0)
            return _removed(report, "docs", m.group(0), "no such page")

        return DOC_PATH_RE.sub(fix, text)


# Blocks whose text is quoted, never citations: CommonMark's own reading of the answer (fences of
# any length, `~~~`, indented code, inside list items and quotes too), not a line regex — a fence
# indented under a numbered step was read as prose and its `url="http://…"` stripped.
_QUOTED_BLOCKS = frozenset({"fence", "code_block", "blockquote_open"})
_PARSER = MarkdownIt("commonmark")


def split_quoted(text: str) -> list[str]:
    """`text` as alternating parts: prose, quoted (a code block or quote), prose, ….

    Whole lines: a quoted part is the lines markdown-it maps to a code block or a block quote
    (the outermost one); joining the parts gives `text` back unchanged.
    """
    lines = text.splitlines(keepends=True)
    spans: list[tuple[int, int]] = []
    for token in _PARSER.parse(text):  # document order: an outer quote comes before its content
        if token.type in _QUOTED_BLOCKS and token.map:
            start, end = token.map
            if any(a <= start < b for a, b in spans):
                continue
            if token.type != "blockquote_open":
                spans.append((start, end))
                continue
            # A quote's own lines start with `>`; a line CommonMark joins to it lazily (no `>`)
            # is the writer's own prose again, with its citations.
            run = None
            for n in range(start, end + 1):
                quoted = n < end and lines[n].lstrip().startswith(">")
                if quoted and run is None:
                    run = n
                elif not quoted and run is not None:
                    spans.append((run, n))
                    run = None
    parts: list[str] = []
    at = 0
    for start, end in spans:
        parts += ["".join(lines[at:start]), "".join(lines[start:end])]
        at = end
    parts.append("".join(lines[at:]))
    return parts


def without_quoted(text: str, *, keep_offsets: bool = False) -> str:
    """`text` with its code blocks and quotes removed, or blanked to spaces (`keep_offsets`)."""
    parts = split_quoted(text)
    for i in range(1, len(parts), 2):
        parts[i] = re.sub(r"[^\n]", " ", parts[i]) if keep_offsets else ""
    return "".join(parts)


_GONE = "\x00"  # marks where a citation was removed, so tidying touches only those lines


def _removed(report: CitationReport, kind: str, citation: str, reason: str) -> str:
    report.removed += 1
    report.details.append(
        {"kind": kind, "citation": citation, "action": "removed", "reason": reason}
    )
    return _GONE


def _tidy(text: str) -> str:
    """Clean the lines a removal touched: empty backticks/brackets go, an emptied list item goes."""
    out = []
    for line in text.splitlines():
        if _GONE not in line:
            out.append(line)
            continue
        line = re.sub(r"`\x00`|\(\s*\x00\s*\)|\[\s*\x00\s*\]|\x00", "", line).rstrip()
        if re.fullmatch(r"\s*(?:[-*>]|\d+\.)?[\s—–:,;-]*", line):
            continue
        out.append(re.sub(r"\s+[—–-]\s*$", "", line))
    return "\n".join(out)


def extract_citations(text: str) -> dict[str, list[str]]:
    """Every citation in `text` outside code blocks and quotes, by kind, without checking them."""
    text = without_quoted(text)
    return {
        "code": [m.group(0) for m in CODE_RE.finditer(text)],
        "kb": [m.group("id") for m in KB_RE.finditer(text)],
        "urls": [
            m.group(0).rstrip(".,;:") for m in URL_RE.finditer(re.sub(r"`[^`\n]+`", "", text))
        ],
        "doc_paths": [m.group("path") for m in DOC_PATH_RE.finditer(text)],
    }


def cited_sources(text: str, *, doc_paths: bool = False) -> list[str]:
    """The citations in a text, code first, then KB articles, then URLs (each once, in order).

    `doc_paths` adds bare `docs/….md` page paths (a docs folder served without a base URL).
    """
    cites = extract_citations(text)
    found = cites["code"] + [f"KB {k}" for k in cites["kb"]] + cites["urls"]
    return list(dict.fromkeys(found + (cites["doc_paths"] if doc_paths else [])))


def lazy_checker(
    sources: Sources | None, checker: CitationChecker | None = None
) -> Callable[[], CitationChecker | None]:
    """A getter that builds the checker on first use (not at import: the server starts faster).

    `checker` wins when given; otherwise one over `sources`; with neither there is nothing to
    check against (a graph built over hand-picked tools) and the getter gives None.
    """
    cache: dict[str, CitationChecker | None] = {}

    def get() -> CitationChecker | None:
        if "c" not in cache:
            cache["c"] = checker or (CitationChecker(sources) if sources is not None else None)
        return cache["c"]

    return get
