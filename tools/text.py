"""Text helpers shared by every source: identifier splitting, query terms, sanitising.

One place for "how words are cut" so the index, the offline model and the benchmarks agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain

# Words that carry no topic. Kept short on purpose: BM25's idf already discounts common words,
# this list only removes the question scaffolding that would make every query an OR of everything.
STOPWORDS = frozenset(
    """
    a an the and or but if then else of to in on at by for with from into onto over under about as
    is are was were be been being am do does did doing done have has had having can could should would
    will shall may might must i me my we our you your he she it its they them their this that these
    those there here what which who whom whose when where why how not no nor so too very just also
    any all some such only own same than s t don doesn didn isn aren wasn weren won get got gets
    use using used want wanted need needs trying try tried way ways work works working possible
    please help question issue problem like one way make makes e g eg vs via within without
    """.split()
)

_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?|[^\W\d_]+", re.UNICODE)
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@lru_cache(maxsize=65536)
def _split_cached(token: str) -> tuple[str, ...]:
    return tuple(split_identifier(token))


def split_identifier(token: str) -> list[str]:
    """Split `StateGraph`, `state_graph`, `stream_mode`, `INVALID_CONCURRENT_GRAPH_UPDATE` into words.

    Returns lower-case parts; a token that is a single plain word returns itself.
    """
    parts: list[str] = []
    for chunk in re.split(r"[_.\-/]+", token):
        if not chunk:
            continue
        parts.extend(p.lower() for p in _CAMEL_RE.findall(chunk))
    return parts or [token.lower()]


def is_identifier(token: str) -> bool:
    """True for tokens a person would only write when naming code: CamelCase, snake_case, CONSTANTS."""
    if "_" in token.strip("_") and re.search(r"[A-Za-z]", token):
        return True
    if re.fullmatch(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+", token):  # StateGraph
        return True
    if re.fullmatch(r"[a-z]+(?:[A-Z][a-z0-9]*)+", token):  # camelCase
        return True
    return bool(re.fullmatch(r"[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)+", token))  # ERROR_CODE


def expand_for_index(text: str) -> str:
    """Append the split parts of every compound identifier so `state graph` finds `StateGraph`.

    The original text stays first (phrases and snippets still read naturally); the expansions are
    appended once per distinct identifier.
    """
    extra: list[str] = []
    seen: set[str] = set()
    for ident in _IDENT_RE.findall(text):
        for token in ident.split(".") if "." in ident else (ident,):
            if token in seen:
                continue
            seen.add(token)
            if token.isalpha() and (token.islower() or token.isupper() or token[1:].islower()):
                continue  # a plain word: nothing to split (the common case, kept cheap)
            parts = _split_cached(token)
            if len(parts) > 1:
                extra.append(" ".join(parts))
                extra.append("".join(parts))
    if not extra:
        return text
    return text + "\n" + " ".join(extra)


def stem(word: str) -> str:
    """A light, deterministic English stemmer (plurals and -ing/-ed), the same for index and query.

    Deliberately conservative: a wrong merge costs precision on every query, a missed one only
    recall on a few. `streaming` -> `stream`, `nodes` -> `node`, `libraries` -> `library`.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        return word[:-3]
    if word.endswith("ed") and len(word) > 4:
        return word[:-2]
    return word


_TERM_RE = re.compile(r"\w+", re.UNICODE)


@lru_cache(maxsize=300_000)
def _token_terms(token: str) -> tuple[str, ...]:
    lower = token.lower()
    if "_" not in token.strip("_") and (token == lower or token[1:] == lower[1:]):
        parts = [lower.strip("_") or lower]  # a plain word: no identifier splitting needed
    else:
        parts = split_identifier(token)
    out = [stem(p) for p in parts if len(p) > 1 and p not in STOPWORDS]
    if len(parts) > 1:
        out.append("".join(parts))  # the joined form: `StateGraph` also matches `stategraph`
        letters = "".join(p for p in parts if not p.isdigit())
        if letters != out[-1] and len(letters) > 1:
            out.append(letters)  # `LangGraph1` also matches `langgraph`
    return tuple(out)


def token_cache_size() -> int:
    """How many distinct tokens the tokeniser has cached."""
    return _token_terms.cache_info().currsize


def clear_token_caches() -> None:
    """Forget cached tokens: a long-lived index worker trades a little speed for memory."""
    _token_terms.cache_clear()
    _split_cached.cache_clear()


def index_terms(text: str) -> list[str]:
    """Search terms of a text, in order: words and identifier parts, stemmed, stopwords dropped.

    The single tokenizer of the search index: pages and queries go through it alike.
    """
    # map/chain keep the per-token loop in C: index builds tokenise hundreds of megabytes.
    return list(chain.from_iterable(map(_token_terms, _TERM_RE.findall(text))))


