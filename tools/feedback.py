"""Short progress messages from tools to the user, on the `custom` stream."""

from __future__ import annotations

import logging

from langgraph.config import get_stream_writer

log = logging.getLogger(__name__)

FEEDBACK_LIMIT = 100
FEEDBACK_DESCRIPTION = (
    "Very short message in the user's language, max 100 characters, describing what is being "
    "done (not the tool's name)."
)


def emit_feedback(message: str) -> None:
    """Send `{"name": "tool_feedback", "data": {"feedback": ...}}` before a tool works.

    Cut to 100 characters plus "..."; silently skipped outside a graph run (plain unit calls).
    """
    text = " ".join(str(message or "").split())
    if not text:
        return
    if len(text) > FEEDBACK_LIMIT:
        text = text[:FEEDBACK_LIMIT] + "..."
    try:
        writer = get_stream_writer()
    except (RuntimeError, KeyError):  # not inside a graph run
        return
    try:
        writer({"name": "tool_feedback", "data": {"feedback": text}})
    except Exception:  # noqa: BLE001 — progress is a courtesy; never fail the tool over it
        log.debug("tool feedback not delivered", exc_info=True)
