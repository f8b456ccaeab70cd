"""Per-user long-term memory in the platform store, under `("memories", <user label>)`.

The user is taken from the run's authenticated config (`langgraph_auth_user_id`, set by the
server and reserved against client input), read through the injected `ToolRuntime` — never from
a tool argument, so a model cannot ask for another user's memories. In the explicit dev mode
(no auth configured) and in-process runs, the run's `metadata.user_id` / `configurable.user_id`
stands in, exactly as trusted as the rest of dev mode.

Limits: 20 records and 6,000 characters per user. A save over a limit is refused with a message
telling the model what to delete; nothing is overwritten or evicted silently.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
import weakref
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from server.identity import DEV_PERMISSION, MEMORY_NAMESPACE, memory_namespace
from settings import current
from tools.feedback import FEEDBACK_DESCRIPTION, emit_feedback

NAMESPACE = MEMORY_NAMESPACE
MAX_RECORDS = 20
MAX_CHARS = 6000
MAX_RECORD_CHARS = 1000
ANONYMOUS = "anonymous"

NO_STORE = (
    "Memory is not available here: this run has no store (memories work when the graph is "
    "served by LangGraph Server / `langgraph dev`)."
)


def memory_enabled() -> bool:
    """`DOCS_AGENT_MEMORY` (default on) switches the memory tools and prompt block (settings/memory.py)."""
    return current().memory.enabled


def user_id_from_config(config: Mapping[str, Any] | None) -> str:
    """The run's owner: the authenticated user, or in dev mode the run's declared user_id."""
    config = config or {}
    configurable = config.get("configurable") or {}
    auth_id = str(configurable.get("langgraph_auth_user_id") or "").strip()
    permissions = configurable.get("langgraph_auth_permissions") or ()
    if auth_id and DEV_PERMISSION not in permissions:
        return auth_id
    metadata = config.get("metadata") or {}
    declared = metadata.get("user_id") or configurable.get("user_id")
    return str(declared).strip() if declared else ANONYMOUS


def namespace_for(user_id: str) -> tuple[str, str]:
    """The one store namespace a user's memories live in (a dotted id such as an e-mail too)."""
    return memory_namespace(user_id)


def _text_of(item: Any) -> str:
    value = getattr(item, "value", None) or {}
    return str(value.get("text", "")) if isinstance(value, dict) else ""


def _sorted(items: list[Any]) -> list[Any]:
    return sorted(items, key=lambda it: (str(getattr(it, "created_at", "")), str(it.key)))


def render_memories(items: list[Any], limit_chars: int = MAX_CHARS) -> str:
    """Markdown list `- [id] text`, oldest first, cut at `limit_chars`."""
    lines: list[str] = []
    used = 0
    for item in _sorted(items):
        line = f"- [{item.key}] {_text_of(item)}"
        if used + len(line) > limit_chars:
            lines.append(f"- ... ({len(items) - len(lines)} more not shown)")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def check_new_memory(text: str, existing: list[Any]) -> str | None:
    """Why `text` cannot be saved next to `existing` (None when it can)."""
    if not text:
        return "Nothing to save: the memory text is empty."
    if len(text) > MAX_RECORD_CHARS:
        return f"Memory too long ({len(text)} characters; at most {MAX_RECORD_CHARS}). Save a shorter fact."
    texts = [_text_of(it) for it in existing]
    if any(t.strip().lower() == text.lower() for t in texts):
        return "Already saved: this memory exists; nothing changed."
    if len(existing) >= MAX_RECORDS:
        return (
            f"Memory is full ({len(existing)} of {MAX_RECORDS} records). Nothing was saved or "
            "overwritten. Ask the user which memory to remove, then call delete_memory with its id."
        )
    used = sum(len(t) for t in texts)
    if used + len(text) > MAX_CHARS:
        return (
            f"Memory is full ({used} of {MAX_CHARS} characters used; this needs {len(text)} more). "
            "Nothing was saved or overwritten. Delete an old memory with delete_memory first."
        )
    return None


def _new_record(text: str) -> tuple[str, dict[str, Any]]:
    key = uuid.uuid4().hex[:8]
    return key, {"text": text, "created_at": datetime.now(UTC).isoformat(timespec="seconds")}


def _list_text(items: list[Any]) -> str:
    if not items:
        return "No memories saved for this user."
    used = sum(len(_text_of(it)) for it in items)
    head = f"{len(items)} of {MAX_RECORDS} memories, {used} of {MAX_CHARS} characters:"
    return head + "\n" + render_memories(items)


async def alist_items(store: Any, user_id: str) -> list[Any]:
    """Every memory record of `user_id` (bounded by MAX_RECORDS + slack)."""
    return list(await store.asearch(namespace_for(user_id), limit=MAX_RECORDS + 10))


def list_items(store: Any, user_id: str) -> list[Any]:
    """Sync twin of `alist_items` for in-process `.invoke` runs."""
    return list(store.search(namespace_for(user_id), limit=MAX_RECORDS + 10))


def _save(text: str, existing: list[Any]) -> tuple[str, str, dict[str, Any]] | str:
    """The refusal message, or (key, value, confirmation) for a record to put."""
    problem = check_new_memory(text, existing)
    if problem:
        return problem
    key, value = _new_record(text)
    return key, f"Saved memory [{key}] ({len(existing) + 1} of {MAX_RECORDS}).", value


