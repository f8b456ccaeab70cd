"""client_examples/chat.py driven through a pseudo-terminal against a real `langgraph dev`."""

from __future__ import annotations

import asyncio
import re
import sys
import uuid

import pexpect
import pytest
from langgraph_sdk import get_client

from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def _read_until_prompt(child: pexpect.spawn) -> str:
    child.expect("you>", timeout=90)
    return ANSI.sub("", child.before)


def test_chat_streams_feedback_and_numbered_suggestions(server_url: str) -> None:
    user = f"chat-{uuid.uuid4().hex[:6]}"
    child = pexpect.spawn(
        sys.executable,
        [
            str(REPO_ROOT / "client_examples" / "chat.py"),
            "--url",
            server_url,
            "--user",
            user,
            "--new",
        ],
        cwd=str(REPO_ROOT),
        encoding="utf-8",
        dimensions=(50, 140),
        timeout=90,
        env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )
    try:
        header = _read_until_prompt(child)
        thread_id = re.search(r"new thread ([0-9a-f-]{36})", header).group(1)  # type: ignore[union-attr]

        child.sendline("How do I stream tokens from subgraphs?")
        turn = _read_until_prompt(child)
        feedback_at = turn.find("… Searching the documentation")
        assert feedback_at >= 0, turn[-2000:]
        # Tokens were shown live (transient view) and then the final markdown: the answer's first
        # words appear at least twice, after the progress lines.
        assert turn.count("This is an extractive answer") >= 2, turn[-2000:]
        assert feedback_at < turn.find("This is an extractive answer")
        numbered = re.findall(r"^\s+([1-3])\. (.+)$", turn, re.MULTILINE)
        assert [n for n, _ in numbered] == ["1", "2", "3"][: len(numbered)] and numbered, turn[
            -1500:
        ]

        child.sendline("1")
        second = _read_until_prompt(child)
        sent = re.search(r"→ (.+)", second).group(1).strip()  # type: ignore[union-attr]
        # A follow-up reads as the next question a user asks, not a bare heading.
        assert sent.endswith("?") and len(sent.split()) >= 3, sent
        child.sendline("/quit")
        child.expect(pexpect.EOF, timeout=20)
    finally:
        child.close(force=True)

    state = asyncio.run(get_client(url=server_url).threads.get_state(thread_id))
    humans = [m["content"] for m in state["values"]["messages"] if m["type"] == "human"]
    assert humans[0] == "How do I stream tokens from subgraphs?"
    assert humans[1].startswith(sent[:40])
