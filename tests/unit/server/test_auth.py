"""server/auth.py: credential checks and the ownership handlers, without a server."""

from __future__ import annotations

import os
import time
from types import SimpleNamespace
from typing import Any
from unittest import mock

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from langgraph_sdk import Auth

# Importing the module checks the process's own auth settings, as a server start does: outside
# `langgraph dev` that needs credentials or the explicit opt-in. Tests build their own configs.
with mock.patch.dict(os.environ, {"AUTH_DEV_MODE": "true"}):
    from server import auth as A

SECRET = "unit-secret-0123456789-0123456789-abcdef"
AUD = "docs-agent"
ISS = "https://login.example.com/"


def hs256(**claims: Any) -> str:
    base = {"sub": "carol", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600}
    base.update(claims)
    return jwt.encode({k: v for k, v in base.items() if v is not None}, SECRET, algorithm="HS256")


def cfg(local_dev: bool = True, **env: str) -> A.AuthConfig:
    return A.AuthConfig.from_env(env, local_dev=local_dev)


JWT_ENV = {"AUTH_JWT_SECRET": SECRET, "AUTH_JWT_AUDIENCE": AUD, "AUTH_JWT_ISSUER": ISS}
TA, TB = "tok-alice-0123456789", "tok-bob-0123456789ab"


def test_config_parsing_and_modes() -> None:
    assert cfg().dev_mode
    c = cfg(AUTH_TOKENS=f" {TA}:alice , {TB}:bob ")
    assert not c.dev_mode and dict(c.tokens) == {TA: "alice", TB: "bob"}
    assert "2 static token(s)" in c.describe() and "tok-" not in c.describe()
    assert (
        not cfg(AUTH_JWT_SECRET=SECRET).dev_mode
        and not cfg(AUTH_JWKS_URL="https://x/jwks").dev_mode
    )
    # Aegra's own AUTH_TYPE is known, not a typo.
    assert not cfg(AUTH_TYPE="custom", AUTH_TOKENS=f"{TA}:alice").dev_mode
    for bad in ("justtoken", "tok-0123456789abcdef:", ":user"):
        with pytest.raises(ValueError):
            cfg(AUTH_TOKENS=bad)


# Every configuration the outside review found starting an open server, and their neighbours:
# each must fail the start with a message that names the variable.
FAIL_OPEN = [
    ({"AUTH_TOKENS": ""}, "AUTH_TOKENS"),
    ({"AUTH_TOKENS": "   "}, "AUTH_TOKENS"),
    ({"AUTH_TOKENS": ","}, "AUTH_TOKENS"),
    ({"AUTH_TOKENS": " , ,"}, "AUTH_TOKENS"),
    ({"AUTH_TOKENS": f"{TA}:alice,"}, "AUTH_TOKENS"),
    ({"AUTH_JWT_SECRET": "   "}, "AUTH_JWT_SECRET"),
    ({"AUTH_JWKS_URL": " \t"}, "AUTH_JWKS_URL"),
    ({"AUTH_JWKS_URL": "not a url"}, "AUTH_JWKS_URL"),
    ({"AUTH_JWT_AUDIENCE": "docs-agent"}, "AUTH_JWT_AUDIENCE"),
    ({"AUTH_JWT_ISSUER": ISS}, "AUTH_JWT_ISSUER"),
    ({"AUTH_JWT_MAX_LIFETIME_S": "3600"}, "AUTH_JWT_MAX_LIFETIME_S"),
    ({"AUTH_TOKEN": f"{TA}:alice"}, "AUTH_TOKEN"),
    ({"AUTH_JWT_SECRETS": SECRET}, "AUTH_JWT_SECRETS"),
    ({"AUTH_TOKENS": f"{TA}:alice", "AUTH_JWT_AUDENCE": "x"}, "AUTH_JWT_AUDENCE"),
    ({"AUTH_DEV_MODE": ""}, "AUTH_DEV_MODE"),
    ({"AUTH_DEV_MODE": "maybe"}, "AUTH_DEV_MODE"),
    ({"AUTH_DEV_MODE": "true", "AUTH_TOKENS": f"{TA}:alice"}, "AUTH_DEV_MODE"),
    ({"AUTH_TOKENS": f"{TA}:alice,{TA}:bob"}, "AUTH_TOKENS"),
    ({"AUTH_TOKENS": "short:alice"}, "AUTH_TOKENS"),
    ({"AUTH_JWT_SECRET": "x"}, "AUTH_JWT_SECRET"),
    ({"AUTH_JWT_SECRET": SECRET, "AUTH_JWT_MAX_LIFETIME_S": "forever"}, "AUTH_JWT_MAX_LIFETIME_S"),
]


@pytest.mark.parametrize(("env", "name"), FAIL_OPEN)
def test_fail_open_configurations_fail_the_start(env: dict[str, str], name: str) -> None:
    for local_dev in (True, False):
        with pytest.raises(A.AuthConfigError, match=name):
            cfg(local_dev=local_dev, **env)


