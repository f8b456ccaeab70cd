"""settings/auth.py: every auth setting that could open a server fails the start, naming the variable."""

from __future__ import annotations

import secrets

import pytest

from settings.auth import AuthConfigError
from settings.engine import is_local_dev_server
from tests.unit.server.auth_cases import (
    ISS,
    JWKS,
    REPO,
    SECRET,
    TA,
    TB,
    cfg,
)


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
        with pytest.raises(AuthConfigError, match=name):
            cfg(local_dev=local_dev, **env)


def test_dev_mode_only_on_the_local_dev_server_or_by_opt_in() -> None:
    assert cfg(local_dev=True).dev_mode
    with pytest.raises(AuthConfigError, match="not the local `langgraph dev` server"):
        cfg(local_dev=False)
    assert cfg(local_dev=False, AUTH_DEV_MODE="true").dev_mode
    with pytest.raises(AuthConfigError, match="AUTH_DEV_MODE=false forbids"):
        cfg(local_dev=True, AUTH_DEV_MODE="false")
    assert not cfg(local_dev=False, AUTH_DEV_MODE="false", AUTH_TOKENS=f"{TA}:a").dev_mode
    # Detection: only the explicit marker `langgraph dev` sets, never its absence.
    assert is_local_dev_server({"LANGGRAPH_RUNTIME_EDITION": "inmem"})
    for env in ({}, {"LANGGRAPH_RUNTIME_EDITION": "postgres"}):
        assert not is_local_dev_server(env)


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
        with pytest.raises(AuthConfigError, match=name):
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
        with pytest.raises(AuthConfigError, match="AUTH_TOKENS"):
            cfg(AUTH_TOKENS=value)


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
            with pytest.raises(AuthConfigError, match=f"{name} → {right}"):
                cfg(local_dev=local_dev, **{name: f"{TA}:alice"})
    # The platform's own variables are not ours, and pass.
    assert cfg(LANGGRAPH_AUTH_TYPE="noop", LANGGRAPH_AUTH='{"path": "x"}').dev_mode
