"""The built-in offline model: a deterministic, extractive baseline that needs no API key.

It is a real `BaseChatModel` (bind_tools, token streaming) that plays the agent's part by rules:
1. search docs and KB with the user's question (and code, when the question names an identifier);
2. read the best page, the most relevant articles and the best code match;
3. answer with the 3-5 passages that best match the question, quoted and cited, under a first
   line saying plainly that this is an extractive answer because no model is configured.
Nothing is generated: every sentence in the answer comes from a source or from a fixed phrase.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from graphs.language import phrase, resolve_language
from tools.text import identifiers_in, query_terms, stem

MAX_PASSAGES = 5
MIN_PASSAGES = 3
PASSAGE_CHARS = 700
_TOKEN_RE = re.compile(r"\s*\S+")


def message_text(message: BaseMessage) -> str:
    """Plain text of a message whose content may be a string or a list of content blocks."""
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def current_turn(messages: Sequence[BaseMessage]) -> tuple[str, list[BaseMessage]]:
    """The latest user question and the messages that followed it (this turn's tool traffic)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].type == "human":
            return message_text(messages[i]), list(messages[i + 1 :])
    return "", list(messages)


class Passage:
    """A quotable piece of a source with its citation."""

    def __init__(self, text: str, title: str, cite: str, kind: str, heading: str = "") -> None:
        self.text = text
        self.title = title
        self.cite = cite
        self.kind = kind
        self.heading = heading
        self.score = 0.0


def _split_sections(body: str) -> Iterator[tuple[str, str]]:
    """(heading, text) pairs of a rendered markdown page, code fences kept whole."""
    heading = ""
    buf: list[str] = []
    fence = False
    for line in body.splitlines():
        if line.startswith("```"):
            fence = not fence
        if not fence and re.match(r"#{1,6} ", line):
            if buf:
                yield heading, "\n".join(buf)
            heading, buf = line.lstrip("#").strip(), []
            continue
        buf.append(line)
    if buf:
        yield heading, "\n".join(buf)


def _paragraphs(text: str) -> list[str]:
    """Blank-line separated blocks; a code fence stays with the paragraph before it."""
    blocks: list[str] = []
    buf: list[str] = []
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        if not line.strip() and not fence:
            if buf:
                blocks.append("\n".join(buf).strip())
                buf = []
            continue
        buf.append(line)
    if buf:
        blocks.append("\n".join(buf).strip())
    merged: list[str] = []
    for block in blocks:
        if block.startswith("```") and merged and not merged[-1].startswith("```"):
            merged[-1] += "\n" + block
        else:
            merged.append(block)
    return [
        b
        for b in merged
        if len(b) > 40 and not b.startswith(("Source:", "Description:", "[Page cut"))
    ]


def _slug(heading: str) -> str:
    slug = re.sub(r"[^\w\s-]", "", heading.lower()).strip()
    return re.sub(r"\s+", "-", slug)


def _doc_passages(msg: ToolMessage) -> list[Passage]:
    text = message_text(msg)
    m = re.search(r"^Source: (\S+)", text, re.MULTILINE)
    title_m = re.match(r"# (.+)", text)
    if not m:
        return []
    url = m.group(1).split("#", 1)[0]
    title = title_m.group(1).strip() if title_m else url
    out = []
    for heading, body in _split_sections(text.split("\n", 2)[-1]):
        section = heading if heading != title else ""
        cite = url + (f"#{_slug(section)}" if section else "")
        for para in _paragraphs(body):
            out.append(Passage(para, title, cite, "docs", section))
    return out


def _kb_passages(msg: ToolMessage) -> list[Passage]:
    out = []
    for article in message_text(msg).split("\n\n---\n\n"):
        id_m = re.match(r"## Article (\S+)", article)
        src = re.search(r"^Source: (\S+)", article, re.MULTILINE)
        title_m = re.search(r"^# (.+)", article, re.MULTILINE)
        if not id_m:
            continue
        cite = f"KB {id_m.group(1)}" + (f" — {src.group(1)}" if src else "")
        title = title_m.group(1).strip() if title_m else id_m.group(1)
        body = article.split("\n", 3)[-1]
        for heading, section in _split_sections(body):
            for para in _paragraphs(section):
                out.append(Passage(para, title, cite, "kb", heading if heading != title else ""))
    return out


def _code_passages(msg: ToolMessage) -> list[Passage]:
    art = msg.artifact if isinstance(msg.artifact, dict) else {}
    text = message_text(msg)
    if not art.get("file"):
        return []
    rows = [line for line in text.splitlines()[1:] if re.match(r"\s*\d+ \| ", line)]
    out = []
    for i in range(0, len(rows), 15):
        chunk = rows[i : i + 15]
        first = int(chunk[0].split("|", 1)[0])
        last = int(chunk[-1].split("|", 1)[0])
        code = "\n".join(r.split(" | ", 1)[1] if " | " in r else "" for r in chunk)
        out.append(Passage(code, art["file"], f"{art['file']}:{first}-{last}", "code"))
    return out


def rank_passages(question: str, passages: list[Passage]) -> list[Passage]:
    """BM25-like scoring of passages against the question's terms (idf over these passages)."""
    terms = [stem(t) for t in query_terms(question)]
    if not terms or not passages:
        return []
    docs = [
        [stem(w) for w in re.findall(r"[a-z0-9]+", (p.heading + " " + p.text).lower())]
        for p in passages
    ]
    n = len(docs)
    avg = sum(len(d) for d in docs) / n or 1.0
    df = {t: sum(1 for d in docs if t in d) for t in terms}
    for p, words in zip(passages, docs, strict=True):
        score = 0.0
        for t in terms:
            tf = words.count(t)
            if not tf:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(words) / avg))
            if t in p.heading.lower():
                score += idf * 0.5
        p.score = score
    return sorted((p for p in passages if p.score > 0), key=lambda p: -p.score)


