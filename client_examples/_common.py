"""Shared bits of the client examples: argument parsing and auth headers."""

from __future__ import annotations

import argparse
import os
from typing import Any

from langgraph_sdk import get_client

DEFAULT_URL = os.environ.get("DOCS_AGENT_URL", "http://127.0.0.1:8123")


def base_parser(description: str, question: bool = True) -> argparse.ArgumentParser:
    """--url, --user, --graph, --token (and the question, positional)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--url", default=DEFAULT_URL, help=f"LangGraph server URL (default {DEFAULT_URL})"
    )
    p.add_argument(
        "--user",
        default=os.environ.get("USER_ID", "demo-user"),
        help="user id stored in thread metadata",
    )
    p.add_argument(
        "--graph", default="docs_agent", help="graph / assistant id: docs_agent or deep_agent"
    )
    p.add_argument(
        "--token",
        default=os.environ.get("DOCS_AGENT_TOKEN", ""),
        help="bearer token when the server has auth on",
    )
    if question:
        p.add_argument("question", nargs="+", help="the question to ask")
    return p


def client_for(args: argparse.Namespace) -> Any:
    """An async langgraph-sdk client, with the bearer token when one is given."""
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
    return get_client(url=args.url, headers=headers)