# A save reads the user's records, checks the limits, then writes: parallel tool calls in one turn
# would all pass the check before any write lands. One lock per user serialises saves in this
# process (a multi-worker deployment narrows, but cannot fully close, that window).
_async_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
_sync_locks: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
_locks_guard = threading.Lock()


def _async_lock(user: str) -> asyncio.Lock:
    with _locks_guard:
        lock = _async_locks.get(user)
        if lock is None:
            lock = _async_locks[user] = asyncio.Lock()
        return lock


def _sync_lock(user: str) -> Any:
    with _locks_guard:
        lock = _sync_locks.get(user)
        if lock is None:
            lock = _sync_locks[user] = threading.Lock()
        return lock


def _clean_key(memory_id: str) -> str:
    return str(memory_id or "").strip().strip("[]").strip()


def _missing(key: str) -> str:
    return f"No memory with id {key!r} for this user; call list_memories to see the ids."


class _SaveArgs(BaseModel):
    text: str = Field(
        description="The fact to remember, written as a standalone sentence (at most 1,000 characters)."
    )
    feedback_to_user: str = Field(default="", description=FEEDBACK_DESCRIPTION)


class _ListArgs(BaseModel):
    feedback_to_user: str = Field(default="", description=FEEDBACK_DESCRIPTION)


class _DeleteArgs(BaseModel):
    memory_id: str = Field(description="The id shown in brackets by list_memories, e.g. 3f2a9c1b.")
    feedback_to_user: str = Field(default="", description=FEEDBACK_DESCRIPTION)


SAVE_DESCRIPTION = (
    "Remember one short fact about the current user across conversations. Use only when the user "
    'states a lasting preference or fact about their setup ("I use the JS SDK", "we self-host") '
    "or asks you to remember something; one fact per call; never for answers or doc content. "
    f"Limits: {MAX_RECORDS} memories / {MAX_CHARS:,} characters per user - when full nothing is "
    "saved: ask the user what to forget (list_memories, then delete_memory)."
)
LIST_DESCRIPTION = (
    "List what is remembered about the current user, with the ids delete_memory needs."
)
DELETE_DESCRIPTION = "Forget one memory of the current user by its id (from list_memories)."


def create_memory_tools() -> list[BaseTool]:
    """save_memory / list_memories / delete_memory, scoped to the run's user through ToolRuntime.

    Each tool has a sync and an async body: the server runs them async against its store, an
    in-process `.invoke` with an InMemoryStore runs them sync.
    """

    def save_memory(text: str, runtime: ToolRuntime, feedback_to_user: str = "") -> str:
        emit_feedback(feedback_to_user)
        if runtime.store is None:
            return NO_STORE
        user = user_id_from_config(runtime.config)
        text = " ".join(str(text or "").split())
        with _sync_lock(user):
            out = _save(text, list_items(runtime.store, user))
            if isinstance(out, str):
                return out
            key, message, value = out
            runtime.store.put(namespace_for(user), key, value)
        return message

    async def asave_memory(text: str, runtime: ToolRuntime, feedback_to_user: str = "") -> str:
        emit_feedback(feedback_to_user)
        if runtime.store is None:
            return NO_STORE
        user = user_id_from_config(runtime.config)
        text = " ".join(str(text or "").split())
        async with _async_lock(user):
            out = _save(text, await alist_items(runtime.store, user))
            if isinstance(out, str):
                return out
            key, message, value = out
            await runtime.store.aput(namespace_for(user), key, value)
        return message

    def list_memories(runtime: ToolRuntime, feedback_to_user: str = "") -> str:
        emit_feedback(feedback_to_user)
        if runtime.store is None:
            return NO_STORE
        return _list_text(list_items(runtime.store, user_id_from_config(runtime.config)))

    async def alist_memories(runtime: ToolRuntime, feedback_to_user: str = "") -> str:
        emit_feedback(feedback_to_user)
        if runtime.store is None:
            return NO_STORE
        return _list_text(await alist_items(runtime.store, user_id_from_config(runtime.config)))

    def delete_memory(memory_id: str, runtime: ToolRuntime, feedback_to_user: str = "") -> str:
        emit_feedback(feedback_to_user)
        if runtime.store is None:
            return NO_STORE
        ns, key = namespace_for(user_id_from_config(runtime.config)), _clean_key(memory_id)
        if not key or runtime.store.get(ns, key) is None:
            return _missing(key)
        runtime.store.delete(ns, key)
        return f"Deleted memory [{key}]."

    async def adelete_memory(
        memory_id: str, runtime: ToolRuntime, feedback_to_user: str = ""
    ) -> str:
        emit_feedback(feedback_to_user)
        if runtime.store is None:
            return NO_STORE
        ns, key = namespace_for(user_id_from_config(runtime.config)), _clean_key(memory_id)
        if not key or await runtime.store.aget(ns, key) is None:
            return _missing(key)
        await runtime.store.adelete(ns, key)
        return f"Deleted memory [{key}]."

    return [
        StructuredTool.from_function(
            func=save_memory,
            coroutine=asave_memory,
            name="save_memory",
            description=SAVE_DESCRIPTION,
            args_schema=_SaveArgs,
        ),
        StructuredTool.from_function(
            func=list_memories,
            coroutine=alist_memories,
            name="list_memories",
            description=LIST_DESCRIPTION,
            args_schema=_ListArgs,
        ),
        StructuredTool.from_function(
            func=delete_memory,
            coroutine=adelete_memory,
            name="delete_memory",
            description=DELETE_DESCRIPTION,
            args_schema=_DeleteArgs,
        ),
    ]
