"""Untraced middleware hooks run their trace bookkeeping on the event loop, not on a thread.

`create_agent` wraps every middleware's `awrap_model_call` / `awrap_tool_call` in
`langsmith.traceable`. Its async wrapper hands the run setup and teardown to a worker thread
(`aio_to_thread`), twice per hook call, whether or not anything is traced: with this package's
middleware about 80 thread hand-offs per offline turn before the first answer line, each
waiting for a free executor thread and a loop wake-up. Measured on an offline `docs_agent` turn:
in process, time to the first answer line 70 → 48 ms; on Aegra, 15-17 ms less (paired runs on
one server, `docs/deploy.md`).

LangSmith's documented hook for this is `set_runtime_overrides(aio_to_thread=...)`. The override
below runs the bookkeeping inline only when tracing is off in the caller's context, where it
is dictionary look-ups with no I/O, and keeps LangSmith's thread hop whenever tracing is on.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from typing import Any

import langsmith
from langsmith.utils import tracing_is_enabled


async def inline_unless_tracing(
    default_aio_to_thread: Callable[..., Awaitable[Any]],
    ctx: contextvars.Context,
    func: Callable[..., Any],
    /,
    *args: Any,
    **kwargs: Any,
) -> Any:
    """`func` run in `ctx` on the loop when tracing is off there; else LangSmith's thread hop."""
    if ctx.run(tracing_is_enabled):
        return await default_aio_to_thread(ctx, func, *args, **kwargs)
    return ctx.run(func, *args, **kwargs)


_installed = False


def keep_untraced_setup_inline() -> None:
    """Install `inline_unless_tracing` once per process (the graphs call this when they are built).

    LangSmith exports a setter but no getter for its overrides, so this cannot see an override
    set earlier; it installs once, and a process that wants its own sets it after importing the
    graphs (the last call wins) and is never overwritten by a later graph build.
    """
    global _installed
    if not _installed:
        _installed = True
        langsmith.set_runtime_overrides(aio_to_thread=inline_unless_tracing)
