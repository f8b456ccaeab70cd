"""Guardrails: input checks and a cheap on-topic / off-topic / abusive classification, before any model call.

Runs as the first `before_agent` hook, so a refused or rejected turn costs no model call and no tool
call, and the thread stays consistent (the question, then one AI message that says why).

The classification is a deterministic rule set (an allowlist of product words wins over everything,
then explicit off-topic and abuse patterns); when `DOCS_AGENT_GUARDRAILS_MODEL` names a cheap model it
is asked only for questions the rules cannot settle, and the rules decide if that model fails.
Hand-written because langchain ships no topic classifier middleware (`PIIMiddleware` is about PII).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware, AgentState, hook_config
from langchain.tools.tool_node import ToolCallRequest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import Command

from graphs.language import detect_language
from tools.text import strip_bold, strip_controls

log = logging.getLogger(__name__)

Verdict = Literal["on_topic", "off_topic", "abusive"]

DEFAULT_MAX_INPUT_CHARS = 16_000
DEFAULT_MAX_TOOL_CHARS = 16_000

# Words that make a question ours whatever else it says. Extend with DOCS_AGENT_GUARDRAILS_ALLOW.
ALLOWLIST = frozenset(
    """
    langgraph langchain langsmith agent agents graph graphs node nodes edge edges state checkpoint
    checkpointer thread threads run runs stream streaming token tokens tool tools middleware model
    models prompt api sdk server deploy deployment install error exception traceback bug config
    configuration docs documentation python javascript typescript package import function class
    memory store subgraph interrupt human loop studio cli docker env variable key auth webhook cron
    assistant assistants retriever embedding vector rag llm chat openai anthropic timeout
    граф агент ошибка установка документация поток модель инструмент
    """.split()
)

_OFF_TOPIC = re.compile(
    r"\b(weather|forecast|recipe|cook(ing)?|bake|joke|poem|poetry|lyrics|horoscope|zodiac|lottery|"
    r"football|soccer|basketball|who won|world cup|stock price|bitcoin price|crypto price|movie|"
    r"netflix|dating|girlfriend|boyfriend|capital of|president of|celebrity|diet|workout)\b"
    r"|погод|рецепт|анекдот|стих|гороскоп|футбол",
    re.IGNORECASE,
)
_ABUSE = re.compile(
    r"\b(fuck\w*|shit\w*|bitch\w*|asshole|idiot|moron|retard\w*|kill you|die,? bot|stupid bot|"
    r"dumb bot)\b|сука|бля\w*|идиот|дебил|хуй\w*",
    re.IGNORECASE,
)
_CODE_RE = re.compile(r"`|\w+\(|\b\w+_\w+\b|\b[A-Z][a-z]+[A-Z]\w*\b|Error\b|\.py\b|/")
_INJECTION_RE = re.compile(
    r"ignore (all |any )?(the )?(previous|prior|above|earlier) (instructions|prompts?)|disregard (all |the )?"
    r"(previous|prior|above)|you are now|new instructions|system prompt|игнорируй",
    re.IGNORECASE,
)
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$", re.MULTILINE)

REPLIES: dict[str, dict[str, str]] = {
    "off_topic": {
        "en": "Sorry, I can only help with questions about this product: its documentation, support "
        "articles and source code. Please ask me something about using it.",
        "ru": "Извините, я отвечаю только на вопросы об этом продукте: по документации, статьям "
        "поддержки и исходному коду. Спросите, пожалуйста, что-нибудь о его использовании.",
    },
    "abusive": {
        "en": "I'm here to help with this product's documentation, support articles and code. "
        "If something isn't working, tell me what you tried and what happened, and I'll look it up.",
        "ru": "Я здесь, чтобы помочь с документацией, статьями поддержки и кодом продукта. Если что-то "
        "не работает, опишите, что вы сделали и что произошло, и я поищу ответ.",
    },
    "empty": {
        "en": "Your message is empty. Please type your question about the product.",
        "ru": "Сообщение пустое. Напишите, пожалуйста, ваш вопрос о продукте.",
    },
    "too_long": {
        "en": "Your message is {size:,} characters long; the limit is {limit:,}. Please shorten it: "
        "ask the question and paste only the relevant part of the log or code.",
        "ru": "Сообщение длиной {size:,} символов, а предел — {limit:,}. Сократите его: задайте вопрос "
        "и вставьте только нужную часть лога или кода.",
    },
}


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


def reply(key: str, text: str, **fmt: Any) -> str:
    """The localized reply for `key` (English unless the question is Russian)."""
    table = REPLIES[key]
    lang = detect_language(text) if text else "en"
    return table.get(lang, table["en"]).format(**fmt)


def allowlist() -> frozenset[str]:
    """Default allowlist plus comma-separated DOCS_AGENT_GUARDRAILS_ALLOW words."""
    extra = {
        w.strip().lower()
        for w in os.environ.get("DOCS_AGENT_GUARDRAILS_ALLOW", "").split(",")
        if w.strip()
    }
    return ALLOWLIST | extra


def classify_by_rules(text: str) -> Verdict | None:
    """Deterministic verdict, or None when the rules cannot tell (then: a model, or on-topic)."""
    words = set(re.findall(r"[^\W\d]+", text.lower()))
    if words & allowlist() or _CODE_RE.search(text):
        return "on_topic"
    if _ABUSE.search(text):
        return "abusive"
    if _OFF_TOPIC.search(text):
        return "off_topic"
    return None


CLASSIFIER_PROMPT = (
    "Classify the user's message for a product documentation and support assistant. Answer with "
    "one word: on_topic (about the product, software, its docs, errors, code, or a greeting), "
    "off_topic (anything else), or abusive (insults or threats with no question)."
)


def _parse_verdict(text: str) -> Verdict:
    t = text.strip().lower()
    if "abusive" in t:
        return "abusive"
    if "off_topic" in t or "off-topic" in t:
        return "off_topic"
    return "on_topic"


def _last_human(state: AgentState) -> HumanMessage | None:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    return last if isinstance(last, HumanMessage) else None


def _text_of(message: HumanMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)


class GuardrailsMiddleware(AgentMiddleware):
    """Empty / oversized / control-character input and the topic check, before the agent runs.

    Env: DOCS_AGENT_MAX_INPUT_CHARS (16000), DOCS_AGENT_GUARDRAILS (on; `off` disables the topic
    check), DOCS_AGENT_GUARDRAILS_MODEL (optional cheap classifier), DOCS_AGENT_GUARDRAILS_ALLOW.
    """

    def __init__(self, max_input_chars: int | None = None, classifier: Any = None) -> None:
        """`classifier`: a chat model to ask when the rules are unsure (default: from the env)."""
        super().__init__()
        self.max_input_chars = max_input_chars or _env_int(
            "DOCS_AGENT_MAX_INPUT_CHARS", DEFAULT_MAX_INPUT_CHARS
        )
        self._classifier = classifier

    def _classifier_model(self) -> Any:
        if self._classifier is not None:
            return self._classifier
        spec = os.environ.get("DOCS_AGENT_GUARDRAILS_MODEL", "").strip()
        if not spec:
            return None
        from graphs.models import load_chat_model  # late: models imports heavy provider packages

        return load_chat_model(spec, streaming=False).with_config(tags=["nostream"])

    def _topic_enabled(self) -> bool:
        return os.environ.get("DOCS_AGENT_GUARDRAILS", "on").strip().lower() not in {
            "0",
            "off",
            "false",
            "no",
        }

    def _inspect(self, state: AgentState) -> tuple[dict[str, Any] | None, str | None]:
        """(update to return now, text still to classify)."""
        human = _last_human(state)
        if human is None:
            return None, None
        raw = _text_of(human)
        text = strip_controls(raw)
        if not text.strip():
            return self._end(human, text, reply("empty", "")), None
        if len(text) > self.max_input_chars:
            kept = (
                text[:2000]
                + f"\n[… message cut: {len(text):,} characters, limit {self.max_input_chars:,}]"
            )
            return self._end(
                human,
                kept,
                reply("too_long", text[:2000], size=len(text), limit=self.max_input_chars),
            ), None
        if text != raw and isinstance(human.content, str):
            # Same id: add_messages replaces the stored question with the cleaned one.
            return {"messages": [HumanMessage(content=text, id=human.id)]}, text
        return None, text

    @staticmethod
    def _end(human: HumanMessage, stored: str, answer: str) -> dict[str, Any]:
        return {
            "messages": [HumanMessage(content=stored, id=human.id), AIMessage(content=answer)],
            "jump_to": "end",
        }

    def _verdict_update(
        self, verdict: Verdict, text: str, update: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        if verdict == "on_topic":
            return update
        log.info("guardrails: %s question refused", verdict)
        messages = list((update or {}).get("messages", [])) + [
            AIMessage(content=reply(verdict, text))
        ]
        return {"messages": messages, "jump_to": "end"}

    @hook_config(can_jump_to=["end"])
    def before_agent(self, state: AgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Check the newest question; end the turn with a clear message when it must not run."""
        update, text = self._inspect(state)
        if text is None or not self._topic_enabled():
            return update
        verdict = classify_by_rules(text)
        if verdict is None:
            verdict = "on_topic"
            model = self._classifier_model()
            if model is not None:
                try:
                    out = model.invoke(
                        [SystemMessage(CLASSIFIER_PROMPT), HumanMessage(text[:2000])]
                    )
                    verdict = _parse_verdict(str(out.content))
                except Exception as exc:  # noqa: BLE001 — the rules decide when the classifier fails
                    log.warning("guardrails classifier failed (%s); allowing the question", exc)
        return self._verdict_update(verdict, text, update)

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(
        self, state: AgentState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `before_agent` (the classifier call is awaited)."""
        update, text = self._inspect(state)
        if text is None or not self._topic_enabled():
            return update
        verdict = classify_by_rules(text)
        if verdict is None:
            verdict = "on_topic"
            model = self._classifier_model()
            if model is not None:
                try:
                    out = await model.ainvoke(
                        [SystemMessage(CLASSIFIER_PROMPT), HumanMessage(text[:2000])]
                    )
                    verdict = _parse_verdict(str(out.content))
                except Exception as exc:  # noqa: BLE001 — the rules decide when the classifier fails
                    log.warning("guardrails classifier failed (%s); allowing the question", exc)
        return self._verdict_update(verdict, text, update)


def sanitize_tool_output(text: str, limit: int) -> str:
    """Retrieved text as the model may see it: no bold, no controls, injection headings demoted, capped.

    Structural page headings stay (citations use their anchors); a heading that reads like an
    instruction to the model loses its `#` and is marked as quoted page text.
    """
    text = strip_controls(text)
    text = strip_bold(text)
    text = _HEADING_RE.sub(
        lambda m: f"(page text) {m.group(1)}" if _INJECTION_RE.search(m.group(1)) else m.group(0),
        text,
    )
    if len(text) > limit:
        text = text[:limit].rsplit("\n", 1)[0] + f"\n[… cut at {limit:,} characters]"
    return text


class ToolOutputSanitizerMiddleware(AgentMiddleware):
    """Sanitize every tool result before the model reads it (DOCS_AGENT_MAX_TOOL_CHARS, 16000).

    Hand-written: the tools already clean their output, this is the single last gate that also
    covers tools added later and backends that return raw text.
    """

    def __init__(self, limit: int | None = None) -> None:
        """`limit`: the most characters of one tool result."""
        super().__init__()
        self.limit = limit or _env_int("DOCS_AGENT_MAX_TOOL_CHARS", DEFAULT_MAX_TOOL_CHARS)

    def _clean(self, result: ToolMessage | Command[Any]) -> ToolMessage | Command[Any]:
        if isinstance(result, ToolMessage) and isinstance(result.content, str):
            cleaned = sanitize_tool_output(result.content, self.limit)
            if cleaned != result.content:
                return result.model_copy(update={"content": cleaned})
        return result

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool, then sanitize its text."""
        return self._clean(handler(request))

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async twin of `wrap_tool_call`."""
        return self._clean(await handler(request))


def guardrail_middleware() -> list[AgentMiddleware[Any, Any]]:
    """Input checks and topic classification, then the tool-output gate."""
    return [GuardrailsMiddleware(), ToolOutputSanitizerMiddleware()]
