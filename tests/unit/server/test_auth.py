"""server/auth.py: credential checks and the ownership handlers, without a server."""

from __future__ import annotations

import importlib.util
import logging
import os
import secrets
import sys
import time
from collections.abc import Iterator
from pathlib import Path
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
JWKS = "https://login.example.com/.well-known/jwks.json"
REPO = Path(__file__).resolve().parents[3]


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


# Issue 22: settings that started an open or weak server (34 of these 36 before the fix). Each must
# fail the start, on `langgraph dev` and elsewhere, with a message naming the variable.
# (why, env, the variable the refusal must name)
BAD_SETTINGS: list[tuple[str, dict[str, str], str]] = [
    # names: any case, separator, prefix or stray space reads as ours and must be a known name
    ("lower-case name (.env)", {"auth_tokens": f"{TA}:alice"}, "auth_tokens"),
    ("no separator", {"AUTHTOKENS": f"{TA}:alice"}, "AUTHTOKENS"),
    ("project prefix", {"DOCS_AGENT_AUTH_TOKENS": f"{TA}:alice"}, "DOCS_AGENT_AUTH_TOKENS"),
    ("leading space", {" AUTH_TOKENS": f"{TA}:alice"}, "AUTH_TOKENS"),
    ("trailing space", {"AUTH_TOKENS ": f"{TA}:alice"}, "AUTH_TOKENS"),
    ("mixed case secret", {"Auth_Jwt_Secret": SECRET}, "Auth_Jwt_Secret"),
    ("dashes", {"auth-jwks-url": JWKS}, "auth-jwks-url"),
    ("prefixed dev switch", {"DOCS_AGENT_AUTH_DEV_MODE": "false"}, "DOCS_AGENT_AUTH_DEV_MODE"),
    ("zero-width in the name", {"AUTH\u200b_TOKENS": f"{TA}:alice"}, "AUTH"),
    ("lower-case prefixed", {"docs_agent_auth_jwt_secret": SECRET}, "docs_agent_auth_jwt_secret"),
    (
        "lower-case blank next to a valid one",
        {"AUTH_TOKENS": f"{TA}:alice", "auth_tokens": ""},
        "auth_tokens",
    ),
    ("singular", {"AUTH_TOKEN": f"{TA}:alice"}, "AUTH_TOKEN"),
    # placeholders of our own examples
    (
        ".env.example tokens",
        {"AUTH_TOKENS": "change-me-long-random-1:alice,change-me-long-random-2:bob"},
        "AUTH_TOKENS",
    ),
    (
        "docker-compose.yml comment token",
        {"AUTH_TOKENS": "change-me-long-random-1:alice"},
        "AUTH_TOKENS",
    ),
    ("docs/deploy.md token", {"AUTH_TOKENS": "<32 random chars>:alice"}, "AUTH_TOKENS"),
    ("docs/auth.md token", {"AUTH_TOKENS": "k3J9...long-random...:alice"}, "AUTH_TOKENS"),
    (
        "placeholder secret",
        {"AUTH_JWT_SECRET": "change-me-long-random-secret-0123456789"},
        "AUTH_JWT_SECRET",
    ),
    # weak or invisible tokens and secrets
    ("16 x a", {"AUTH_TOKENS": "a" * 16 + ":alice"}, "AUTH_TOKENS"),
    ("repeated pair", {"AUTH_TOKENS": "ab" * 8 + ":alice"}, "AUTH_TOKENS"),
    ("repeated 8-character unit", {"AUTH_TOKENS": "Xy3-kQ9z" * 2 + ":alice"}, "AUTH_TOKENS"),
    ("four distinct characters", {"AUTH_TOKENS": "1111222233334444:alice"}, "AUTH_TOKENS"),
    ("16 zero-width characters", {"AUTH_TOKENS": "\u200b" * 16 + ":alice"}, "AUTH_TOKENS"),
    (
        "token with a control character",
        {"AUTH_TOKENS": "tok-alice-012345\x07:alice"},
        "AUTH_TOKENS",
    ),
    ("token with spaces", {"AUTH_TOKENS": "tok alice 0123456789:alice"}, "AUTH_TOKENS"),
    ("token with non-ASCII", {"AUTH_TOKENS": "t\u00f6k-alice-0123456789:alice"}, "AUTH_TOKENS"),
    (
        "token with a zero-width joiner",
        {"AUTH_TOKENS": "tok-alice-01234\u200d56789:alice"},
        "AUTH_TOKENS",
    ),
    ("user id with a zero-width space", {"AUTH_TOKENS": f"{TA}:alice\u200b"}, "AUTH_TOKENS"),
    ("32 x a secret", {"AUTH_JWT_SECRET": "a" * 32}, "AUTH_JWT_SECRET"),
    ("repeated secret", {"AUTH_JWT_SECRET": "abcd" * 8}, "AUTH_JWT_SECRET"),
    ("40 zero-width secret", {"AUTH_JWT_SECRET": "\u200b" * 40}, "AUTH_JWT_SECRET"),
    ("secret with a control character", {"AUTH_JWT_SECRET": SECRET + "\x1b"}, "AUTH_JWT_SECRET"),
    # JWKS over plain http
    (
        "http JWKS",
        {"AUTH_JWKS_URL": "http://login.example.com/.well-known/jwks.json"},
        "AUTH_JWKS_URL",
    ),
    ("http JWKS, private address", {"AUTH_JWKS_URL": "http://10.0.0.5/jwks.json"}, "AUTH_JWKS_URL"),
    (
        "http JWKS, localhost look-alike",
        {"AUTH_JWKS_URL": "http://localhost.evil.example/jwks"},
        "AUTH_JWKS_URL",
    ),
    ("upper-case HTTP JWKS", {"AUTH_JWKS_URL": "HTTP://login.example.com/jwks"}, "AUTH_JWKS_URL"),
    (
        "audience with a zero-width space",
        {"AUTH_JWT_SECRET": SECRET, "AUTH_JWT_AUDIENCE": "docs-agent\u200b"},
        "AUTH_JWT_AUDIENCE",
    ),
]


