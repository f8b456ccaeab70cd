"""server/auth.py's hooks into guest mode and the report namespace (server/guest.py, report_access)."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from langgraph_sdk import Auth

from server import guest, ownership, report_access
from server.guest import GuestService
from settings.auth import AuthConfig
from settings.guests import GuestConfig

with mock.patch.dict(os.environ, {"AUTH_DEV_MODE": "true"}):
    from server import auth as A

TOKEN = "tok-alice-0123456789"
SECRET = "g" * 40


def ctx(identity: str, action: str, permissions: list[str] | None = None) -> Auth.types.AuthContext:
    user = SimpleNamespace(identity=identity, is_authenticated=True, display_name=identity)
    return Auth.types.AuthContext(
        permissions=permissions or ["authenticated"], user=user, resource="store", action=action
    )  # type: ignore[arg-type]


@pytest.fixture
def users(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        A, "CONFIG", AuthConfig.from_env({"AUTH_TOKENS": f"{TOKEN}:alice"}, local_dev=True)
    )


async def test_with_guest_mode_off_a_guest_token_is_just_a_bad_token(
    users: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    on = GuestService(GuestConfig(enabled=True, secret=SECRET))
    token = on.issue("1.2.3.4")["token"]
    monkeypatch.setattr(guest, "CONFIG", GuestConfig())
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await A.authenticate({b"authorization": f"Bearer {token}".encode()})
    assert exc.value.status_code == 401
    user = await A.authenticate({b"authorization": f"Bearer {TOKEN}".encode()})
    assert (
        user["identity"] == "alice" and user[report_access.SCOPE_ATTRIBUTE] == report_access.SCOPE
    )


async def test_with_guest_mode_on_guests_and_users_both_resolve(
    users: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GuestService(GuestConfig(enabled=True, secret=SECRET))
    monkeypatch.setattr(guest, "CONFIG", svc.config)
    monkeypatch.setattr(guest, "SERVICE", svc)
    issued = svc.issue("1.2.3.4")
    user = await A.authenticate(
        {"Authorization": f"Bearer {issued['token']}"}
    )  # Aegra's str mapping
    assert user["identity"] == issued["identity"] and user["permissions"] == ["guest"]
    assert (await A.authenticate({b"authorization": f"Bearer {TOKEN}".encode()}))[
        "identity"
    ] == "alice"
    with pytest.raises(Auth.exceptions.HTTPException):
        await A.authenticate({b"authorization": b"Bearer guest.forged"})


async def test_guest_runs_are_counted_in_the_owner_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    svc = GuestService(GuestConfig(enabled=True, secret=SECRET, runs_per_hour=1))
    monkeypatch.setattr(guest, "CONFIG", svc.config)
    monkeypatch.setattr(guest, "SERVICE", svc)
    run = ctx("guest:abc", "create_run")
    run.resource = "threads"  # type: ignore[misc]
    await ownership.owner_only(run, {"metadata": {}})
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await ownership.owner_only(run, {"metadata": {}})
    assert exc.value.status_code == 429


async def test_store_handler_keeps_the_report_for_operators(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AUTH_OPERATORS", "ops")
    await ownership.store(ctx("ops", "search"), {"namespace": ["answers_report", "team", "turns"]})
    for who in ("alice", "guest:x"):
        for action in ("search", "get", "list_namespaces", "delete"):
            with pytest.raises(Auth.exceptions.HTTPException) as exc:
                await ownership.store(
                    ctx(who, action), {"namespace": ["answers_report", "team", "turns"], "key": "k"}
                )
            assert exc.value.status_code == 403
    own: dict[str, Any] = {
        "namespace": list(report_access.FEEDBACK),
        "key": report_access.feedback_key("alice", "m1"),
        "value": {"voter": "alice", "message_id": "m1", "vote": "up", "comment": ""},
    }
    await ownership.store(ctx("alice", "put"), own)
    with pytest.raises(Auth.exceptions.HTTPException):
        await ownership.store(ctx("mallory", "put"), own)
    # Memories are unaffected: still confined to the caller.
    v: dict[str, Any] = {"namespace": ("memories", "alice"), "key": "k"}
    await ownership.store(ctx("alice", "get"), v)
    with pytest.raises(Auth.exceptions.HTTPException):
        await ownership.store(ctx("alice", "get"), {"namespace": ("memories", "bob"), "key": "k"})
