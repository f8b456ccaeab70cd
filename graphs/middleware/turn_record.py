"""One small record per answered turn in the platform store, for the answers report.

Hand-written (langchain has no analytics middleware): `before_agent` notes when the turn
started, `after_agent` — last of the stack, so it sees the checked answer and its suggestions —
writes `{question, language, graph, user, thread, run, message, sources, found, removed,
latency, model}` under `server.report_access.TURNS`, keyed by the answer's message id, with a
TTL (`DOCS_AGENT_REPORT_TTL_DAYS`, default 90). The record is written by the graph, not through
the store API, so no user can forge one; users never read it (server/auth.py, report_access).

A record is a courtesy to the docs team: when the run has no store (in-process use) or the
write fails, the turn goes on unchanged.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from typing import Annotated, Any, NotRequired

from langchain.agents import AgentState
from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.messages import AIMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from graphs.citations import cited_sources
from graphs.context import context_of
from graphs.messages import current_turn
from graphs.offline.language import resolve_language

log = logging.getLogger(__name__)

# Same namespace as server.report_access.TURNS (graphs/ does not import the server package).
TURNS_NAMESPACE = ("answers_report", "team", "turns")
QUESTION_CHARS = 500
MAX_SOURCES = 20
DEFAULT_TTL_DAYS = 90


class TurnRecordState(AgentState[Any]):
    """The agent's state plus when this turn started (internal, not in the output schema)."""

    turn_started_at: NotRequired[Annotated[float, PrivateStateAttr]]


def ttl_minutes(env: dict[str, str] | None = None) -> float:
    """Record lifetime in minutes (store TTLs are in minutes) from `DOCS_AGENT_REPORT_TTL_DAYS`."""
    raw = (env if env is not None else os.environ).get("DOCS_AGENT_REPORT_TTL_DAYS", "")
    try:
        days = float(raw) if raw.strip() else DEFAULT_TTL_DAYS
    except ValueError:
        days = DEFAULT_TTL_DAYS
    return max(days, 1 / 1440) * 1440


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


def build_record(
    state: dict[str, Any], config: dict[str, Any], model: str, language_setting: str
) -> dict[str, Any] | None:
    """The record of the turn that just ended, None when it did not end in an answer."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if not isinstance(last, AIMessage) or last.tool_calls or not last.id:
        return None
    question, _ = current_turn(messages)
    answer = last.text
    sources = cited_sources(answer, doc_paths=True)[:MAX_SOURCES]
    check = state.get("citation_check") or {}
    configurable = config.get("configurable") or {}
    metadata = config.get("metadata") or {}
    started = state.get("turn_started_at")
    user = run_owner(configurable, metadata)
    return {
        "question": question[:QUESTION_CHARS],
        "language": resolve_language(language_setting, question),
        "graph": str(metadata.get("graph_id") or config.get("run_name") or ""),
        "user": str(user),
        "thread_id": str(configurable.get("thread_id") or metadata.get("thread_id") or ""),
        "run_id": str(configurable.get("run_id") or metadata.get("run_id") or ""),
        "message_id": last.id,
        "sources": sources,
        "found": bool(sources),
        "removed": int(check.get("removed") or 0),
        "fixed": int(check.get("fixed") or 0),
        "latency_s": round(time.time() - started, 3) if isinstance(started, float) else None,
        "model": model,
        "at": time.time(),
    }


class TurnRecordMiddleware(AgentMiddleware[TurnRecordState, Any]):
    """Write the turn's record to the store after the agent has answered."""

    state_schema = TurnRecordState

    def before_agent(self, state: TurnRecordState, runtime: Runtime[Any]) -> dict[str, Any]:
        """Note the turn's start (wall clock: the record keeps seconds, never asserted on)."""
        return {"turn_started_at": time.time()}

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
            kwargs["ttl"] = ttl_minutes()
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