@pytest.mark.parametrize(
    ("env", "name"),
    [(env, name) for _, env, name in BAD_SETTINGS],
    ids=[w for w, _, _ in BAD_SETTINGS],
)
def test_open_or_weak_settings_fail_the_start(env: dict[str, str], name: str) -> None:
    for local_dev in (True, False):
        with pytest.raises(A.AuthConfigError, match=name):
            cfg(local_dev=local_dev, **env)


def test_at_least_32_bad_settings() -> None:
    assert len(BAD_SETTINGS) >= 32


def test_other_tools_names_and_random_values_are_accepted() -> None:
    foreign = {
        name: "x"
        for name in (
            "SSH_AUTH_SOCK",
            "XAUTHORITY",
            "GITHUB_OAUTH_TOKEN",
            "NEXTAUTH_SECRET",
            "LANGGRAPH_AUTH",
            "LANGGRAPH_AUTH_TYPE",
            "LANGSMITH_AUTH_ENDPOINT",
            "DOCKER_AUTH_CONFIG",
            "AUTHOR",
            "auth_type",
            "DOCS_AGENT_KB_TOKEN",
            "SENTRY_AUTH_TOKEN",
            "TWILIO_AUTH_TOKEN",
            "NGROK_AUTHTOKEN",
            "AUTHORIZATION_SERVER",
        )
    }
    tokens = ",".join(f"{secrets.token_urlsafe(24)}:u{i}" for i in range(20))
    hexes = ",".join(f"{secrets.token_hex(8)}:h{i}" for i in range(20))
    c = cfg(local_dev=False, AUTH_TOKENS=f"{tokens},{hexes}", **foreign)
    assert len(c.tokens) == 40
    assert cfg(local_dev=False, AUTH_JWT_SECRET=secrets.token_hex(32)).jwt_secret
    assert cfg(local_dev=False, AUTH_JWT_SECRET="a long passphrase, 32 bytes or more!").jwt_secret
    assert cfg(AUTH_TOKENS="carol.0123456789-abcdef:carol@example.com").tokens
    for url in ("http://127.0.0.1:8080/jwks", "http://localhost/jwks", "http://[::1]:9/jwks", JWKS):
        assert cfg(local_dev=False, AUTH_JWKS_URL=url).jwks_url == url


