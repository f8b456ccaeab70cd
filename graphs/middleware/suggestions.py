"""Follow-up suggestions after each answer: one non-streamed model call, attached to the answer.

Hand-written as an `after_agent` middleware because langchain has no suggestions middleware; it
works on any `create_agent` graph (docs_agent, deep_agent's orchestrator).

The call must never leak into the token stream: the model is built with streaming off, the call is
tagged `nostream` and runs with `callbacks=[]`, so no stream handler sees it. The result replaces
the last AI message (same id) with a copy carrying `additional_kwargs["suggests"]`; LangGraph's
message stream has already seen that id, so it does not re-emit it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, ValidationError

from graphs import models
from graphs.context import Context, context_of
from graphs.messages import is_ai
from graphs.offline.suggestions import clean_topic
from graphs.prompts import ASSISTANT_HEADER, USER_HEADER, suggestions_prompt

log = logging.getLogger(__name__)

MAX_TURNS = 6  # questions and answers sent to the suggestion call; older turns add cost, not value
ANSWER_CHARS = 4000


class Suggestion(BaseModel):
    """One follow-up choice: `prompt` is sent when the user picks it, `label` is shown."""

    label: str | None = None
    prompt: str
    position: int | None = None


class Suggestions(BaseModel):
    """The JSON object the suggestion call must return."""

    suggests: list[Suggestion]


_FENCE_RE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")


def _outermost_object(text: str) -> str | None:
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else None


def parse_suggestions(text: str, limit: int) -> list[dict[str, Any]]:
    """Suggestions from a model reply, positions renumbered 0..limit-1; raises ValueError if none parse.

    Tolerates a code fence, prose around the object, doubled braces `{{ }}` (a prompt template
    artefact) and trailing commas. Repairs are tried only after the plain text fails, so valid
    nested JSON is never altered.
    """
    fenced = _FENCE_RE.search(text)
    body = _outermost_object(fenced.group(1) if fenced else text) or _outermost_object(text)
    if body is None:
        raise ValueError("no JSON object in the reply")
    undoubled = re.sub(r"\{\{", "{", re.sub(r"\}\}", "}", body))
    candidates = [
        body,
        _TRAILING_COMMA_RE.sub(r"\1", body),
        undoubled,
        _TRAILING_COMMA_RE.sub(r"\1", undoubled),
    ]
    error: Exception | None = None
    for candidate in dict.fromkeys(candidates):
        try:
            parsed = Suggestions.model_validate(json.loads(candidate))
        except (json.JSONDecodeError, ValidationError) as exc:
            error = exc
            continue
        # A model that copied a heading verbatim may bring its markup along (`{ #id }`,
        # `[x][pkg.Obj]`): users see labels and send prompts, so both are cleaned.
        items = [s for s in parsed.suggests if clean_topic(s.prompt)]
        items.sort(key=lambda s: s.position if s.position is not None else 1_000)
        return [
            {
                "label": clean_topic(s.label or "", emphasis=False) or None,
                "prompt": clean_suggestion(s.prompt),
                "position": i,
            }
            for i, s in enumerate(items[:limit])
        ]
    raise ValueError(f"invalid suggestions JSON: {error}")


def clean_suggestion(prompt: str) -> str:
    """A suggested prompt without markup, its closing question mark kept."""
    cleaned = clean_topic(prompt, emphasis=False)
    return cleaned + "?" if prompt.strip().endswith("?") and not cleaned.endswith("?") else cleaned


def transcript(messages: Sequence[BaseMessage]) -> str:
    """The last questions and answers as one text: tool traffic is noise (and cost) for this call.

    One user message holding a transcript is accepted by every provider, whereas ending the
    message list on an assistant turn is not.
    """
    turns: list[str] = []
    for msg in messages:
        if msg.type == "human":
            turns.append(f"{USER_HEADER}\n{msg.text}")
        elif is_ai(msg) and not getattr(msg, "tool_calls", None) and msg.text.strip():
            turns.append(f"{ASSISTANT_HEADER}\n{msg.text[:ANSWER_CHARS]}")
    return "\n\n".join(turns[-2 * MAX_TURNS :])


def _suggestion_model(ctx: Context) -> BaseChatModel:
    model = models.for_context(models.load_chat_model(ctx.model, streaming=False), ctx)
    return model.model_copy(update={"disable_streaming": True})


class SuggestionsMiddleware(AgentMiddleware):
    """After the final answer: one non-streamed call for follow-ups, attached to the answer.

    `model` pins the suggestion model (a cheaper one, or a fake in tests); by default the run's
    `Context.model` is used, built with streaming off.
    """

    def __init__(self, model: BaseChatModel | None = None) -> None:
        """Keep an optional fixed suggestion model."""
        super().__init__()
        self.model = model

    def _model(self, ctx: Context) -> BaseChatModel:
        if self.model is not None:
            return self.model.model_copy(update={"disable_streaming": True})
        return _suggestion_model(ctx)

    def _request(
        self, state: AgentState, runtime: Runtime[Any]
    ) -> tuple[BaseMessage, list[BaseMessage], Context] | None:
        ctx = context_of(runtime)
        if ctx.num_suggestions <= 0:
            return None
        messages = list(state.get("messages") or [])
        last = messages[-1] if messages else None
        # By type, not class: a streamed answer may be an AIMessageChunk, which is no AIMessage.
        if last is None or not is_ai(last) or getattr(last, "tool_calls", None) or not last.id:
            log.warning("suggestions skipped: the last message is not a final AI answer")
            return None
        if last.additional_kwargs.get("failure"):
            return None  # the turn ended on a model failure (retry.py): nothing to follow up on
        prompt = [
            SystemMessage(content=suggestions_prompt(ctx.num_suggestions)),
            HumanMessage(content=transcript(messages)),
        ]
        return last, prompt, ctx

    def _attach(self, last: BaseMessage, reply: BaseMessage, limit: int) -> dict[str, Any] | None:
        suggests = parse_suggestions(reply.text, limit)
        if not suggests:
            return None
        kwargs = {**last.additional_kwargs, "suggests": suggests}
        return {"messages": [last.model_copy(update={"additional_kwargs": kwargs})]}

    _CONFIG: dict[str, Any] = {"callbacks": [], "tags": ["nostream"], "run_name": "suggests"}

    def after_agent(self, state: AgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Ask for suggestions; on any failure log a warning and leave the answer as it is."""
        try:
            request = self._request(state, runtime)
            if request is None:
                return None
            last, prompt, ctx = request
            reply = self._model(ctx).invoke(prompt, config={**self._CONFIG})  # type: ignore[arg-type]
            return self._attach(last, reply, ctx.num_suggestions)
        except Exception as exc:  # noqa: BLE001 — suggestions are optional; the answer must survive
            log.warning("suggestions skipped: %s", exc)
            return None

    async def aafter_agent(self, state: AgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Async twin of `after_agent`."""
        try:
            request = self._request(state, runtime)
            if request is None:
                return None
            last, prompt, ctx = request
            reply = await self._model(ctx).ainvoke(prompt, config={**self._CONFIG})  # type: ignore[arg-type]
            return self._attach(last, reply, ctx.num_suggestions)
        except Exception as exc:  # noqa: BLE001 — suggestions are optional; the answer must survive
            log.warning("suggestions skipped: %s", exc)
            return None
