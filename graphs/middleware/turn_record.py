"""One small record per turn in the platform store, for the answers report.

Hand-written (langchain has no analytics middleware): `before_agent` notes when the turn
started, `wrap_model_call` when the reader saw the answer's first and last token, and
`after_agent` — last of the stack, so it sees the checked answer and its suggestions — writes
`{question, answer, language, graph, user, thread, run, message, sources, found, removed,
failure, asked_on, client, latency, wait, model}` under `server.report_access.TURNS`, keyed by the
answer's message id, with a TTL (`DOCS_AGENT_REPORT_TTL_DAYS`, default 90). The record is written
by the graph, not through the store API, so no user can forge one; users never read it
(server/auth.py, report_access). `answer` makes the transcript the report links to (operators only).

`failure` is the kind of a turn that ended on a model or engine failure (contract C2, written by
graphs/middleware/retry.py): the report counts those as outages, never as docs gaps. `asked_on`
and `client` come from the run's metadata (contract C3: the docs page the reader asked from, and
"widget" or "page").

Latency as the reader waited (`first_token_s`, `last_token_s`) counts from the run's creation:
langgraph-api passes the time its run-creating request arrived (`__request_start_time_ms__`, a
configurable key clients cannot set), so the engine's queue wait is in it; on an engine that does
not (Aegra), from the turn's start (`wait_from` says which). Token times come from a callback
handler that langchain adds to the model calls of this turn (`register_configure_hook`), so they
are the times tokens left the model for the stream, on every engine and for every client (page,
widget, SDK, MCP), without watching HTTP streams. `latency_s` stays the in-graph time, beside it.

A record is a courtesy to the docs team: when the run has no store (in-process use) or the
write fails, the turn goes on unchanged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Annotated, Any, NotRequired

from langchain.agents import AgentState
from langchain.agents.middleware import (
    AgentMiddleware,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
)
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage
from langchain_core.tracers.context import register_configure_hook
from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import Command

from graphs.citations import cited_sources
from graphs.context import context_of
from graphs.messages import current_turn, failure_of
from graphs.offline.language import resolve_language
from settings import current

log = logging.getLogger(__name__)

# Same namespace as server.report_access.TURNS (graphs/ does not import the server package).
TURNS_NAMESPACE = ("answers_report", "team", "turns")
QUESTION_CHARS = 500
ANSWER_CHARS = 4000  # the transcript's answer: enough to judge it, small enough for 10,000 turns
ASKED_ON_CHARS = 2000
CLIENTS = frozenset({"widget", "page"})  # contract C3; anything else is recorded as None
MAX_SOURCES = 20
# A run's creation time further back than this from its turn's start is not believed.
MAX_QUEUE_S = 3600.0


class TurnRecordState(AgentState[Any]):
    """The agent's state plus this turn's timings (internal, not in the output schema)."""

    turn_started_at: NotRequired[Annotated[float, PrivateStateAttr]]
    turn_first_token_at: NotRequired[Annotated[float | None, PrivateStateAttr]]
    turn_last_token_at: NotRequired[Annotated[float | None, PrivateStateAttr]]


class TokenClock(BaseCallbackHandler):
    """When the first and last non-empty text token of a model call left the model (wall clock)."""

    run_inline = True  # called in the model's own task: no thread hop, no reordering

    def __init__(self) -> None:
        """No tokens yet."""
        self.first: float | None = None
        self.last: float | None = None

    def on_llm_new_token(self, token: Any, **kwargs: Any) -> None:
        """Note a streamed token that carries text (tool-call chunks carry none)."""
        chunk = getattr(kwargs.get("chunk"), "message", None)
        text = chunk.text if chunk is not None else token if isinstance(token, str) else ""
        if text:
            now = time.time()
            self.first = self.first if self.first is not None else now
            self.last = now


# Set only around this turn's model call (`TurnRecordMiddleware.wrap_model_call`); langchain adds
# the clock to every model run configured while it is set, and to nothing else.
_TOKEN_CLOCK: ContextVar[TokenClock | None] = ContextVar("docs_agent_token_clock", default=None)
register_configure_hook(_TOKEN_CLOCK, inheritable=False)


def run_owner(configurable: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    """The authenticated owner of the run, whichever engine set it; the declared one otherwise.

    langgraph-api sets `langgraph_auth_user_id`; Aegra puts the user object under
    `langgraph_auth_user` (its `configurable.user_id` is only a default a client may override).
    Without auth (dev mode, in-process runs) the run's declared `user_id` stands in.
    """
    auth_user = configurable.get("langgraph_auth_user")
    identity = (
        configurable.get("langgraph_auth_user_id")
        or getattr(auth_user, "identity", None)
        or (auth_user.get("identity") if isinstance(auth_user, Mapping) else None)
        or metadata.get("user_id")
        or configurable.get("user_id")
    )
    return str(identity or "")


def run_created_at(configurable: Mapping[str, Any], turn_started: float | None) -> float | None:
    """When the engine received the request that created the run (epoch seconds), if it says.

    langgraph-api's `__request_start_time_ms__` (reserved: clients cannot set it there). Believed
    only when it is before the turn's start by less than `MAX_QUEUE_S`.
    """
    raw = configurable.get("__request_start_time_ms__")
    if isinstance(raw, bool) or not isinstance(raw, int | float) or turn_started is None:
        return None
    created = float(raw) / 1000
    return created if turn_started - MAX_QUEUE_S <= created <= turn_started + 1 else None


def _seconds(later: Any, start: float | None) -> float | None:
    if start is None or isinstance(later, bool) or not isinstance(later, int | float):
        return None
    return round(max(0.0, float(later) - start), 3)


def _asked_on(metadata: Mapping[str, Any]) -> str | None:
    value = metadata.get("asked_on")
    return value[:ASKED_ON_CHARS] if isinstance(value, str) and value.strip() else None


def build_record(
    state: dict[str, Any],
    config: dict[str, Any],
    model: str,
    language_setting: str,
    now: float | None = None,
) -> dict[str, Any] | None:
    """The record of the turn that just ended, None when it did not end in an AI message."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if not isinstance(last, AIMessage) or last.tool_calls or not last.id:
        return None
    now = time.time() if now is None else now
    question, _ = current_turn(messages)
    answer = last.text
    failure = failure_of(last)
    sources = [] if failure else cited_sources(answer, doc_paths=True)[:MAX_SOURCES]
    check = state.get("citation_check") or {}
    configurable = config.get("configurable") or {}
    metadata = config.get("metadata") or {}
    started = state.get("turn_started_at")
    started = float(started) if isinstance(started, int | float) else None
    created = run_created_at(configurable, started)
    wait_start = created if created is not None else started
    client = metadata.get("client")
    return {
        "question": question[:QUESTION_CHARS],
        "answer": answer[:ANSWER_CHARS],
        "language": resolve_language(language_setting, question),
        "graph": str(metadata.get("graph_id") or config.get("run_name") or ""),
        "user": run_owner(configurable, metadata),
        "thread_id": str(configurable.get("thread_id") or metadata.get("thread_id") or ""),
        "run_id": str(configurable.get("run_id") or metadata.get("run_id") or ""),
        "message_id": last.id,
        "sources": sources,
        "found": bool(sources),
        "removed": int(check.get("removed") or 0),
        "fixed": int(check.get("fixed") or 0),
        "failure": (
            {"kind": failure["kind"], "retry_after_s": failure.get("retry_after_s")}
            if failure
            else None
        ),
        "asked_on": _asked_on(metadata),
        "client": client if client in CLIENTS else None,
        "latency_s": _seconds(now, started),
        "first_token_s": _seconds(state.get("turn_first_token_at"), wait_start),
        "last_token_s": _seconds(state.get("turn_last_token_at"), wait_start),
        "wait_from": "run_created" if created is not None else "turn_start",
        "model": model,
        "at": now,
    }