def _example_tokens(text: str) -> list[str]:
    """Every `AUTH_TOKENS=...` value an example file shows (commented or not)."""
    values = []
    for line in text.splitlines():
        _, found, rest = line.partition("AUTH_TOKENS=")
        if found:
            values.append(rest.split()[0].strip("'\""))
    return values


def test_placeholders_of_our_own_examples_are_refused() -> None:
    shown = [
        value
        for name in (".env.example", "docker-compose.yml", "docs/deploy.md", "docs/auth.md")
        for value in _example_tokens((REPO / name).read_text())
        if "$" not in value
    ]
    assert len(shown) >= 3, shown
    for value in shown:
        with pytest.raises(A.AuthConfigError, match="AUTH_TOKENS"):
            cfg(AUTH_TOKENS=value)


def _load_auth_module(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], *, under_langgraph_api: bool
) -> Any:
    """Execute server/auth.py afresh, as an engine loads it, with exactly `env` as environment."""
    monkeypatch.setattr(os, "environ", dict(env))
    if under_langgraph_api:
        monkeypatch.setitem(sys.modules, "langgraph_api.auth.custom", mock.MagicMock())
    else:
        monkeypatch.delitem(sys.modules, "langgraph_api.auth.custom", raising=False)
    return _exec_auth_module(monkeypatch, "auth_module_test")


def _exec_auth_module(monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    """What both engines' loaders do: a module from the file path, registered, then executed."""
    spec = importlib.util.spec_from_file_location(name, REPO / "server" / "auth.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "env", [{"AUTH_TOKENS": "short:alice"}, {"auth_tokens": f"{TA}:alice"}, {}]
)
async def test_a_refused_configuration_refuses_every_request_off_langgraph_api(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
) -> None:
    module = _load_auth_module(monkeypatch, env, under_langgraph_api=False)
    assert isinstance(module.auth, Auth) and module.CONFIG is None
    for headers in ({}, {"Authorization": f"Bearer {TA}"}, {b"authorization": b"Bearer x"}):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await module.authenticate(headers)
        assert exc.value.status_code == 503
        assert "serves no request" in str(exc.value.detail)
    name = next(iter(env), "AUTH_TOKENS")
    assert name in str(exc.value.detail) or "No auth configured" in str(exc.value.detail)


async def test_any_exception_while_building_refuses_every_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Exploding(dict[str, str]):
        def items(self) -> Any:
            raise RuntimeError("environment unreadable")

    module = _load_auth_module(monkeypatch, {}, under_langgraph_api=False)
    monkeypatch.setattr(os, "environ", Exploding())
    boom = _exec_auth_module(monkeypatch, "auth_module_boom")
    assert isinstance(boom.auth, Auth) and boom.CONFIG is None and module.CONFIG is None
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await boom.authenticate({"Authorization": f"Bearer {TA}"})
    assert exc.value.status_code == 503 and "RuntimeError while reading the auth settings" in str(
        exc.value.detail
    )


def test_langgraph_api_still_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh module has its own AuthConfigError class; both are ValueErrors.
    with pytest.raises(ValueError, match="AUTH_TOKENS") as exc:
        _load_auth_module(monkeypatch, {"AUTH_TOKENS": "short:alice"}, under_langgraph_api=True)
    assert type(exc.value).__name__ == "AuthConfigError"
    good = _load_auth_module(monkeypatch, {"AUTH_TOKENS": f"{TA}:alice"}, under_langgraph_api=True)
    assert good.CONFIG is not None and good.REFUSAL is None


def test_operator_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"auth_tokens={TA}:alice\n")
    monkeypatch.setattr(os, "environ", {"AUTH_TOKENS": f"{TA}:alice"})
    assert A.main(["--check"]) == 0
    assert "1 static token(s)" in capsys.readouterr().out
    assert A.main(["--check", "--env-file", str(env_file)]) == 2
    assert "auth_tokens" in capsys.readouterr().err
    # Aegra: the environment wins over .env; `langgraph dev`: .env wins.
    env_file.write_text("AUTH_TOKENS=short:alice\n")
    assert A.main(["--check", "--env-file", str(env_file)]) == 0
    assert A.main(["--check", "--dev", "--env-file", str(env_file)]) == 2
    monkeypatch.setattr(os, "environ", {})
    assert A.main(["--check"]) == 2 and "No auth configured" in capsys.readouterr().err
    assert A.main(["--check", "--dev"]) == 0 and "dev mode" in capsys.readouterr().out


