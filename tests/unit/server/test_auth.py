"""server/auth.py: credential checks and the ownership handlers, without a server."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from langgraph_sdk import Auth

from server import auth as A

SECRET = "unit-secret-0123456789-0123456789-abcdef"
AUD = "docs-agent"
ISS = "https://login.example.com/"


def hs256(**claims: Any) -> str:
    base = {"sub": "carol", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600}
    base.update(claims)
    return jwt.encode({k: v for k, v in base.items() if v is not None}, SECRET, algorithm="HS256")


def cfg(**env: str) -> A.AuthConfig:
    return A.AuthConfig.from_env(env)


JWT_ENV = {"AUTH_JWT_SECRET": SECRET, "AUTH_JWT_AUDIENCE": AUD, "AUTH_JWT_ISSUER": ISS}


def test_config_parsing_and_modes() -> None:
    assert cfg().dev_mode
    c = cfg(AUTH_TOKENS=" tok-a1:alice , tok-b2:bob ,")
    assert not c.dev_mode and dict(c.tokens) == {"tok-a1": "alice", "tok-b2": "bob"}
    assert "2 static token(s)" in c.describe() and "tok-" not in c.describe()
    assert (
        not cfg(AUTH_JWT_SECRET="s").dev_mode and not cfg(AUTH_JWKS_URL="https://x/jwks").dev_mode
    )
    for bad in ("justtoken", "tok:", ":user"):
        with pytest.raises(ValueError):
            cfg(AUTH_TOKENS=bad)


async def test_dev_mode_accepts_everything() -> None:
    user = await A.resolve_user(None, cfg())
    assert user["identity"] == A.DEV_IDENTITY and A.DEV_PERMISSION in user["permissions"]


async def test_static_tokens() -> None:
    c = cfg(AUTH_TOKENS="ta:alice,tb:bob")
    assert (await A.resolve_user("Bearer ta", c))["identity"] == "alice"
    assert (await A.resolve_user("bearer tb", c))["identity"] == "bob"
    for header in (None, "", "Bearer", "Bearer nope", "Basic ta", "ta", "Bearer ta2"):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.resolve_user(header, c)
        assert exc.value.status_code == 401


async def test_hs256_checks_signature_exp_aud_iss() -> None:
    c = cfg(**JWT_ENV)
    assert (await A.resolve_user("Bearer " + hs256(), c))["identity"] == "carol"
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
            await A.resolve_user("Bearer " + token, c)
        assert exc.value.status_code == 401, name
    # A static token and JWT can coexist.
    both = cfg(AUTH_TOKENS="ta:alice", **JWT_ENV)
    assert (await A.resolve_user("Bearer ta", both))["identity"] == "alice"
    assert (await A.resolve_user("Bearer " + hs256(sub="dave"), both))["identity"] == "dave"


async def test_rs256_against_jwks(monkeypatch: pytest.MonkeyPatch) -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    url = "https://login.example.com/.well-known/jwks.json"
    fake = SimpleNamespace(
        get_signing_key_from_jwt=lambda token: SimpleNamespace(key=key.public_key())
    )
    monkeypatch.setitem(A._jwks_clients, url, fake)  # no network: the JWKS fetch is faked
    c = cfg(AUTH_JWKS_URL=url, AUTH_JWT_AUDIENCE=AUD)
    claims = {"sub": "erin", "aud": AUD, "exp": int(time.time()) + 600}
    assert (await A.resolve_user("Bearer " + jwt.encode(claims, key, algorithm="RS256"), c))[
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
            await A.resolve_user("Bearer " + token, c)


def ctx(identity: str, resource: str, action: str, dev: bool = False) -> Auth.types.AuthContext:
    user = SimpleNamespace(identity=identity, is_authenticated=True, display_name=identity)
    perms = [A.DEV_PERMISSION] if dev else ["authenticated"]
    return Auth.types.AuthContext(permissions=perms, user=user, resource=resource, action=action)  # type: ignore[arg-type]


async def test_owner_stamped_and_filtered() -> None:
    value: dict[str, Any] = {"metadata": {"user_id": "mallory", "topic": "x"}}
    assert await A.owner_only(ctx("alice", "threads", "create"), value) == {"user_id": "alice"}
    assert value["metadata"] == {"user_id": "alice", "topic": "x"}
    for action in ("read", "update", "delete", "search", "create_run"):
        v: dict[str, Any] = {"metadata": None}
        assert await A.owner_only(ctx("bob", "threads", action), v) == {"user_id": "bob"}
    run: dict[str, Any] = {}
    await A.owner_only(ctx("bob", "threads", "create_run"), run)
    assert run["metadata"]["user_id"] == "bob"
    # Dev mode: nothing stamped, nothing filtered.
    dev_value = {"metadata": {"user_id": "mallory"}}
    assert await A.owner_only(ctx(A.DEV_IDENTITY, "threads", "create", dev=True), dev_value) is None
    assert dev_value["metadata"]["user_id"] == "mallory"


async def test_assistants_readable_writes_owner_scoped() -> None:
    for action in ("read", "search"):
        assert await A.assistants(ctx("bob", "assistants", action), {}) is None
    assert await A.assistants(ctx("bob", "assistants", "update"), {"metadata": {}}) == {
        "user_id": "bob"
    }
    assert await A.assistants(ctx("bob", "assistants", "delete"), {}) == {"user_id": "bob"}


async def test_store_confined_to_own_namespace() -> None:
    for action in ("put", "get", "delete"):
        v: dict[str, Any] = {"namespace": ("memories", "alice"), "key": "k"}
        await A.store(ctx("alice", "store", action), v)
        assert v["namespace"] == ("memories", "alice")
        for ns in (("memories", "bob"), ("memories",), (), ("other", "alice")):
            with pytest.raises(Auth.exceptions.HTTPException) as exc:
                await A.store(ctx("alice", "store", action), {"namespace": ns, "key": "k"})
            assert exc.value.status_code == 403
    for prefix in ((), ("memories",), None):
        v = {"namespace": prefix}
        await A.store(ctx("alice", "store", "search"), v)
        assert v["namespace"] == ("memories", "alice")
    with pytest.raises(Auth.exceptions.HTTPException):
        await A.store(ctx("alice", "store", "list_namespaces"), {"namespace": ("memories", "bob")})