def _timed(
    state: Mapping[str, Any], response: ModelResponse, clock: TokenClock
) -> ExtendedModelResponse[Any]:
    """`response` with this turn's first/last token times updated from one model call.

    A call that returned text without streaming it (no stream listening, a failure message) shows
    its text at once when it returns: then both times are that moment.
    """
    returned = time.time()
    shown = any(isinstance(m, AIMessage) and m.text.strip() for m in response.result)
    first = clock.first if clock.first is not None else (returned if shown else None)
    last = clock.last if clock.last is not None else (returned if shown else None)
    earlier = state.get("turn_first_token_at")
    update: dict[str, Any] = {}
    if first is not None:
        update["turn_first_token_at"] = earlier if isinstance(earlier, float) else first
    if last is not None:
        update["turn_last_token_at"] = last
    return ExtendedModelResponse(model_response=response, command=Command(update=update))


class TurnRecordMiddleware(AgentMiddleware[TurnRecordState, Any]):
    """Time the turn's tokens and write its record to the store after the agent has answered."""

    state_schema = TurnRecordState

    def before_agent(self, state: TurnRecordState, runtime: Runtime[Any]) -> dict[str, Any]:
        """Note the turn's start (wall clock: the record keeps seconds, never asserted on)."""
        return {
            "turn_started_at": time.time(),
            "turn_first_token_at": None,
            "turn_last_token_at": None,
        }

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ExtendedModelResponse[Any]:
        """Call the model with the token clock running."""
        clock = TokenClock()
        token = _TOKEN_CLOCK.set(clock)
        try:
            response = handler(request)
        finally:
            _TOKEN_CLOCK.reset(token)
        return _timed(request.state, response, clock)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ExtendedModelResponse[Any]:
        """Async twin of `wrap_model_call`."""
        clock = TokenClock()
        token = _TOKEN_CLOCK.set(clock)
        try:
            response = await handler(request)
        finally:
            _TOKEN_CLOCK.reset(token)
        return _timed(request.state, response, clock)

    def _prepared(
        self, state: TurnRecordState, runtime: Runtime[Any]
    ) -> tuple[Any, dict[str, Any], dict[str, Any]] | None:
        store = getattr(runtime, "store", None)
        if store is None:
            return None
        ctx = context_of(runtime)
        record = build_record(dict(state), dict(get_config()), ctx.model, ctx.language)
        if record is None:
            return None
        kwargs: dict[str, Any] = {"index": False}
        if getattr(store, "supports_ttl", False):
            kwargs["ttl"] = current().report.ttl_minutes
        return store, record, kwargs

    async def aafter_agent(
        self, state: TurnRecordState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Build and store the record; never fails the turn."""
        try:
            prepared = self._prepared(state, runtime)
            if prepared:
                store, record, kwargs = prepared
                await store.aput(TURNS_NAMESPACE, record["message_id"], record, **kwargs)
        except Exception:  # noqa: BLE001 — the report must never cost a user their answer
            log.warning("turn record not written", exc_info=True)
        return None

    def after_agent(self, state: TurnRecordState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """The same for sync runs (`invoke` in-process with a store)."""
        try:
            prepared = self._prepared(state, runtime)
            if prepared:
                store, record, kwargs = prepared
                store.put(TURNS_NAMESPACE, record["message_id"], record, **kwargs)
        except Exception:  # noqa: BLE001 — the report must never cost a user their answer
            log.warning("turn record not written", exc_info=True)
        return None
