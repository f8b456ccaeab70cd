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


def test_operators_from_env() -> None:
    assert ra.operators({}) == frozenset()
    assert ra.operators({"AUTH_OPERATORS": " ops , lead ,"}) == {"ops", "lead"}


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
