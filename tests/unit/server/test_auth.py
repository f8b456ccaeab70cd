"""server/auth.py: the module engines load fails closed on both engines; the dev state folder; the hook."""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any
from unittest import mock

import pytest
from langgraph_sdk import Auth

from server.credentials import DEV_IDENTITY
from settings import current
from settings.auth import AuthConfigError
from tests.unit.server.auth_cases import (
    REPO,
    TA,
    cfg,
)

# Importing the module checks the process's own auth settings, as a server start does: outside
# `langgraph dev` that needs credentials or the explicit opt-in. Tests build their own configs.
with mock.patch.dict(os.environ, {"AUTH_DEV_MODE": "true"}):
    from server import auth as A


def test_dev_mode_refuses_a_state_folder_written_with_auth(tmp_path: Any) -> None:
    state = tmp_path / ".langgraph_api"
    A.check_dev_state(cfg(), state)  # fresh folder: dev mode is fine
    A.check_dev_state(cfg(AUTH_TOKENS=f"{TA}:alice"), state)  # auth on marks it
    assert (state / A.AUTH_MARKER).exists()
    with pytest.raises(AuthConfigError, match="created with auth on"):
        A.check_dev_state(cfg(), state)
    A.check_dev_state(cfg(AUTH_TOKENS=f"{TA}:alice"), state)  # auth again: fine


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
    current.cache_clear()  # an engine loads the module in a fresh process: settings read afresh
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


async def test_credentials_in_the_url_are_refused() -> None:
    for params in ({"token": "x"}, {"access_token": "x"}, {"JWT": "x"}):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await A.authenticate({}, params)
        assert exc.value.status_code == 401 and "Authorization: Bearer" in str(exc.value.detail)
    assert (await A.authenticate({}, {"limit": "5"}))["identity"] == DEV_IDENTITY


@pytest.mark.parametrize(
    "env",
    [
        {"AUTH_DEV_MODE": "true", "DOCS_AGENT_GUESTS": "true"},  # on without a secret
        {"AUTH_DEV_MODE": "true", "DOCS_AGENT_GUESTS": "enabled"},  # not a flag
        {"AUTH_DEV_MODE": "maybe"},
    ],
)
async def test_a_refused_guest_or_flag_setting_refuses_every_request_and_names_it(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
) -> None:
    # server/guest.py is imported by this module and must not fail its import (Aegra would then
    # serve everyone as `anonymous`): the refusal comes from the auth module's own load instead.
    module = _load_auth_module(monkeypatch, env, under_langgraph_api=False)
    assert isinstance(module.auth, Auth) and module.CONFIG is None
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await module.authenticate({"Authorization": f"Bearer {TA}"})
    assert exc.value.status_code == 503
    assert sorted(env)[-1] in str(exc.value.detail)  # the variable refused is named
    with pytest.raises(ValueError, match=sorted(env)[-1]):
        _load_auth_module(monkeypatch, env, under_langgraph_api=True)
