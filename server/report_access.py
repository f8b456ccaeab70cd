"""Where turn records and answer feedback live in the platform store, and who may touch them.

Layout (one place for it, read by the graph middleware, the feedback route, the store auth
handler and the report):
- `("answers_report", "team", "turns")`, key = the answer's message id: one record per turn,
  written by the graph itself (graphs/middleware/turn_record.py; in-graph store access is not
  subject to the API's auth);
- `("answers_report", "team", "feedback")`, key = `<voter hash>.<message id>`: one vote per
  user per answer (a second vote overwrites the first).

The second element is constant because Aegra's store API scopes a namespace by a user attribute
(`store.scopes` in aegra.json maps `answers_report` to the `report_scope` attribute every
authenticated user carries); langgraph-api keeps namespaces as given.

Who: operators (`AUTH_OPERATORS`, comma-separated user ids) read both; any signed-in user or
guest may only *put* their own vote (key and `voter` must be theirs, comment ≤ 2,000 chars), at
most `FEEDBACK_PER_HOUR` (100) vote writes an hour (429 with Retry-After past it: votes on
invented message ids cost the store nothing more than that); everything else in the namespace is
403. A vote put straight through the store API skips the
feedback route's thread check, so the report counts a vote only when its voter owns the turn
(the turn record, which users cannot write, names the owner): votes on other users' answers are
never shown.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from settings import current

ROOT = "answers_report"
SCOPE = "team"
SCOPE_ATTRIBUTE = "report_scope"
TURNS = (ROOT, SCOPE, "turns")
FEEDBACK = (ROOT, SCOPE, "feedback")
COMMENT_LIMIT = 2000
VOTES = ("up", "down")
READ_ACTIONS = frozenset({"get", "search", "list_namespaces"})
# One user's vote writes per hour. A reader votes once per answer and may change a vote; a
# hundred answers an hour is more than anyone reads, so only a script hits this. Counted per
# server process (in memory, like the guest limits).
FEEDBACK_PER_HOUR = 100


class ReportAccessError(PermissionError):
    """A store call on the report namespace this caller may not make (HTTP 403)."""

    status_code = 403
    retry_after_s: int | None = None


class FeedbackRateLimited(ReportAccessError):
    """Too many vote writes by one user this hour (HTTP 429, with Retry-After)."""

    status_code = 429

    def __init__(self, retry_after_s: int) -> None:
        """`retry_after_s`: when the oldest counted write leaves the hour."""
        super().__init__(
            f"Too many votes: at most {FEEDBACK_PER_HOUR} an hour; try again in {retry_after_s} s."
        )
        self.retry_after_s = retry_after_s


_feedback_window: Any = None


def count_feedback_write(identity: str) -> None:
    """Count one vote write of `identity`; FeedbackRateLimited past `FEEDBACK_PER_HOUR`."""
    global _feedback_window
    # Late: server.guest reads its settings when imported, which only the server needs.
    from server.guest import GuestLimitError, SlidingWindow

    if _feedback_window is None:
        _feedback_window = SlidingWindow(FEEDBACK_PER_HOUR, 3600.0)
    try:
        _feedback_window.hit(identity, "votes")
    except GuestLimitError as exc:
        raise FeedbackRateLimited(exc.retry_after_s) from None


def operators() -> frozenset[str]:
    """The operator user ids (`AUTH_OPERATORS`, settings/report.py; empty: nobody reads the report)."""
    return current().report.operators


def voter_hash(identity: str) -> str:
    """A short stable hash of a voter id, the prefix of their feedback keys."""
    return hashlib.sha256(identity.encode()).hexdigest()[:16]


def feedback_key(identity: str, message_id: str) -> str:
    """The one key a user's vote on one answer is stored under."""
    return f"{voter_hash(identity)}.{message_id}"


def in_report_namespace(namespace: Any) -> bool:
    """True when a store call names the report namespace (or a prefix of it)."""
    ns = tuple(namespace or ())
    return bool(ns) and ns[0] == ROOT


def check_feedback_value(identity: str, key: str, value: Any) -> None:
    """Raise ReportAccessError unless `value` is a well-formed vote of `identity` under `key`."""
    if not isinstance(value, Mapping):
        raise ReportAccessError("feedback must be an object")
    if value.get("voter") != identity:
        raise ReportAccessError("feedback must name you as the voter")
    message_id = value.get("message_id")
    if not isinstance(message_id, str) or key != feedback_key(identity, message_id):
        raise ReportAccessError("feedback key must be your voter hash and the answer's message id")
    if value.get("vote") not in VOTES:
        raise ReportAccessError("vote must be 'up' or 'down'")
    comment = value.get("comment", "")
    if not isinstance(comment, str) or len(comment) > COMMENT_LIMIT:
        raise ReportAccessError(f"comment must be text of at most {COMMENT_LIMIT} characters")


def authorize(identity: str, action: str, value: Mapping[str, Any], ops: frozenset[str]) -> None:
    """Allow or refuse (ReportAccessError) one store call on the report namespace."""
    namespace = tuple(value.get("namespace") or value.get("namespace_prefix") or ())
    if identity in ops and action in READ_ACTIONS:
        return
    if action == "put" and namespace == FEEDBACK:
        check_feedback_value(identity, str(value.get("key", "")), value.get("value"))
        count_feedback_write(identity)
        return
    raise ReportAccessError("the answers report is for operators only")


def with_report_scope(user: dict[str, Any]) -> dict[str, Any]:
    """The user dict with the attribute Aegra's store scope for the report namespace needs."""
    return {**user, SCOPE_ATTRIBUTE: SCOPE}
