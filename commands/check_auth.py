"""Check the auth settings a server would start with: `python -m commands.check_auth`.

    python -m commands.check_auth --env-file .env        # as Aegra reads them (`make aegra` runs this)
    python -m commands.check_auth --dev --env-file .env  # as `langgraph dev` reads them

Exits 0 when the server would serve (printing which credential sources are on, no secret), 2 when
it would refuse, with the message naming the variable. The `.env` is read with the engine's own
precedence (settings/dotenv.py): Aegra lets the environment win, `langgraph dev` the file, and
only `--dev` allows dev mode with nothing set, as only `langgraph dev` does. The guest settings
are checked too: the auth handlers serve guests, and a refused guest setting refuses the server.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from settings import Settings
from settings.auth import AuthConfig
from settings.dotenv import effective_env
from settings.values import Reader, SettingError


def main(argv: Sequence[str] | None = None) -> int:
    """Check the auth settings a server would start with; 0 when it would serve, 2 when refused."""
    parser = argparse.ArgumentParser(
        prog="python -m commands.check_auth", description="Check docs-agent's auth settings."
    )
    parser.add_argument("--check", action="store_true", help="(the default; kept for old scripts)")
    parser.add_argument(
        "--env-file", type=Path, help="a .env the server reads too (Aegra: the environment wins)"
    )
    parser.add_argument(
        "--dev",
        action="store_true",
        help="check as `langgraph dev` would: the .env wins, dev mode allowed with nothing set",
    )
    args = parser.parse_args(argv)
    env = effective_env(os.environ, args.env_file, file_wins=args.dev)
    try:
        config = AuthConfig.read(Reader(env), local_dev=args.dev)
        Settings(env).guests  # noqa: B018 - parsed for its errors (server/auth.py does the same)
    except SettingError as exc:
        print(f"auth settings refused: {exc}", file=sys.stderr)
        return 2
    print(f"auth settings ok: {config.describe()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
