"""Shared cases of the auth tests: a JWT secret and signer, configs, tokens, handler contexts."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jwt
from langgraph_sdk import Auth

from server.identity import DEV_PERMISSION
from settings.auth import AuthConfig

SECRET = "unit-secret-0123456789-0123456789-abcdef"
AUD = "docs-agent"
ISS = "https://login.example.com/"
JWT_ENV = {"AUTH_JWT_SECRET": SECRET, "AUTH_JWT_AUDIENCE": AUD, "AUTH_JWT_ISSUER": ISS}
TA, TB = "tok-alice-0123456789", "tok-bob-0123456789ab"
JWKS = "https://login.example.com/.well-known/jwks.json"
REPO = Path(__file__).resolve().parents[3]


def hs256(**claims: Any) -> str:
    base = {"sub": "carol", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600}
    base.update(claims)
    return jwt.encode({k: v for k, v in base.items() if v is not None}, SECRET, algorithm="HS256")


def cfg(local_dev: bool = True, **env: str) -> AuthConfig:
    return AuthConfig.from_env(env, local_dev=local_dev)


def ctx(identity: str, resource: str, action: str, dev: bool = False) -> Auth.types.AuthContext:
    user = SimpleNamespace(identity=identity, is_authenticated=True, display_name=identity)
    perms = [DEV_PERMISSION] if dev else ["authenticated"]
    return Auth.types.AuthContext(permissions=perms, user=user, resource=resource, action=action)  # type: ignore[arg-type]
