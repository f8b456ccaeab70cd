from __future__ import annotations

import time

import jwt
import pytest

from server import guest
from server.guest import GuestLimitError, GuestService, SlidingWindow
from settings.guests import GuestConfig, GuestConfigError

SECRET = "s" * 40


def _service(**kw: int) -> GuestService:
    return GuestService(GuestConfig(enabled=True, secret=SECRET, **kw))


def test_off_service_issues_and_accepts_nothing() -> None:
    off = GuestService(GuestConfig())
    with pytest.raises(GuestConfigError):
        off.issue("1.2.3.4")
    token = _service().issue("1.2.3.4")["token"]
    assert off.verify(token) is None


def test_each_browser_gets_its_own_identity_and_the_token_round_trips() -> None:
    svc = _service()
    a, b = svc.issue("1.2.3.4"), svc.issue("1.2.3.4")
    assert a["identity"] != b["identity"] and a["identity"].startswith("guest:")
    claims = svc.verify(a["token"])
    assert claims is not None and claims["sub"] == a["identity"]
    assert "1.2.3.4" not in a["token"] and "1.2.3.4" not in str(claims)  # only a keyed hash
    user = svc.user_for(claims)
    assert user["identity"] == a["identity"] and user["permissions"] == ["guest"]
    assert user["namespace_label"]  # Aegra scopes memories by it


def test_forged_expired_or_foreign_tokens_are_refused() -> None:
    svc = _service()
    token = svc.issue("1.2.3.4")["token"]
    assert svc.verify(token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]) is None
    other = GuestService(GuestConfig(enabled=True, secret="t" * 40))
    assert other.verify(token) is None
    now = int(time.time())
    expired = jwt.encode(
        {
            "sub": "guest:x",
            "addr": "a",
            "aud": guest.AUDIENCE,
            "iat": now - 7200,
            "exp": now - 3600,
        },
        SECRET,
        algorithm="HS256",
    )
    assert svc.verify(guest.PREFIX + expired) is None
    long_lived = jwt.encode(
        {"sub": "guest:x", "addr": "a", "aud": guest.AUDIENCE, "iat": now, "exp": now + 10**6},
        SECRET,
        algorithm="HS256",
    )
    assert svc.verify(guest.PREFIX + long_lived) is None
    not_guest = jwt.encode(
        {"sub": "alice", "addr": "a", "aud": guest.AUDIENCE, "iat": now, "exp": now + 60},
        SECRET,
        algorithm="HS256",
    )
    assert svc.verify(guest.PREFIX + not_guest) is None
    assert svc.verify(token[len(guest.PREFIX) :]) is None  # the prefix is part of the contract


def test_limits_per_address_per_guest_and_per_address_runs() -> None:
    clock = [0.0]
    svc = GuestService(
        GuestConfig(
            enabled=True,
            secret=SECRET,
            new_per_address_hour=2,
            requests_per_minute=3,
            runs_per_hour=2,
            address_runs_per_hour=3,
        ),
        clock=lambda: clock[0],
    )
    first, second = svc.issue("9.9.9.9"), svc.issue("9.9.9.9")
    with pytest.raises(GuestLimitError) as hit:
        svc.issue("9.9.9.9")
    assert hit.value.retry_after_s > 0
    svc.issue("8.8.8.8")  # another address is not affected
    claims = svc.verify(first["token"])
    assert claims
    for _ in range(3):
        svc.user_for(claims)
    with pytest.raises(GuestLimitError):
        svc.user_for(claims)
    clock[0] += 61
    svc.user_for(claims)  # the window slid
    svc.count_run(first["identity"])
    svc.count_run(first["identity"])
    with pytest.raises(GuestLimitError):
        svc.count_run(first["identity"])
    # The second guest of the same address shares the address's run budget (3 runs, 2 spent).
    second_claims = svc.verify(second["token"])
    assert second_claims
    svc.user_for(second_claims)
    svc.count_run(second["identity"])
    with pytest.raises(GuestLimitError):
        svc.count_run(second["identity"])
    svc.count_run("alice")  # not a guest: never limited here


def test_sliding_window_frees_up_after_the_window() -> None:
    clock = [100.0]
    w = SlidingWindow(1, 10, clock=lambda: clock[0])
    w.hit("k", "x")
    with pytest.raises(GuestLimitError):
        w.hit("k", "x")
    clock[0] += 10.5
    w.hit("k", "x")


def test_authenticate_guest_is_a_no_op_when_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guest, "CONFIG", GuestConfig())
    assert guest.authenticate_guest("Bearer guest.anything") is None
    guest.check_run("guest:x")  # no-op


def test_authenticate_guest_maps_bad_tokens_to_401_and_limits_to_429(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from langgraph_sdk import Auth

    svc = GuestService(GuestConfig(enabled=True, secret=SECRET, requests_per_minute=1))
    monkeypatch.setattr(guest, "CONFIG", svc.config)
    monkeypatch.setattr(guest, "SERVICE", svc)
    assert guest.authenticate_guest("Bearer not-a-guest-token") is None
    with pytest.raises(Auth.exceptions.HTTPException) as bad:
        guest.authenticate_guest("Bearer guest.forged")
    assert bad.value.status_code == 401
    token = svc.issue("1.1.1.1")["token"]
    assert guest.authenticate_guest(f"Bearer {token}")["identity"].startswith("guest:")
    with pytest.raises(Auth.exceptions.HTTPException) as limited:
        guest.authenticate_guest(f"Bearer {token}")
    assert limited.value.status_code == 429 and "Retry-After" in (limited.value.headers or {})
