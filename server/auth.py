"""Authentication and ownership for the LangGraph Server (`langgraph.json` → `auth.path`).

The `auth` object both engines load, put together from one module per job:
- settings/auth.py parses and checks the `AUTH_*` variables (auth never opens by accident);
- server/credentials.py resolves a request's bearer token (static or JWT) to its user;
- server/ownership.py holds the handlers: every thread, run, cron, assistant and store item is
  its owner's, with the per-user limits and guests' allowances checked on the way;
- server/log_redaction.py keeps credentials out of the log;
- `python -m commands.check_auth` checks the settings before a start (`make aegra` runs it).
This module loads the settings when the engine imports it, and decides what a refused
configuration does.

Auth never opens by accident. Dev mode (every request accepted, the client's `metadata.user_id`
kept) needs no `AUTH_*` variable at all *and* the local in-memory `langgraph dev` server — or an
explicit `AUTH_DEV_MODE=true` — and refuses a state folder that holds threads created with auth.
Anything else that could leave the server open fails the start with a message naming the
variable (settings/auth.py lists what), and so does a refused guest setting (settings/guests.py),
since the handlers here serve guests too.

Fail closed on every engine. `langgraph dev` and LangGraph Server refuse to start when this module
raises at import, so there a refused configuration raises. Aegra instead logs the error and serves
every request as one shared `anonymous` user; so everywhere else the module never raises: the
`auth` object always exists, and with a refused configuration it refuses every request (503, which
Aegra answers as 401) with the message naming the variable. Every module imported here is
import-safe for the same reason (none reads a setting that can fail while being imported).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from langgraph_sdk import Auth

from server import guest, ownership, report_access
from server.credentials import (
    authorization_header,
    refuse_credentials_in_url,
    resolve_user,
)
from server.log_redaction import install_log_redaction
from settings import Settings, current
from settings.auth import AuthConfig, AuthConfigError
from settings.engine import is_local_dev_server
from settings.values import SettingError

log = logging.getLogger(__name__)

# Where the in-memory dev server keeps its state (relative to its working directory), and the
# file that marks a state folder as written with auth on.
DEV_STATE_DIR = Path(".langgraph_api")
AUTH_MARKER = ".docs_agent_auth_on"


def check_dev_state(config: AuthConfig, state_dir: Path = DEV_STATE_DIR) -> None:
    """Keep data created under auth away from anonymous callers of a dev-mode restart.

    With auth on, the state folder of the in-memory server is marked; dev mode refuses to start
    on a marked folder (it would serve those users' threads and memories to anyone).
    """
    marker = state_dir / AUTH_MARKER
    if config.dev_mode:
        if marker.exists():
            raise AuthConfigError(
                f"{state_dir}/ holds threads created with auth on; dev mode would serve them to "
                f"anyone. Configure the same AUTH_* settings, or move {state_dir}/ away."
            )
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    marker.write_text("Threads in this folder were created with auth on; see server/auth.py.\n")


def load_config(env: Mapping[str, str] | None = None) -> AuthConfig:
    """The server's auth settings, checked as a start checks them (the dev state folder too).

    The guests section is checked here as well: the handlers serve guests, and a guest setting
    refused while server/guest.py was imported (which never raises) must still stop the server.
    """
    settings = current() if env is None else Settings(env)
    config = settings.auth
    settings.guests  # noqa: B018 - parsed for its errors (see above)
    if is_local_dev_server(settings.reader.env):
        check_dev_state(config)
    return config


def engine_refuses_failed_auth() -> bool:
    """True when the module is loaded by langgraph-api (`langgraph dev`, LangGraph Server).

    Its loader (`langgraph_api.auth.custom`, already imported when it loads us) lets an import
    error stop the start. Aegra's loader catches it and serves everyone as `anonymous`, and an
    unknown engine may do the same: there the module must not raise (see `refusal`).
    """
    return "langgraph_api.auth.custom" in sys.modules


def refusal_message(exc: BaseException) -> str:
    """What every request is told when the configuration was refused (no secret in it).

    A SettingError (AuthConfigError, GuestConfigError) names the variable and never quotes a
    secret; any other error's text may hold anything, so callers get its type and the log gets
    the rest.
    """
    reason = (
        str(exc)
        if isinstance(exc, SettingError)
        else f"{type(exc).__name__} while reading the auth settings (details in the server log)."
    )
    return (
        f"This server's auth configuration was refused, so it serves no request: {reason} "
        "Fix the setting and restart (check with `python -m commands.check_auth`)."
    )


def _log_mode(config: AuthConfig) -> None:
    if config.dev_mode:
        log.warning(
            "docs-agent auth: DEV MODE — no AUTH_TOKENS, AUTH_JWT_SECRET or AUTH_JWKS_URL set; "
            "every request is accepted and metadata.user_id is trusted as sent. Never expose "
            "this server."
        )
    else:
        log.warning(
            "docs-agent auth: on (%s); threads, runs and store are owner-scoped",
            config.describe(),
        )


CONFIG: AuthConfig | None = None
REFUSAL: str | None = "server/auth.py is run as a program: it serves no request"
"""Set when the configuration was refused: every request is then refused with this message."""
if __name__ != "__main__":  # run as a program it only points to the check (see the end)
    try:
        CONFIG, REFUSAL = load_config(), None
        _log_mode(CONFIG)
    except Exception as exc:  # any failure: never an auth object that lets requests through
        if engine_refuses_failed_auth():
            raise
        CONFIG, REFUSAL = None, refusal_message(exc)
        trace = None if isinstance(exc, SettingError) else exc
        log.error("docs-agent auth: REFUSING EVERY REQUEST. %s", REFUSAL, exc_info=trace)

auth = Auth()


@auth.authenticate
async def authenticate(
    headers: Mapping[Any, Any] | None, query_params: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Server hook: resolve the caller from the request's `Authorization` header.

    langgraph-api passes `query_params` by name; Aegra passes the headers alone (its access log is
    redacted instead, see `install_log_redaction`).
    """
    if CONFIG is None:
        # 503 where the engine keeps the status (Aegra answers every auth error as 401).
        raise Auth.exceptions.HTTPException(status_code=503, detail=REFUSAL)
    refuse_credentials_in_url(query_params)
    # A guest token (only when guest mode is on, server/guest.py), else the configured users.
    user = guest.authenticate_guest(authorization_header(headers))
    user = user or await resolve_user(authorization_header(headers), CONFIG)
    return report_access.with_report_scope(user)


# The handlers (server/ownership.py): one global handler for threads, runs and crons, and one
# each for assistants and the store, which the global one would otherwise hide (docs/auth.md).
auth.on(ownership.owner_only)
auth.on.assistants(ownership.assistants)
auth.on.store()(ownership.store)

try:
    install_log_redaction()
except Exception:  # logging set-up must never stop the auth object from existing
    log.exception("docs-agent auth: could not install the log redaction")


if __name__ == "__main__":  # the check moved to commands/check_auth.py; this alias says so
    from commands.check_auth import main  # noqa: PLC0415

    print(
        "note: `python -m server.auth --check` is now `python -m commands.check_auth`",
        file=sys.stderr,
    )
    raise SystemExit(main(sys.argv[1:]))