def query_terms(query: str) -> list[str]:
    """Terms of a free-text query: identifiers split and joined, stopwords dropped, order kept."""
    terms: list[str] = []
    seen: set[str] = set()

    def add(term: str) -> None:
        term = term.lower()
        if term and term not in seen and term not in STOPWORDS and len(term) > 1:
            seen.add(term)
            terms.append(term)

    for raw in re.findall(r"[A-Za-z0-9_.\-]+|[^\W_]+", query, re.UNICODE):
        raw = raw.strip(".-")
        if not raw:
            continue
        parts = split_identifier(raw) if re.search(r"[A-Za-z]", raw) else [raw]
        if len(parts) > 1:
            add("".join(parts))
        for part in parts:
            add(part)
    return terms


def identifiers_in(text: str) -> list[str]:
    """Code identifiers a question names: backticked spans, CamelCase, snake_case, ERROR_CODES."""
    found: list[str] = []
    for span in inline_code_spans(text):
        for ident in _IDENT_RE.findall(span):
            found.append(ident.split(".")[-1] if "(" not in ident else ident)
    for token in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
        if is_identifier(token):
            found.append(token)
    out: list[str] = []
    for ident in found:
        ident = ident.strip("_") if ident.strip("_") else ident
        if len(ident) >= 3 and ident not in out:
            out.append(ident)
    return out


_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE)
# Bold in prose only: `__x__` counts only between non-word characters, so `__init__.py` and
# `my__var` survive; code (fences, inline spans, numbered code lines) is left untouched.
_BOLD_RE = re.compile(
    r"\*\*(?=\S)(.+?)(?<=\S)\*\*|(?<![\w/.])__(?=\S)(.+?)(?<=\S)__(?![\w.])", re.DOTALL
)
_CODE_SPAN_RE = re.compile(r"(```.*?(?:```|\Z)|`[^`\n]*`|^\s*\d+ \| .*$)", re.DOTALL | re.MULTILINE)
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def strip_bold(text: str) -> str:
    """Remove bold markers (which read as emphasis or orders to a model) from prose, not code."""
    if "**" not in text and "__" not in text:
        return text  # the common case, and a hot path (every snippet)
    parts = _CODE_SPAN_RE.split(text)  # even items are prose, odd ones code
    if "\x00" in text:  # no placeholder is safe: bold is stripped in each stretch of prose
        return "".join(p if i % 2 else _unbold(p) for i, p in enumerate(parts))
    # Code stands in as placeholders, so bold around a span (**`x` is off**) is seen whole.
    prose = _unbold("".join(f"\x00{i}\x00" if i % 2 else p for i, p in enumerate(parts)))
    return re.sub("\x00(\\d+)\x00", lambda m: parts[int(m.group(1))], prose)


def _unbold(prose: str) -> str:
    return _BOLD_RE.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), prose)


def inline_code_spans(text: str, limit: int = 80) -> list[str]:
    """The inline code spans of Markdown text (`like_this`), outside fenced blocks.

    Spans are paired as `_CODE_SPAN_RE` pairs them: a fence is consumed whole, and a span of
    any length closes at the next backtick, so a one-character span (`0`) cannot shift the
    pairing and make the prose between two spans read as code. Spans over `limit` characters
    are left out (a pasted block, not a name).
    """
    return [
        span[1:-1]
        for span in _CODE_SPAN_RE.findall(text)
        if span.startswith("`") and not span.startswith("```") and 2 < len(span) <= limit + 2
    ]


def strip_controls(text: str) -> str:
    """Drop control and bidi-override characters; keep newlines and tabs."""
    return _CONTROL_RE.sub("", text)


def sanitize_external(text: str, limit: int = 500) -> str:
    """Make retrieved text unable to pose as instructions: no headings, no bold, capped length.

    Used for snippets and other short excerpts of external text that land in the model's context.
    """
    if "#" in text:
        text = _HEADING_RE.sub("", text)
    text = " ".join(strip_controls(strip_bold(text)).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def fence_code(code: str, language: str = "") -> str:
    """`code` as a fenced block in `language`, with a fence no backtick run inside can close.

    The one fence maker: CommonMark lets a longer run of backticks fence in a block whose own
    text holds ``` (a docstring's example, a Markdown sample), so the fence is one longer than
    the longest run inside, and at least three.
    """
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code}\n{fence}"


def fenced_lines(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each line with whether a ``` code fence is open after it (an opening line is inside).

    The one fence tracker: paragraphs, findings and clipped quotes all keep code blocks whole with it.
    """
    inside = False
    for line in lines:
        if line.lstrip().startswith("```"):
            inside = not inside
        yield line, inside


def ends_in_fence(text: str) -> bool:
    """True when `text` stops inside an unclosed ``` code fence."""
    state = False
    for _, state in fenced_lines(text.splitlines()):  # noqa: B007 — the last state is the answer
        pass
    return state