async def test_credentials_in_the_url_are_refused() -> None:
    for params in ({"token": "x"}, {"access_token": "x"}, {"JWT": "x"}):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.authenticate({}, params)
        assert exc.value.status_code == 401 and "Authorization: Bearer" in str(exc.value.detail)
    assert (await A.authenticate({}, {"limit": "5"}))["identity"] == A.DEV_IDENTITY


def test_credentials_are_redacted_from_log_records() -> None:
    token = hs256()
    line = f"GET /threads?limit=5&token={TA}&x=1 401 query_string=access_token={token}"
    assert TA not in A.redact(line) and token not in A.redact(line)
    assert "limit=5" in A.redact(line) and "x=1" in A.redact(line)
    assert token not in A.redact(f"bare {token} in text")
    record = logging.LogRecord(
        "x", logging.INFO, "f", 1, {"event": "GET", "query_string": f"token={TA}"}, None, None
    )
    A.RedactCredentials().filter(record)
    assert TA not in str(record.msg)
    nested = {"event": "x", "http": {"url": f"/threads?token={token}", "list": [f"jwt={TA}"]}}
    record = logging.LogRecord("x", logging.INFO, "f", 1, nested, None, None)
    A.RedactCredentials().filter(record)
    assert TA not in str(record.msg) and token not in str(record.msg)
    record = logging.LogRecord(
        "x", logging.INFO, "f", 1, '"%s %s"', ("GET", f"/t?jwt={token}"), None
    )
    A.RedactCredentials().filter(record)
    assert token not in record.getMessage()


@pytest.fixture
def handler_on_root() -> Iterator[logging.Handler]:
    handler = logging.StreamHandler()
    logging.getLogger().addHandler(handler)
    try:
        yield handler
    finally:
        logging.getLogger().removeHandler(handler)


def test_log_redaction_is_installed_on_handlers(handler_on_root: logging.Handler) -> None:
    A.install_log_redaction()
    A.install_log_redaction()
    assert sum(isinstance(f, A.RedactCredentials) for f in handler_on_root.filters) == 1


async def test_dotted_ids_get_their_own_store_namespace() -> None:
    from server.identity import memory_namespace, namespace_label

    ids = [
        "carol@example.com",
        "carol@example%2Ecom",
        "carol@example%252Ecom",
        "a.b",
        "a%2Eb",
        "alice",
    ]
    labels = [namespace_label(i) for i in ids]
    assert len(set(labels)) == len(ids) and all("." not in label for label in labels)
    assert namespace_label("alice") == "alice" and namespace_label("bob-1_x@y") == "bob-1_x@y"
    user = await A.resolve_user("Bearer " + hs256(sub="carol@example.com"), cfg(**JWT_ENV))
    assert user["namespace_label"] == "carol@example%2Ecom"
    own = memory_namespace("carol@example.com")
    v: dict[str, Any] = {"namespace": own, "key": "k"}
    await A.store(ctx("carol@example.com", "store", "put"), v)
    assert v["namespace"] == own
    search: dict[str, Any] = {"namespace_prefix": ("memories",)}
    await A.store(ctx("carol@example.com", "store", "search"), search)
    assert search["namespace_prefix"] == own
    with pytest.raises(Auth.exceptions.HTTPException):  # the raw dotted id is not a way around
        await A.store(
            ctx("carol@example.com", "store", "get"),
            {"namespace": ("memories", "carol@example"), "key": "k"},
        )


