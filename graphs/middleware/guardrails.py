"""Guardrails: input checks and a cheap on-topic / off-topic / abusive classification, before any model call.

Runs as the first `before_agent` hook, so a refused or rejected turn costs no model call and no tool
call, and the thread stays consistent (the question, then one AI message that says why).

The classification is a deterministic rule set (an allowlist of product words wins over everything,
then explicit off-topic and abuse patterns); when `DOCS_AGENT_GUARDRAILS_MODEL` names a cheap model it
is asked only for questions the rules cannot settle, and the rules decide if that model fails.
Hand-written because langchain ships no topic classifier middleware (`PIIMiddleware` is about PII).

The size cap holds on every way text enters a thread, not only the run input: a user can write
any messages into their own thread (`threads.update_state`) and resume a run with any value, and a
run resumed after such a write starts at the tools, not at `before_agent`. So every model call
gets the messages capped again (an oversized current question ends the turn as at the start;
older or non-human messages are cut), and a tool call whose arguments are oversized is answered
with an error instead of run. The server refuses writes far over these caps at the door
(`server/limits.py`, DOCS_AGENT_MAX_WRITE_CHARS) where the engine shows it the payload.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Literal

from langchain.agents.middleware import (
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    hook_config,
)
from langchain.agents.middleware.types import ModelCallResult
from langchain.tools.tool_node import ToolCallRequest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import Command

from graphs.offline.language import detect_language
from settings import current
from tools.text import strip_controls

log = logging.getLogger(__name__)

Verdict = Literal["on_topic", "off_topic", "abusive"]

DEFAULT_MAX_INPUT_CHARS = 16_000
# A message other than a question (an AI message, a tool result) may be this many times longer
# before it is cut: tool results are capped at DOCS_AGENT_MAX_TOOL_CHARS (16,000) already, so
# only a message a user wrote into their thread reaches it.
OTHER_MESSAGE_FACTOR = 4
KEPT_CHARS = 2000  # what stays of an oversized question, so the thread shows what was sent

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


def reply(key: str, text: str, **fmt: Any) -> str:
    """The localized reply for `key` (English unless the question is Russian)."""
    table = REPLIES[key]
    lang = detect_language(text) if text else "en"
    return table.get(lang, table["en"]).format(**fmt)


def classify_by_rules(text: str, allow: Iterable[str] | None = None) -> Verdict | None:
    """Deterministic verdict, or None when the rules cannot tell (then: a model, or on-topic).

    `allow`: extra product words (default: DOCS_AGENT_GUARDRAILS_ALLOW).
    """
    extra = current().agent.guardrails_allow if allow is None else allow
    words = set(re.findall(r"[^\W\d]+", text.lower()))
    if words & (ALLOWLIST | set(extra)) or _CODE_RE.search(text):
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


def _args_size(args: Any) -> int:
    """Characters of a tool call's arguments as JSON (what a model provider is sent)."""
    try:
        return len(json.dumps(args, ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        return len(str(args))


def _last_human(state: AgentState) -> HumanMessage | None:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    return last if isinstance(last, HumanMessage) else None


class GuardrailsMiddleware(AgentMiddleware):
    """Empty / oversized / control-character input and the topic check, before the agent runs.

    Settings: DOCS_AGENT_MAX_INPUT_CHARS (16000), DOCS_AGENT_GUARDRAILS (on; `off` disables the
    topic check), DOCS_AGENT_GUARDRAILS_MODEL (optional cheap classifier), DOCS_AGENT_GUARDRAILS_ALLOW.
    """

    def __init__(
        self,
        max_input_chars: int = DEFAULT_MAX_INPUT_CHARS,
        classifier: Any = None,
        *,
        topic_check: bool = True,
        classifier_model: str = "",
        allow: Iterable[str] = (),
    ) -> None:
        """`classifier`: a chat model to ask when the rules are unsure (else `classifier_model`)."""
        super().__init__()
        self.max_input_chars = max_input_chars
        self.topic_check = topic_check
        self.classifier_spec = classifier_model
        self.allow = tuple(allow)
        self._classifier = classifier

    def _classifier_model(self) -> Any:
        if self._classifier is not None:
            return self._classifier
        if not self.classifier_spec:
            return None
        from graphs.models import load_chat_model  # late: models imports heavy provider packages

        return load_chat_model(self.classifier_spec, streaming=False).with_config(tags=["nostream"])

    @property
    def max_other_chars(self) -> int:
        """The most characters of a message that is not a question, or of a call's arguments."""
        return OTHER_MESSAGE_FACTOR * self.max_input_chars

    def _cut_question(self, text: str) -> str:
        return (
            text[:KEPT_CHARS]
            + f"\n[… message cut: {len(text):,} characters, limit {self.max_input_chars:,}]"
        )

    def _capped(self, message: AnyMessage) -> AnyMessage | None:
        """`message` cut to its cap (same id: add_messages replaces it), or None when it fits."""
        if isinstance(message, HumanMessage):
            text = message.text
            if len(text) <= self.max_input_chars:
                return None
            return HumanMessage(content=self._cut_question(text), id=message.id)
        limit = self.max_other_chars
        text = message.text
        calls = getattr(message, "tool_calls", None) or []
        big_calls = [c for c in calls if _args_size(c.get("args")) > limit]
        if len(text) <= limit and not big_calls:
            return None
        update: dict[str, Any] = {}
        if len(text) > limit:
            update["content"] = text[:limit] + f"\n[… cut at {limit:,} characters]"
        if big_calls:
            update["tool_calls"] = [{**c, "args": {}} if c in big_calls else c for c in calls]
            update["invalid_tool_calls"] = []
        return message.model_copy(update=update)

    def _cap_messages(
        self, messages: Sequence[AnyMessage]
    ) -> tuple[list[AnyMessage], list[AnyMessage], str | None]:
        """(the messages capped, the replacements for the thread, the reply that ends the turn).

        The reply is set when the current question (the last human message) is oversized.
        """
        last_human = next(
            (i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], HumanMessage)),
            None,
        )
        capped_all: list[AnyMessage] = []
        replaced: list[AnyMessage] = []
        too_long: str | None = None
        for i, message in enumerate(messages):
            capped = self._capped(message)
            capped_all.append(capped or message)
            if capped is None:
                continue
            replaced.append(capped)
            if i == last_human:
                raw = message.text
                too_long = reply(
                    "too_long", raw[:KEPT_CHARS], size=len(raw), limit=self.max_input_chars
                )
        return capped_all, replaced, too_long

    def _capped_call(
        self, request: ModelRequest
    ) -> tuple[ModelRequest, Command[Any] | None, AIMessage | None]:
        """(the request to send, the thread update, the answer that replaces the model call)."""
        messages, replaced, too_long = self._cap_messages(request.messages)
        if not replaced:
            return request, None, None
        log.info("guardrails: %d oversized message(s) in the thread cut", len(replaced))
        # add_messages replaces each stored message by its id.
        update: Command[Any] = Command(update={"messages": replaced})
        answer = AIMessage(content=too_long) if too_long is not None else None
        return request.override(messages=messages), update, answer

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelCallResult:
        """Cap every message again before each model call: text may enter mid-turn.

        A model-call wrapper rather than a `before_model` hook: a hook is one more graph step
        per model call, which the turn's recursion limit counts.
        """
        request, update, answer = self._capped_call(request)
        if update is None:
            return handler(request)
        response = ModelResponse(result=[answer]) if answer is not None else handler(request)
        return ExtendedModelResponse(model_response=response, command=update)

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelCallResult:
        """Async twin of `wrap_model_call`."""
        request, update, answer = self._capped_call(request)
        if update is None:
            return await handler(request)
        response = ModelResponse(result=[answer]) if answer is not None else await handler(request)
        return ExtendedModelResponse(model_response=response, command=update)

    def _refused_call(self, request: ToolCallRequest) -> ToolMessage | None:
        call = request.tool_call
        size = _args_size(call.get("args"))
        if size <= self.max_other_chars:
            return None
        return ToolMessage(
            content=f"Not run: the arguments of this call are {size:,} characters; the limit is "
            f"{self.max_other_chars:,}. Call the tool again with shorter arguments.",
            tool_call_id=call["id"],
            name=call["name"],
            status="error",
        )

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """A call with oversized arguments is answered with an error, not run."""
        return self._refused_call(request) or handler(request)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async twin of `wrap_tool_call`."""
        return self._refused_call(request) or await handler(request)

    def _inspect(self, state: AgentState) -> tuple[dict[str, Any] | None, str | None]:
        """(update to return now, text still to classify)."""
        human = _last_human(state)
        if human is None:
            return None, None
        raw = human.text
        text = strip_controls(raw)
        if not text.strip():
            return self._end(human, text, reply("empty", "")), None
        if len(text) > self.max_input_chars:
            return self._end(
                human,
                self._cut_question(text),
                reply("too_long", text[:KEPT_CHARS], size=len(text), limit=self.max_input_chars),
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

    def _pending(self, state: AgentState) -> tuple[dict[str, Any] | None, str, Any]:
        """(update, text, classifier to ask) — the classifier is None once the rules decided.

        The update is final when `text` is empty (nothing to classify, or a verdict is included).
        """
        update, text = self._inspect(state)
        if text is None or not self.topic_check:
            return update, "", None
        verdict = classify_by_rules(text, self.allow)
        if verdict is not None:
            return self._verdict_update(verdict, text, update), "", None
        return update, text, self._classifier_model()

    def _classified(
        self, reply_text: str | None, text: str, update: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        verdict = _parse_verdict(reply_text) if reply_text is not None else "on_topic"
        return self._verdict_update(verdict, text, update)

    @staticmethod
    def _prompt(text: str) -> list[Any]:
        return [SystemMessage(CLASSIFIER_PROMPT), HumanMessage(text[:2000])]

    @hook_config(can_jump_to=["end"])
    def before_agent(self, state: AgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Check the newest question; end the turn with a clear message when it must not run."""
        update, text, model = self._pending(state)
        if not text or model is None:
            return update
        try:
            answer: str | None = model.invoke(self._prompt(text)).text
        except Exception as exc:  # noqa: BLE001 — the rules decide when the classifier fails
            log.warning("guardrails classifier failed (%s); allowing the question", exc)
            answer = None
        return self._classified(answer, text, update)

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(
        self, state: AgentState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `before_agent` (the classifier call is awaited)."""
        update, text, model = self._pending(state)
        if not text or model is None:
            return update
        try:
            answer: str | None = (await model.ainvoke(self._prompt(text))).text
        except Exception as exc:  # noqa: BLE001 — the rules decide when the classifier fails
            log.warning("guardrails classifier failed (%s); allowing the question", exc)
            answer = None
        return self._classified(answer, text, update)