def choose_passages(question: str, passages: list[Passage]) -> list[Passage]:
    """3-5 best passages, at most 2 from one citation and the best of each source kind included."""
    ranked = rank_passages(question, passages)
    chosen: list[Passage] = []
    for kind in ("docs", "kb", "code"):
        best = next((p for p in ranked if p.kind == kind), None)
        if best and (not chosen or best.score >= 0.35 * chosen[0].score):
            chosen.append(best)
    for p in ranked:
        if len(chosen) >= MAX_PASSAGES:
            break
        if p in chosen or sum(c.cite == p.cite for c in chosen) >= 2:
            continue
        if len(chosen) >= MIN_PASSAGES and p.score < 0.5 * ranked[0].score:
            break
        chosen.append(p)
    return sorted(chosen, key=lambda p: -p.score)


def _clip(text: str, limit: int = PASSAGE_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if cut.count("```") % 2:
        cut = cut.rsplit("```", 1)[0]
    return cut.rstrip() + " …"


def compose_answer(question: str, turn: list[BaseMessage], language: str) -> str:
    """The extractive answer: a plain first line, the chosen passages quoted, then the sources."""
    passages: list[Passage] = []
    for msg in turn:
        if not isinstance(msg, ToolMessage) or msg.status == "error":
            continue
        if msg.name == "get_doc_page":
            passages += _doc_passages(msg)
        elif msg.name == "get_article_content":
            passages += _kb_passages(msg)
        elif msg.name == "read_code_file":
            passages += _code_passages(msg)
    chosen = choose_passages(question, passages)
    lines = [f"_{phrase('extractive', language)}_", ""]
    if not chosen:
        lines.append(phrase("nothing", language))
        return "\n".join(lines)
    sources: list[str] = []
    for p in chosen:
        label = p.title + (f" › {p.heading}" if p.heading else "")
        if p.kind == "code":
            lines.append(f"**{label}** — `{p.cite}`")
            lines.append("```python\n" + _clip(p.text) + "\n```")
        else:
            lines.append(f"**{label}** — {p.cite}")
            lines.append("\n".join("> " + line for line in _clip(p.text).splitlines()))
        lines.append("")
        if p.cite not in sources:
            sources.append(p.cite)
    lines.append(f"**{phrase('sources', language)}:**")
    lines += [f"{i}. {c}" for i, c in enumerate(sources, 1)]
    return "\n".join(lines)


class OfflineChatModel(BaseChatModel):
    """Deterministic extractive model; see the module docstring for what it does."""

    tool_names: tuple[str, ...] = ()
    language: str = "auto"

    @property
    def _llm_type(self) -> str:
        return "docs-agent-offline"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> OfflineChatModel:
        """Remember which tools exist; the plan only calls those."""
        names = []
        for t in tools:
            if isinstance(t, BaseTool):
                names.append(t.name)
            elif isinstance(t, dict) and "name" in t:
                names.append(str(t["name"]))
            else:
                names.append(convert_to_openai_tool(t)["function"]["name"])
        return self.model_copy(update={"tool_names": tuple(names)})

    # -- planning ------------------------------------------------------------------------------

    def plan(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """The next step: tool calls for this turn, or the final answer."""
        if is_suggestions_request(messages):
            return AIMessage(content=offline_suggestions(messages, self.language))
        question, turn = current_turn(messages)
        lang = resolve_language(self.language, question)
        done = {m.name for m in turn if isinstance(m, ToolMessage)}
        results = {m.name: m for m in turn if isinstance(m, ToolMessage)}
        calls: list[dict[str, Any]] = []
        if not question.strip():
            return AIMessage(content=phrase("nothing", lang))
        searches = {"search_docs", "search_support_articles", "search_code"}
        if not done & searches:
            calls = self._search_calls(question, lang)
        elif not done & {"get_doc_page", "get_article_content", "read_code_file"}:
            calls = self._read_calls(results, lang)
        if calls:
            return AIMessage(
                content="", tool_calls=[self._call(c, messages, i) for i, c in enumerate(calls)]
            )
        return AIMessage(content=compose_answer(question, turn, lang))

    def _has(self, name: str) -> bool:
        return name in self.tool_names

    def _search_calls(self, question: str, lang: str) -> list[dict[str, Any]]:
        query = question.strip()[:500]
        calls = []
        if self._has("search_docs"):
            calls.append(
                {
                    "name": "search_docs",
                    "args": {
                        "query": query,
                        "limit": 5,
                        "feedback_to_user": phrase("search_docs", lang),
                    },
                }
            )
        if self._has("search_support_articles"):
            calls.append(
                {
                    "name": "search_support_articles",
                    "args": {
                        "query": query,
                        "collections": "all",
                        "limit": 10,
                        "feedback_to_user": phrase("search_kb", lang),
                    },
                }
            )
        code = _code_step(question) if self._has("search_code") else None
        if code:
            pattern, label = code
            calls.append(
                {
                    "name": "search_code",
                    "args": {
                        "pattern": pattern,
                        "path": None,
                        "feedback_to_user": f"{phrase('search_code', lang)} {label}",
                    },
                }
            )
        return calls

    def _read_calls(
        self, results: dict[str | None, ToolMessage], lang: str
    ) -> list[dict[str, Any]]:
        calls = []
        docs = results.get("search_docs")
        if (
            docs is not None
            and isinstance(docs.artifact, list)
            and docs.artifact
            and self._has("get_doc_page")
        ):
            top = docs.artifact[0]
            calls.append(
                {
                    "name": "get_doc_page",
                    "args": {
                        "url_or_path": top["url"],
                        "section": None,
                        "feedback_to_user": f"{phrase('read_page', lang)}: {top['title']}",
                    },
                }
            )
        kb = results.get("search_support_articles")
        if (
            kb is not None
            and isinstance(kb.artifact, list)
            and kb.artifact
            and self._has("get_article_content")
        ):
            ids = [a["id"] for a in kb.artifact[:2]]
            calls.append(
                {
                    "name": "get_article_content",
                    "args": {"article_ids": ids, "feedback_to_user": phrase("read_kb", lang)},
                }
            )
        code = results.get("search_code")
        if (
            code is not None
            and isinstance(code.artifact, list)
            and code.artifact
            and self._has("read_code_file")
        ):
            top = code.artifact[0]
            line = top["lines"][0] if top.get("lines") else 1
            calls.append(
                {
                    "name": "read_code_file",
                    "args": {
                        "file_path": top["file"],
                        "start_line": max(1, line - 5),
                        "num_lines": 45,
                        "feedback_to_user": f"{phrase('read_code', lang)} {top['file'].rsplit('/', 1)[-1]}",
                    },
                }
            )
        return calls

    @staticmethod
    def _call(call: dict[str, Any], messages: Sequence[BaseMessage], i: int) -> dict[str, Any]:
        seed = f"{len(messages)}|{call['name']}|{sorted(call['args'].items(), key=str)}|{i}"
        call_id = "call_" + hashlib.sha1(seed.encode()).hexdigest()[:16]
        return {"name": call["name"], "args": call["args"], "id": call_id, "type": "tool_call"}

    # -- BaseChatModel -------------------------------------------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.plan(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self.plan(messages)
        if message.tool_calls:
            chunk = AIMessageChunk(
                content="",
                tool_call_chunks=[
                    {
                        "name": c["name"],
                        "args": _json(c["args"]),
                        "id": c["id"],
                        "index": i,
                        "type": "tool_call_chunk",
                    }
                    for i, c in enumerate(message.tool_calls)
                ],
            )
            yield ChatGenerationChunk(message=chunk)
            return
        for token in _TOKEN_RE.findall(str(message.content)):
            yield ChatGenerationChunk(message=AIMessageChunk(content=token))


def _code_step(question: str) -> tuple[str, str] | None:
    """The code search for a question; None when nothing fits.

    Its named identifiers, the names the pages answering it mention, and the defined symbols its
    words point to (`tools.code_symbols`), over the configured code roots.
    """
    from tools import load_sources
    from tools.code_symbols import code_pattern

    try:
        sources = load_sources()
        roots = sources.code_roots
    except Exception:  # noqa: BLE001 — a broken source config must not stop the answer
        sources, roots = None, []
    if roots:
        pattern, names = code_pattern(question, roots, sources=sources)
        if pattern:
            return pattern, ", ".join(names[:3])
    idents = identifiers_in(question)
    if idents:
        return r"\b" + re.escape(idents[0]) + r"\b", idents[0]
    return None


def _json(args: dict[str, Any]) -> str:
    import json

    return json.dumps(args, ensure_ascii=False)


# -- follow-up suggestions (called by graphs/suggests.py) -------------------------------------------
# The suggestion call's system message starts with SUGGESTIONS_MARKER and its one user message is a
# transcript under USER_HEADER / ASSISTANT_HEADER lines. Offline, suggestions come from the headings
# the last answer cited, emitted as fenced JSON so they pass through the same parser as a real model's.

SUGGESTIONS_MARKER = "Task: suggest follow-up questions."
USER_HEADER = "### User"
ASSISTANT_HEADER = "### Assistant"
_MORE_ABOUT = {
    "en": "Tell me more about {topic}",
    "ru": "Расскажи подробнее: {topic}",
    "pl": "Powiedz mi więcej o: {topic}",
    "it": "Dimmi di più su: {topic}",
    "de": "Erzähl mir mehr über: {topic}",
    "es": "Cuéntame más sobre: {topic}",
    "fr": "Dis-m'en plus sur : {topic}",
}
# Cited passages are labelled "**Title › Heading** — cite" (docs_agent) or "- Title › Heading: …" (deep_agent).
_CITED_LABEL_RE = re.compile(r"^(?:\*\*(.+?)\*\* — |- (.+? › .+?): )", re.MULTILINE)


def is_suggestions_request(messages: Sequence[BaseMessage]) -> bool:
    """True when the first message is the suggestion call's system prompt."""
    return (
        bool(messages)
        and messages[0].type == "system"
        and SUGGESTIONS_MARKER in message_text(messages[0])
    )


def offline_suggestions(messages: Sequence[BaseMessage], language: str) -> str:
    """Deterministic follow-ups: one per heading cited in the last answer, in the user's language."""
    limit_m = re.search(r"up to (\d+)", message_text(messages[0]))
    limit = int(limit_m.group(1)) if limit_m else 3
    text = "\n".join(message_text(m) for m in messages[1:])
    blocks = re.split(
        rf"^({re.escape(USER_HEADER)}|{re.escape(ASSISTANT_HEADER)})$", text, flags=re.MULTILINE
    )
    questions = [
        blocks[i + 1].strip() for i in range(1, len(blocks) - 1, 2) if blocks[i] == USER_HEADER
    ]
    answers = [blocks[i + 1] for i in range(1, len(blocks) - 1, 2) if blocks[i] == ASSISTANT_HEADER]
    lang = resolve_language(language, questions[-1] if questions else "")
    template = _MORE_ABOUT.get(lang, _MORE_ABOUT["en"])
    asked = {q.lower() for q in questions}
    suggests: list[dict[str, Any]] = []
    for bold, bullet in _CITED_LABEL_RE.findall(answers[-1] if answers else ""):
        label = bold or bullet
        title, _, heading = (part.strip() for part in label.partition(" › "))
        prompt = template.format(topic=f"{heading} ({title})" if heading else title)
        if (
            len(suggests) >= limit
            or prompt.lower() in asked
            or any(s["prompt"] == prompt for s in suggests)
        ):
            continue
        short = heading if heading and all(s["label"] != heading for s in suggests) else title
        if len(short) > 40:
            short = short[:40].rsplit(" ", 1)[0] + "…"
        suggests.append({"label": short, "prompt": prompt, "position": len(suggests)})
    return "```json\n" + json.dumps({"suggests": suggests}, ensure_ascii=False, indent=1) + "\n```"