async def test_assistant_create_with_a_chosen_id_confirms_nothing() -> None:
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await A.assistants(
            ctx("bob", "assistants", "create"), {"assistant_id": "x", "if_exists": "do_nothing"}
        )
    assert exc.value.status_code == 422 and "assistant" in str(exc.value.detail)
    value: dict[str, Any] = {"assistant_id": "x", "metadata": {"user_id": "mallory"}}
    guard = await A.assistants(ctx("bob", "assistants", "create"), value)
    assert guard == {"user_id": "bob", A.CREATE_GUARD_KEY: mock.ANY}
    assert value["metadata"] == {"user_id": "bob"}  # the guard is a filter, never stored


# --- Issue 33: the platform's prefix, the guest identity space, values filters, guest crons ---


def test_a_platform_prefixed_name_fails_the_start_naming_the_right_variable() -> None:
    # `LANGGRAPH_AUTH_TOKENS=...` used to start `langgraph dev` in dev mode: open to anyone.
    for name, right in (
        ("LANGGRAPH_AUTH_TOKENS", "AUTH_TOKENS"),
        ("LANGGRAPH_AUTH_JWT_SECRET", "AUTH_JWT_SECRET"),
        ("langgraph_auth_jwks_url", "AUTH_JWKS_URL"),
        ("AUTH_TOKEN", "AUTH_TOKENS"),
        ("DOCS_AGENT_AUTH_TOKENS", "AUTH_TOKENS"),
    ):
        for local_dev in (True, False):
            with pytest.raises(A.AuthConfigError, match=f"{name} → {right}"):
                cfg(local_dev=local_dev, **{name: f"{TA}:alice"})
    # The platform's own variables are not ours, and pass.
    assert cfg(LANGGRAPH_AUTH_TYPE="noop", LANGGRAPH_AUTH='{"path": "x"}').dev_mode


async def test_no_credential_but_a_guest_token_is_a_guest() -> None:
    # A JWT whose `sub` was a guest's identity became that guest (its threads, its memories).
    c = cfg(local_dev=False, **JWT_ENV)
    for sub in ("guest:AbCdEf123", "guest:", "guest:x y"):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.resolve_user("Bearer " + hs256(sub=sub), c)
        assert exc.value.status_code == 401 and "guest" in str(exc.value.detail)
    # Other spellings are other identities, outside the guest space.
    for sub in ("Guest:AbCdEf123", "guests:x", "guest-x"):
        assert (await A.resolve_user("Bearer " + hs256(sub=sub), c))["identity"] == sub
    # A static token's user id holds no `:` (the pair splits at the last one): never a guest id.
    with pytest.raises(A.AuthConfigError):
        cfg(AUTH_TOKENS=f"{TA}:guest:abc")


async def test_a_values_filter_is_refused_with_the_way_that_works() -> None:
    # langgraph dev answered 500 (Aegra ignores the filter): 422 on every engine, dev mode too.
    for who, dev in (("alice", False), (A.DEV_IDENTITY, True)):
        value: dict[str, Any] = {"metadata": {}, "values": {"messages": []}, "limit": 10}
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.owner_only(ctx(who, "threads", "search", dev=dev), value)
        assert exc.value.status_code == 422 and "metadata" in str(exc.value.detail)
    for harmless in ({"values": {}}, {"values": None}, {}):
        assert await A.owner_only(ctx("alice", "threads", "search"), harmless) == {
            "user_id": "alice"
        }


async def test_guests_schedule_no_crons_and_users_still_do() -> None:
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await A.owner_only(ctx("guest:AbCdEf123", "crons", "create"), {"schedule": "* * * * *"})
    assert exc.value.status_code == 403 and "Guests cannot schedule" in str(exc.value.detail)
    value: dict[str, Any] = {"schedule": "* * * * *"}
    assert await A.owner_only(ctx("alice", "crons", "create"), value) == {"user_id": "alice"}
    assert value["metadata"]["user_id"] == "alice"
    # A guest may still list its (no) crons: only scheduling is refused.
    assert await A.owner_only(ctx("guest:AbCdEf123", "crons", "search"), {}) == {
        "user_id": "guest:AbCdEf123"
    }
