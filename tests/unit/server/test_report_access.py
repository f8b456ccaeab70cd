from __future__ import annotations

import pytest

from graphs.middleware.turn_record import TURNS_NAMESPACE
from server import report_access as ra

OPS = frozenset({"ops"})


def _vote(voter: str = "alice", message: str = "m1", **kw: object) -> dict[str, object]:
    value = {"voter": voter, "message_id": message, "vote": "down", "comment": "", **kw}
    return {"namespace": list(ra.FEEDBACK), "key": ra.feedback_key(voter, message), "value": value}


def test_the_graph_writes_turns_where_the_report_reads_them() -> None:
    assert TURNS_NAMESPACE == ra.TURNS


def test_operators_read_everyone_else_is_refused() -> None:
    for action in ("search", "get", "list_namespaces"):
        ra.authorize("ops", action, {"namespace_prefix": ["answers_report"]}, OPS)
        with pytest.raises(ra.ReportAccessError):
            ra.authorize("alice", action, {"namespace_prefix": ["answers_report"]}, OPS)
        with pytest.raises(ra.ReportAccessError):
            ra.authorize("guest:x", action, {"namespace": list(ra.TURNS)}, OPS)
    for action in ("put", "delete"):
        with pytest.raises(ra.ReportAccessError):
            ra.authorize("ops", action, {"namespace": list(ra.TURNS), "key": "k", "value": {}}, OPS)


def test_a_user_may_put_only_their_own_well_formed_vote() -> None:
    ra.authorize("alice", "put", _vote(), OPS)
    forged = _vote()
    forged["value"]["voter"] = "bob"  # type: ignore[index]
    with pytest.raises(ra.ReportAccessError):
        ra.authorize("alice", "put", forged, OPS)
    with pytest.raises(ra.ReportAccessError):  # someone else's key
        ra.authorize("bob", "put", {**_vote("bob"), "key": ra.feedback_key("alice", "m1")}, OPS)
    with pytest.raises(ra.ReportAccessError):
        ra.authorize("alice", "put", _vote(comment="x" * 2001), OPS)
    with pytest.raises(ra.ReportAccessError):
        ra.authorize("alice", "put", _vote(vote="meh"), OPS)
    with pytest.raises(ra.ReportAccessError):
        ra.authorize("alice", "delete", _vote(), OPS)
    assert ra.in_report_namespace(["answers_report", "x"]) and not ra.in_report_namespace(
        ["memories", "alice"]
    )
    assert not ra.in_report_namespace(None)


@pytest.fixture
def vote_window(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """A fresh vote cap on a clock the test moves (the list's one item, in seconds)."""
    from server.guest import SlidingWindow

    now = [1000.0]
    monkeypatch.setattr(
        ra, "_feedback_window", SlidingWindow(ra.FEEDBACK_PER_HOUR, 3600.0, lambda: now[0])
    )
    return now


def test_vote_writes_are_capped_per_user_per_hour(vote_window: list[float]) -> None:
    for i in range(ra.FEEDBACK_PER_HOUR):
        ra.authorize("alice", "put", _vote(message=f"m{i}"), OPS)
        vote_window[0] += 1
    with pytest.raises(ra.FeedbackRateLimited) as refused:
        ra.authorize("alice", "put", _vote(message="invented-id"), OPS)
    assert refused.value.status_code == 429
    assert refused.value.retry_after_s == 3600 - ra.FEEDBACK_PER_HOUR  # the oldest leaves then
    ra.authorize("bob", "put", _vote("bob"), OPS)  # another user has their own hour
    with pytest.raises(ra.ReportAccessError) as forged:  # a refused write is a 403, not counted
        ra.authorize("bob", "put", {**_vote("bob"), "key": "x"}, OPS)
    assert forged.value.status_code == 403
    vote_window[0] += 3600
    ra.authorize("alice", "put", _vote(message="later"), OPS)  # the hour has passed


async def test_the_store_handler_answers_429_with_retry_after_past_the_cap(
    vote_window: list[float],
) -> None:
    from types import SimpleNamespace

    from langgraph_sdk import Auth

    from server import ownership

    user = SimpleNamespace(identity="alice", is_authenticated=True, display_name="alice")
    ctx = Auth.types.AuthContext(
        permissions=["authenticated"], user=user, resource="store", action="put"
    )  # type: ignore[arg-type]
    for i in range(ra.FEEDBACK_PER_HOUR):
        await ownership.store(ctx, _vote(message=f"m{i}"))
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        await ownership.store(ctx, _vote(message="one-more"))
    assert refused.value.status_code == 429
    assert refused.value.headers == {"Retry-After": "3600"}
    with pytest.raises(Auth.exceptions.HTTPException) as forged:
        await ownership.store(ctx, {**_vote(), "key": "not-mine"})
    assert forged.value.status_code == 403 and forged.value.headers is None
