"""server/credentials.py: static tokens and JWTs resolve to their user; anything else is a 401."""

from __future__ import annotations

import time
from types import SimpleNamespace

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from langgraph_sdk import Auth

from server import credentials as C
from server.identity import DEV_PERMISSION
from settings.auth import AuthConfigError
from tests.unit.server.auth_cases import (
    AUD,
    ISS,
    JWT_ENV,
    TA,
    TB,
    cfg,
    hs256,
)


async def test_dev_mode_accepts_everything() -> None:
    user = await C.resolve_user(None, cfg())
    assert user["identity"] == C.DEV_IDENTITY and DEV_PERMISSION in user["permissions"]


def test_authorization_header_from_either_servers_mapping() -> None:
    assert C.authorization_header({b"authorization": b"Bearer x"}) == "Bearer x"
    assert C.authorization_header({"Authorization": "Bearer y"}) == "Bearer y"
    assert C.authorization_header({"x-other": "1"}) is None and C.authorization_header(None) is None


async def test_static_tokens() -> None:
    c = cfg(AUTH_TOKENS=f"{TA}:alice,{TB}:bob")
    assert (await C.resolve_user(f"Bearer {TA}", c))["identity"] == "alice"
    assert (await C.resolve_user(f"bearer {TB}", c))["identity"] == "bob"
    for header in (None, "", "Bearer", "Bearer nope", f"Basic {TA}", TA, f"Bearer {TA}2"):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await C.resolve_user(header, c)
        assert exc.value.status_code == 401


async def test_jwt_lifetime_and_identity_hygiene() -> None:
    c = cfg(AUTH_JWT_MAX_LIFETIME_S="3600", **JWT_ENV)
    now = int(time.time())
    assert (await C.resolve_user("Bearer " + hs256(exp=now + 3000), c))["identity"] == "carol"
    for name, token in {
        "exp in year 2286": hs256(exp=10_000_000_000),
        "exp beyond the maximum": hs256(exp=now + 7200),
        "long-lived from iat": hs256(iat=now - 100, exp=now + 3599),
        "sub with spaces": hs256(sub=" carol "),
        "sub blank": hs256(sub="  "),
    }.items():
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await C.resolve_user("Bearer " + token, c)
        assert exc.value.status_code == 401, name
    # The default maximum is a day.
    assert cfg(**JWT_ENV).max_lifetime_s == 24 * 3600


async def test_hs256_checks_signature_exp_aud_iss() -> None:
    c = cfg(**JWT_ENV)
    assert (await C.resolve_user("Bearer " + hs256(), c))["identity"] == "carol"
    bad = {
        "expired": hs256(exp=int(time.time()) - 3600),
        "wrong audience": hs256(aud="someone-else"),
        "wrong issuer": hs256(iss="https://evil.example.com/"),
        "no exp": hs256(exp=None),
        "no sub": hs256(sub=None),
        "wrong key": jwt.encode(
            {"sub": "carol", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600},
            "another-secret-0123456789-0123456789",
            algorithm="HS256",
        ),
        "alg none": jwt.encode(
            {"sub": "carol", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600},
            None,
            algorithm="none",
        ),
        "garbage": "not.a.jwt",
    }
    for name, token in bad.items():
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await C.resolve_user("Bearer " + token, c)
        assert exc.value.status_code == 401, name
    # A static token and JWT can coexist.
    both = cfg(AUTH_TOKENS=f"{TA}:alice", **JWT_ENV)
    assert (await C.resolve_user(f"Bearer {TA}", both))["identity"] == "alice"
    assert (await C.resolve_user("Bearer " + hs256(sub="dave"), both))["identity"] == "dave"


async def test_rs256_against_jwks(monkeypatch: pytest.MonkeyPatch) -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    url = "https://login.example.com/.well-known/jwks.json"
    fake = SimpleNamespace(
        get_signing_key_from_jwt=lambda token: SimpleNamespace(key=key.public_key())
    )
    monkeypatch.setitem(C._jwks_clients, url, fake)  # no network: the JWKS fetch is faked
    c = cfg(AUTH_JWKS_URL=url, AUTH_JWT_AUDIENCE=AUD)
    claims = {"sub": "erin", "aud": AUD, "exp": int(time.time()) + 600}
    assert (await C.resolve_user("Bearer " + jwt.encode(claims, key, algorithm="RS256"), c))[
        "identity"
    ] == "erin"
    for token in (
        jwt.encode(claims, other, algorithm="RS256"),
        jwt.encode({**claims, "exp": int(time.time()) - 3600}, key, algorithm="RS256"),
        jwt.encode({**claims, "aud": "x"}, key, algorithm="RS256"),
        # HS256 is refused when only a JWKS is configured (no algorithm confusion).
        jwt.encode(claims, "some-secret-0123456789-0123456789-abc", algorithm="HS256"),
    ):
        with pytest.raises(Auth.exceptions.HTTPException):
            await C.resolve_user("Bearer " + token, c)


async def test_no_credential_but_a_guest_token_is_a_guest() -> None:
    # A JWT whose `sub` was a guest's identity became that guest (its threads, its memories).
    c = cfg(local_dev=False, **JWT_ENV)
    for sub in ("guest:AbCdEf123", "guest:", "guest:x y"):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await C.resolve_user("Bearer " + hs256(sub=sub), c)
        assert exc.value.status_code == 401 and "guest" in str(exc.value.detail)
    # Other spellings are other identities, outside the guest space.
    for sub in ("Guest:AbCdEf123", "guests:x", "guest-x"):
        assert (await C.resolve_user("Bearer " + hs256(sub=sub), c))["identity"] == sub
    # A static token's user id holds no `:` (the pair splits at the last one): never a guest id.
    with pytest.raises(AuthConfigError):
        cfg(AUTH_TOKENS=f"{TA}:guest:abc")
