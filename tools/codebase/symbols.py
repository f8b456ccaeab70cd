"""A small definition index over the code roots, to pick the names a question is about.

It records which names are defined (class/def/CONSTANT) and picks the definitions a
plain-language question is most likely about.

Why: a question such as "Streaming LLM tokens from subgraph does not work" names no identifier, so
a regex search has nothing to search for. Splitting every defined name into words
(`SubgraphRunStream` -> subgraph, run, stream) lets the question's words choose a few names
(here two of its words are in that one), and `search_code` then runs on a pattern built from
them, so the code step still lands on the defining files.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tools.codebase.roots import CodeRoot, walk_files
from tools.text import (
    STOPWORDS,
    identifiers_in,
    inline_code_spans,
    is_identifier,
    split_identifier,
    stem,
)

_DEF_RE = re.compile(
    r"^(?:class|def|async\s+def)\s+([A-Za-z_]\w*)|^([A-Z][A-Z0-9_]{2,})\s*[:=]", re.M
)
MAX_FILES = 20_000


@dataclass(frozen=True)
class Symbol:
    """A top-level definition: its name, words, and where it is."""

    name: str
    words: tuple[str, ...]
    file: str
    is_class: bool


class SymbolIndex:
    """Top-level definitions of every `.py` file under the roots (tests and private files kept out)."""

    def __init__(self, roots: list[CodeRoot]) -> None:
        self.symbols: list[Symbol] = []
        exported: set[str] = set()
        seen = 0
        for root in roots:
            for path in walk_files(root, root.path):
                if path.suffix != ".py" or "/tests/" in path.as_posix():
                    continue
                seen += 1
                if seen > MAX_FILES:
                    break
                try:
                    text = path.read_text("utf-8", errors="replace")
                except OSError:
                    continue
                display = root.display(path)
                if path.name == "__init__.py":
                    exported.update(re.findall(r"[A-Za-z_]\w+", text))
                for m in _DEF_RE.finditer(text):
                    name = m.group(1) or m.group(2)
                    if name.startswith("_"):
                        continue
                    words = tuple(stem(w) for w in split_identifier(name) if w not in STOPWORDS)
                    if words:
                        self.symbols.append(
                            Symbol(name, words, display, m.group(0).startswith("class"))
                        )
        df: Counter[str] = Counter()
        for s in self.symbols:
            df.update(set(s.words))
        n = max(1, len(self.symbols))
        self.idf = {w: math.log(1 + n / c) for w, c in df.items()}
        self.names = {s.name for s in self.symbols}
        # Names a package re-exports from an `__init__.py` are its public API: what users touch.
        self.exported = exported & self.names

    def best(self, question: str, k: int = 3) -> list[str]:
        """Names the question is most likely about: named identifiers first, then by word overlap.

        A symbol scores the idf of the question words it contains, divided by the square root of
        its word count (a name that is all question words beats a long one that has one of them);
        classes get a small lift, since questions are mostly about the types users touch. A name
        counts only when the question says two of its words. One shared word is as often about
        something else: "turn on authentication" is not about `TurnLimitMiddleware`, "open
        Studio" not about `open_sources`, and "run it against a local model" or "the answer
        arrives all at once" not about a function called `run` or `answer`. A one-word name
        comes from the question's own code (`interrupt()`, `Command`) or from the pages that
        answer it (`names_from_pages`), which write it as code when it is what the user needs.
        """
        idents = identifiers_in(question)
        # Defined names the user writes come first, then snake_case / CONSTANT ones that are not
        # definitions (a parameter such as `stream_mode` is still what to grep for). Undefined
        # CamelCase words are mostly product or builtin names (LangGraph, ValueError): skipped.
        named = [i for i in idents if i in self.names]
        named += [i for i in idents if i not in self.names and "_" in i.strip("_")][:1]
        named = named[:k]
        if len(named) >= k:
            return named
        words = {
            stem(w)
            for w in re.findall(r"[a-z0-9]+", question.lower())
            if w not in STOPWORDS and len(w) > 2
        }
        if not words:
            return named
        scored: dict[str, float] = {}
        for s in self.symbols:
            common = words.intersection(s.words)
            if len(common) < 2 or s.name in named:
                continue
            score = sum(self.idf[w] for w in common) / math.sqrt(len(s.words))
            score *= 1.2 if s.is_class else 1.0
            score *= 1.5 if s.name in self.exported else 1.0
            if score > scored.get(s.name, 0.0):
                scored[s.name] = score
        ranked = sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))
        return named + [name for name, _ in ranked[: k - len(named)]]


_CACHE: dict[tuple[tuple[str, str], ...], SymbolIndex] = {}
_LOCK = threading.Lock()


def symbol_index(roots: list[CodeRoot]) -> SymbolIndex:
    """The index for these roots, built once per process."""
    key = tuple((r.label, str(r.path)) for r in roots)
    with _LOCK:
        if key not in _CACHE:
            _CACHE[key] = SymbolIndex(roots)
        return _CACHE[key]


_MESSAGE_RE = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b:\s*[\"'`]?([A-Za-z][^\"'`\n.;]{12,})")


def error_message(question: str) -> str:
    """The start of an error message quoted in the question (`ValueError: Found AIMessages…`)."""
    m = _MESSAGE_RE.search(question)
    if not m:
        return ""
    words = m.group(1).split()[:6]
    return " ".join(words) if len(words) >= 3 else ""


# A name in a code span, with the slash or dash around it that makes it a path, URL or flag
# segment (`server/auth.py`, `/threads/search`, `--token`).
_SPAN_NAME_RE = re.compile(r"([/-]?)([A-Za-z_]\w+)(?!\w)(/?)")


def _span_names(span: str) -> list[str]:
    """The names a page's code span writes as code, not the words of a command, path or URL.

    A name that looks like code (`GraphRecursionError`, `add_node`, `RECURSION_LIMIT`) or a
    class (`Command.PARENT`, `runtime: Runtime`) counts where it stands, even after a dot
    (`builder.add_node`). A plain lower-case word counts only when it is the span itself or
    called there (`interrupt`, `interrupt(value)`): inside a longer span it is a method of
    another object (`client.threads.search`), a command's verb (`langgraph build`), or a path or
    URL segment (`tools/search/fusion.py`, `/threads/search`), and grepping that common word
    lands on whichever definition of it comes first.
    """
    span = span.strip()
    names = []
    for before, token, after in _SPAN_NAME_RE.findall(span):
        if before or after:
            continue  # a path, URL or flag segment, whatever it looks like
        if (
            token[0].isupper()
            or is_identifier(token)
            or span == token
            or span.startswith(token + "(")
        ):
            names.append(token)
    return names


def names_from_pages(question: str, sources: Any, index: SymbolIndex, pages: int = 3) -> list[str]:
    """Defined names that the pages answering the question mention in code spans, best first.

    Why: questions rarely name the symbol ("how to config recursion limit"), but the page that
    answers them does (`GraphRecursionError`, `recursion_limit`). The best section of the top
    docs pages and KB articles is read; a name counts more the higher its page ranks. Only the
    names a span writes as code count (`_span_names`).
    """
    counts: dict[str, float] = {}
    ranked: list[tuple[Any, Any]] = []
    if getattr(sources, "docs", None) is not None:
        ranked += [(sources.docs, h) for h in sources.docs.search(question, pages)]
    if getattr(sources, "kb", None) is not None:
        ranked += [(sources.kb, h) for h in sources.kb.search(question, 2)]
    for rank, (corpus, hit) in enumerate(ranked):
        doc = corpus.get(hit.key)
        if doc is None:
            continue
        best = [sec for sec in doc.sections if sec.heading == hit.section] or doc.sections[:1]
        for span in inline_code_spans("\n\n".join(sec.text for sec in best)):
            for token in _span_names(span):
                if len(token) > 3 and not token.startswith("_") and token in index.names:
                    counts[token] = counts.get(token, 0.0) + 1.0 / (rank + 1)
    return sorted(counts, key=lambda name: (-counts[name], name))


def code_pattern(
    question: str, roots: list[CodeRoot], k: int = 3, sources: Any = None
) -> tuple[str, list[str]]:
    r"""A `search_code` pattern for the question's best symbols and quoted error message.

    Names come in this order: identifiers the question writes (defined, backticked or snake_case), names the
    answering pages mention (`names_from_pages`, when `sources` has docs or a KB), then names
    whose words match the question's. Returns the pattern (`\b(?:A|B)\b|message words`) and
    the names/message it is built from.
    """
    names: list[str] = []
    if roots:
        index = symbol_index(roots)
        # What the user writes explicitly is searched first: defined names, anything in
        # backticks, snake_case names (a parameter such as `stream_mode` is still worth a grep).
        # Undefined bare CamelCase words are mostly product or builtin names (LangGraph, ValueError).
        quoted = " ".join(inline_code_spans(question))
        named = [
            i
            for i in identifiers_in(question)
            if i in index.names or i in quoted or "_" in i.strip("_")
        ]
        from_pages = names_from_pages(question, sources, index) if sources is not None else []
        by_words = index.best(question, k)
        for name in [*named, *from_pages, *by_words]:
            if name not in names:
                names.append(name)
        names = names[:k]
    message = error_message(question)
    parts = [r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\b"] if names else []
    if message:
        parts.append(re.escape(message).replace("\\ ", " "))  # ripgrep rejects `\ `
    return "|".join(parts), names + ([message] if message else [])
