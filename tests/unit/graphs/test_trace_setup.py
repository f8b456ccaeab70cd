"""Untraced hooks keep their trace bookkeeping on the loop; traced ones keep LangSmith's thread."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Iterator
from typing import Any

import langsmith
import pytest
from langsmith.run_helpers import tracing_context

from graphs import trace_setup
from graphs.trace_setup import inline_unless_tracing, keep_untraced_setup_inline


@pytest.fixture
def restore_overrides() -> Iterator[None]:
    yield
    langsmith.set_runtime_overrides(aio_to_thread=inline_unless_tracing)


def _run(ctx: contextvars.Context) -> tuple[str, list[str]]:
    """(the thread `func` ran on, the calls that reached LangSmith's default)."""
    defaults: list[str] = []

    async def default(ctx: contextvars.Context, func: Any, *args: Any, **kwargs: Any) -> Any:
        defaults.append(func.__name__)
        return await asyncio.to_thread(ctx.run, func, *args, **kwargs)

    def where() -> str:
        return threading.current_thread().name

    async def main() -> str:
        result: str = await inline_unless_tracing(default, ctx, where)
        return result

    return asyncio.run(main()), defaults


def test_untraced_bookkeeping_runs_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2"):
        monkeypatch.delenv(name, raising=False)
    thread, defaults = _run(contextvars.copy_context())
    assert thread == threading.current_thread().name
    assert defaults == []


def test_traced_bookkeeping_keeps_langsmiths_thread_hop() -> None:
    with tracing_context(enabled=True):
        ctx = contextvars.copy_context()
    thread, defaults = _run(ctx)
    assert thread != threading.current_thread().name
    assert defaults == ["where"]


@pytest.mark.usefixtures("restore_overrides")
def test_installed_once_so_a_later_override_of_the_process_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(trace_setup, "_installed", False)
    monkeypatch.setattr(
        langsmith, "set_runtime_overrides", lambda aio_to_thread=None: calls.append(aio_to_thread)
    )
    keep_untraced_setup_inline()
    keep_untraced_setup_inline()  # a second graph build: the process's own override stays
    assert calls == [inline_unless_tracing]