def test_dev_mode_only_on_the_local_dev_server_or_by_opt_in() -> None:
    assert cfg(local_dev=True).dev_mode
    with pytest.raises(A.AuthConfigError, match="not the local `langgraph dev` server"):
        cfg(local_dev=False)
    assert cfg(local_dev=False, AUTH_DEV_MODE="true").dev_mode
    with pytest.raises(A.AuthConfigError, match="AUTH_DEV_MODE=false forbids"):
        cfg(local_dev=True, AUTH_DEV_MODE="false")
    assert not cfg(local_dev=False, AUTH_DEV_MODE="false", AUTH_TOKENS=f"{TA}:a").dev_mode
    # Detection: only the explicit marker `langgraph dev` sets, never its absence.
    assert A.is_local_dev_server({"LANGGRAPH_RUNTIME_EDITION": "inmem"})
    for env in ({}, {"LANGGRAPH_RUNTIME_EDITION": "postgres"}):
        assert not A.is_local_dev_server(env)


def test_dev_mode_refuses_a_state_folder_written_with_auth(tmp_path: Any) -> None:
    state = tmp_path / ".langgraph_api"
    A.check_dev_state(cfg(), state)  # fresh folder: dev mode is fine
    A.check_dev_state(cfg(AUTH_TOKENS=f"{TA}:alice"), state)  # auth on marks it
    assert (state / A.AUTH_MARKER).exists()
    with pytest.raises(A.AuthConfigError, match="created with auth on"):
        A.check_dev_state(cfg(), state)
    A.check_dev_state(cfg(AUTH_TOKENS=f"{TA}:alice"), state)  # auth again: fine


async def test_dev_mode_accepts_everything() -> None:
    user = await A.resolve_user(None, cfg())
    assert user["identity"] == A.DEV_IDENTITY and A.DEV_PERMISSION in user["permissions"]


def test_authorization_header_from_either_servers_mapping() -> None:
    assert A.authorization_header({b"authorization": b"Bearer x"}) == "Bearer x"
    assert A.authorization_header({"Authorization": "Bearer y"}) == "Bearer y"
    assert A.authorization_header({"x-other": "1"}) is None and A.authorization_header(None) is None


async def test_static_tokens() -> None:
    c = cfg(AUTH_TOKENS=f"{TA}:alice,{TB}:bob")
    assert (await A.resolve_user(f"Bearer {TA}", c))["identity"] == "alice"
    assert (await A.resolve_user(f"bearer {TB}", c))["identity"] == "bob"
    for header in (None, "", "Bearer", "Bearer nope", f"Basic {TA}", TA, f"Bearer {TA}2"):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.resolve_user(header, c)
        assert exc.value.status_code == 401


async def test_jwt_lifetime_and_identity_hygiene() -> None:
    c = cfg(AUTH_JWT_MAX_LIFETIME_S="3600", **JWT_ENV)
    now = int(time.time())
    assert (await A.resolve_user("Bearer " + hs256(exp=now + 3000), c))["identity"] == "carol"
    for name, token in {
        "exp in year 2286": hs256(exp=10_000_000_000),
        "exp beyond the maximum": hs256(exp=now + 7200),
        "long-lived from iat": hs256(iat=now - 100, exp=now + 3599),
        "sub with spaces": hs256(sub=" carol "),
        "sub blank": hs256(sub="  "),
    }.items():
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.resolve_user("Bearer " + token, c)
        assert exc.value.status_code == 401, name
    # The default maximum is a day.
    assert cfg(**JWT_ENV).max_lifetime_s == 24 * 3600


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
    both = cfg(AUTH_TOKENS=f"{TA}:alice", **JWT_ENV)
    assert (await A.resolve_user(f"Bearer {TA}", both))["identity"] == "alice"
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
    # Existence probes: do_nothing is refused whatever the id, so no id's owner shows.
    for tid in ("00000000-0000-0000-0000-000000000001", None):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.owner_only(
                ctx("bob", "threads", "create"), {"thread_id": tid, "if_exists": "do_nothing"}
            )
        assert exc.value.status_code == 422
    assert await A.owner_only(
        ctx("bob", "threads", "create"), {"thread_id": "x", "if_exists": "raise"}
    ) == {"user_id": "bob"}
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await A.owner_only(
            ctx("bob", "threads", "create_run"), {"thread_id": "x", "if_not_exists": "create"}
        )
    assert exc.value.status_code == 422
    # Stateless runs (the server picks a temporary thread) keep working.
    stateless = {"thread_id": None, "if_not_exists": "create"}
    assert await A.owner_only(ctx("bob", "threads", "create_run"), stateless) == {"user_id": "bob"}
    dev_value = {"metadata": {"user_id": "mallory"}}
    assert await A.owner_only(ctx(A.DEV_IDENTITY, "threads", "create", dev=True), dev_value) is None
    assert dev_value["metadata"]["user_id"] == "mallory"


async def test_assistants_packaged_and_own_only_writes_owner_scoped() -> None:
    for action in ("read", "search"):
        assert await A.assistants(ctx("bob", "assistants", action), {}) == {
            "$or": [{"user_id": "bob"}, {"created_by": "system"}]
        }
    assert await A.assistants(ctx("bob", "assistants", "read", dev=True), {}) is None
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
    # Aegra's search payload names the prefix `namespace_prefix`: the same rule applies.
    with pytest.raises(Auth.exceptions.HTTPException):
        await A.store(ctx("alice", "store", "search"), {"namespace_prefix": ("memories", "bob")})
    aegra = {"namespace_prefix": ("memories",)}
    await A.store(ctx("alice", "store", "search"), aegra)
    assert aegra["namespace_prefix"] == ("memories", "alice")
