"""This project on Aegra + PostgreSQL + Redis, through langgraph-sdk: the scale-out path of docs/deploy.md.

PostgreSQL and Redis are started by the `aegra_services` fixture (temporary data, free ports);
each stack below gets its own database and Redis db. Checked here: both graphs stream with subgraphs
(the `langgraph dev` tests, reused on Aegra); two server processes serve and join the same thread;
a short checkpointer TTL deletes a thread and its checkpoints within two sweeps; a server killed
with SIGKILL mid-run comes back with the finished turn intact and the cut run finished or clearly
failed; threads and memories move from `langgraph dev` to Aegra. Ownership across users and memory isolation run in test_auth_e2e.py (parametrised on Aegra).
Fail closed: Aegra started with a refused auth configuration serves nobody, on any route (Aegra
itself would serve everyone as `anonymous`); `make aegra` (commands/local_stack.py) refuses to
start it, and stopping `make aegra` with SIGTERM leaves no Aegra process serving.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client

from commands.local_stack import psql
from testing.fake_openai import FakeOpenAI, Step
from testing.servers import AegraServices, AegraStack, free_port, langgraph_dev, offline_env
from tests.conftest import REPO_ROOT
from tests.e2e.test_deep_agent_e2e import (
    test_researchers_stream_in_their_own_namespaces_and_citations_verify as test_deep_agent_streams_subgraphs_on_aegra,  # noqa: E501
)
from tests.e2e.test_docs_agent_e2e import (
    test_streamed_answer_cites_existing_page_and_threads_are_per_user as test_docs_agent_streams_and_threads_by_user_on_aegra,  # noqa: E501
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

__all__ = [
    "test_deep_agent_streams_subgraphs_on_aegra",
    "test_docs_agent_streams_and_threads_by_user_on_aegra",
]

TTL_MINUTES = 0.1  # 6 s: the thread TTL and the sweep interval of the TTL stack


@pytest.fixture(scope="module")
def pair(
    aegra_services: AegraServices, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AegraStack]:
    """Two Aegra processes on one database and one Redis."""
    stack = AegraStack(tmp_path_factory.mktemp("aegra-pair"), aegra_services)
    try:
        stack.start()
        stack.start()
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="module")
def server_url(pair: AegraStack) -> str:
    """The reused `langgraph dev` tests run against the first Aegra process."""
    return pair.processes[0].url


def _run_body(question: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": question}]}


def _check_history(messages: list[dict[str, Any]], questions: list[str]) -> None:
    """Every question once, in order, each followed by one final answer; no duplicated ids."""
    assert [m["content"] for m in messages if m["type"] == "human"] == questions
    finals = [m for m in messages if m["type"] == "ai" and not m.get("tool_calls")]
    assert len(finals) == len(questions), [m["content"][:80] for m in finals]
    assert len({m["id"] for m in messages}) == len(messages), "duplicated message ids"


async def test_two_processes_serve_and_join_the_same_thread(pair: AegraStack) -> None:
    one, two = (get_client(url=p.url) for p in pair.processes)
    thread = await one.threads.create(metadata={"user_id": "pair-user"})
    tid = thread["thread_id"]
    q1, q2 = "How do I install docs-agent?", "How do I stream tokens from subgraphs?"
    await one.runs.wait(tid, "docs_agent", input=_run_body(q1))
    # Turn 2 is queued through process two; process one joins its stream. A Last-Event-ID
    # that names no event replays the run's events from Redis first, so the join sees them
    # all even when the (fast, offline) run finished before the join began: without it a
    # finished run streams only `end`, which made this test depend on the machine's load.
    run = await two.runs.create(
        tid, "docs_agent", input=_run_body(q2), stream_mode=["values", "messages-tuple"]
    )
    joined = one.runs.join_stream(tid, run["run_id"], last_event_id="replay-from-start")
    events = [part.event async for part in joined]
    assert "values" in events and any(e.startswith("messages") for e in events), events[:20]
    assert (await two.runs.get(tid, run["run_id"]))["status"] == "success"
    state_one = await one.threads.get_state(tid)
    state_two = await two.threads.get_state(tid)
    assert state_one["checkpoint"] == state_two["checkpoint"]
    _check_history(state_one["values"]["messages"], [q1, q2])
    found = await two.threads.search(metadata={"user_id": "pair-user"})
    assert [t["thread_id"] for t in found] == [tid]


@pytest.fixture(scope="module")
def ttl_stack(
    aegra_services: AegraServices, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AegraStack]:
    """One Aegra process whose langgraph.json TTL is 6 s with a 6 s sweep."""

    def short_ttl(config: dict[str, Any]) -> None:
        config["checkpointer"]["ttl"] = {
            "strategy": "delete",
            "default_ttl": TTL_MINUTES,
            "sweep_interval_minutes": TTL_MINUTES,
        }

    stack = AegraStack(tmp_path_factory.mktemp("aegra-ttl"), aegra_services, config_edit=short_ttl)
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()


def test_checkpointer_ttl_deletes_thread_and_checkpoints(ttl_stack: AegraStack) -> None:
    url, db = ttl_stack.processes[0].url, ttl_stack.database_url
    with httpx.Client(base_url=url, timeout=60) as c:
        tid = c.post("/threads", json={}).raise_for_status().json()["thread_id"]
        c.post(
            f"/threads/{tid}/runs/wait",
            json={"assistant_id": "docs_agent", "input": _run_body("How do I open Studio?")},
        ).raise_for_status()
        checkpoints_sql = f"SELECT count(*) FROM checkpoints WHERE thread_id = '{tid}'"
        assert int(psql(db, checkpoints_sql)) > 0
        expires = float(
            psql(
                db,
                f"SELECT extract(epoch FROM expires_at) FROM thread_ttl WHERE thread_id = '{tid}'",
            )
        )
        sweep_s = TTL_MINUTES * 60
        deadline = expires + 2 * sweep_s + 5  # two sweeps after expiry, plus start-up slack
        gone_at = None
        while time.time() < deadline:
            if c.get(f"/threads/{tid}").status_code == 404 and int(psql(db, checkpoints_sql)) == 0:
                gone_at = time.time()
                break
            time.sleep(0.5)
    assert gone_at is not None, f"thread {tid} still there {2 * sweep_s:.0f} s after it expired"
    print(
        f"\nTTL: thread and checkpoints gone {gone_at - expires:.1f} s after expiry (sweep {sweep_s:.0f} s)"
    )


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


async def test_sigkill_mid_run_keeps_finished_turns_and_resolves_the_cut_run(
    aegra_services: AegraServices, tmp_path: Path, fake: FakeOpenAI
) -> None:
    env = {
        "OPENAI_API_KEY": "test",
        "OPENAI_BASE_URL": fake.base_url,
        "DOCS_AGENT_MODEL": "openai:e2e-kill",
        "DOCS_AGENT_NUM_SUGGESTIONS": "0",
        "DOCS_AGENT_MEMORY": "false",
        "DOCS_AGENT_CODE_ROOTS": "",
        # A dead worker's lease runs out in seconds (defaults: 30 s lease, 15 s reaper).
        "LEASE_DURATION_SECONDS": "4",
        "HEARTBEAT_INTERVAL_SECONDS": "1",
        "REAPER_INTERVAL_SECONDS": "2",
    }
    stack = AegraStack(tmp_path, aegra_services, env)
    try:
        first = stack.start()
        client = get_client(url=first.url)
        tid = (await client.threads.create(metadata={"user_id": "kill-user"}))["thread_id"]
        q1, q2, q3 = "How do I install docs-agent?", "How do I open Studio?", "How do I run tests?"
        await client.runs.wait(tid, "docs_agent", input=_run_body(q1))
        turn1 = [
            (m["id"], m["content"])
            for m in (await client.threads.get_state(tid))["values"]["messages"]
        ]
        fake.script("e2e-stall", [Step("slow", delay=60)])
        cut = await client.runs.create(
            tid, "docs_agent", input=_run_body(q2), context={"model": "openai:e2e-stall"}
        )
        for _ in range(200):  # until the run is inside the stalled model call
            if fake.requests_for("e2e-stall"):
                break
            await asyncio.sleep(0.1)
        assert fake.requests_for("e2e-stall"), "the run never reached the model"
        first.kill()

        restarted = time.monotonic()
        second = stack.start()
        client = get_client(url=second.url, timeout=httpx.Timeout(120))
        await asyncio.wait_for(client.runs.join(tid, cut["run_id"]), 120)
        resolved_s = time.monotonic() - restarted
        status = (await client.runs.get(tid, cut["run_id"]))["status"]
        assert status in ("success", "error"), status  # finished, or clearly failed
        messages = (await client.threads.get_state(tid))["values"]["messages"]
        assert [(m["id"], m["content"]) for m in messages[: len(turn1)]] == turn1
        asked = [q1, q2] if status == "success" else [q1]
        _check_history(messages, asked)
        # The thread takes the next turn.
        await client.runs.wait(tid, "docs_agent", input=_run_body(q3))
        _check_history((await client.threads.get_state(tid))["values"]["messages"], [*asked, q3])
        print(
            f"\nkill -9 mid-run: cut run {status} {resolved_s:.0f} s after the restart began; "
            "turn 1 intact; 0 lost or duplicated messages"
        )
    finally:
        stack.stop()


async def test_threads_and_memories_move_from_langgraph_dev_to_aegra(
    pair: AegraStack, tmp_path: Path
) -> None:
    """client_examples/move_threads.py, the path docs/deploy.md gives for changing homes."""
    user, q1, q2 = "mover", "How do I install docs-agent?", "How do I open Studio?"
    with langgraph_dev(tmp_path) as dev_url:
        src = get_client(url=dev_url)
        tid = (await src.threads.create(metadata={"user_id": user, "topic": "move"}))["thread_id"]
        await src.runs.wait(tid, "docs_agent", input=_run_body(q1))
        await src.store.put_item(["memories", user], "m1", {"text": "prefers short answers"})
        moved = subprocess.run(
            [
                sys.executable,
                str(REPO_ROOT / "client_examples" / "move_threads.py"),
                "--url",
                dev_url,
                "--to",
                pair.processes[0].url,
                "--user",
                user,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        before = (await src.threads.get_state(tid))["values"]["messages"]
    assert f"{tid}: {len(before)} messages" in moved and "memories: 1" in moved
    dst = get_client(url=pair.processes[0].url)
    state = await dst.threads.get_state(tid)
    assert state["next"] == []
    assert [(m["id"], m["content"]) for m in state["values"]["messages"]] == [
        (m["id"], m["content"]) for m in before
    ]
    assert [t["thread_id"] for t in await dst.threads.search(metadata={"user_id": user})] == [tid]
    await dst.runs.wait(tid, "docs_agent", input=_run_body(q2))
    _check_history((await dst.threads.get_state(tid))["values"]["messages"], [q1, q2])
    item = await dst.store.get_item(["memories", user], "m1")
    assert item["value"] == {"text": "prefers short answers"}


GOOD_TOKEN = "tok-aegra-5c2e9f7b1d"
REFUSED_CONFIGS: dict[str, tuple[dict[str, str], str | None]] = {
    "a token under 16 characters": ({"AUTH_TOKENS": "short:alice"}, None),
    "a lower-case name in .env": (
        {"AUTH_TOKENS": f"{GOOD_TOKEN}:alice"},
        "auth_tokens=tok-bob-dotenv-3f9a2c:bob\n",
    ),
    "a placeholder token": ({"AUTH_TOKENS": "change-me-long-random-1:alice"}, None),
    "no credentials at all": ({"AUTH_TYPE": "custom"}, None),
}


def _every_route(c: httpx.Client) -> list[tuple[str, int, str]]:
    """One request per resource and action kind; (route, status, body head)."""
    tid, run = str(uuid.uuid4()), {"assistant_id": "docs_agent", "input": _run_body("hi")}
    item = {"namespace": ["memories", "alice"], "key": "k", "value": {"text": "x"}}
    calls = [
        ("POST", "/threads/search", {}),
        ("POST", "/threads", {}),
        ("GET", f"/threads/{tid}", None),
        ("GET", f"/threads/{tid}/state", None),
        ("POST", f"/threads/{tid}/runs/wait", run),
        ("POST", "/runs/wait", run),
        ("POST", "/runs/crons/search", {}),
        ("POST", "/assistants/search", {}),
        ("GET", "/assistants/docs_agent", None),
        ("POST", "/assistants", {"graph_id": "docs_agent"}),
        ("PUT", "/store/items", item),
        ("GET", "/store/items?namespace=memories.alice&key=k", None),
        ("POST", "/store/items/search", {"namespace_prefix": ["memories"]}),
        ("POST", "/store/namespaces", {}),
        ("DELETE", "/store/items", {"namespace": ["memories", "alice"], "key": "k"}),
    ]
    out = []
    for method, path, body in calls:
        r = c.request(method, path, json=body)
        out.append((f"{method} {path.split('?')[0]}", r.status_code, r.text[:300]))
    return out


def test_a_refused_auth_configuration_serves_nobody(
    aegra_services: AegraServices, tmp_path: Path
) -> None:
    served: list[tuple[str, str, int]] = []  # not refused with the configuration's message
    tried = answered = 0
    for i, (name, (env, dotenv)) in enumerate(REFUSED_CONFIGS.items()):
        stack = AegraStack(tmp_path / str(i), aegra_services, env)
        if dotenv is not None:
            (stack.workdir / ".env").write_text(dotenv)
        try:
            url = stack.start().url  # Aegra starts (its health check is public) ...
            for headers in ({}, {"Authorization": f"Bearer {GOOD_TOKEN}"}):
                with httpx.Client(base_url=url, headers=headers, timeout=60) as c:
                    for route, status, text in _every_route(c):
                        tried += 1
                        answered += status < 400
                        if status < 400 or "serves no request" not in text:
                            served.append((name, route, status))
        finally:
            stack.stop()
    print(
        f"\nAegra with a refused auth configuration: {answered} of {tried} requests answered"
        f" 2xx/3xx, {len(served)} not refused with the configuration's message"
    )
    assert tried >= 100
    assert not served, served


def _local_stack(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """`make aegra`'s command, on given databases, in its own process group."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "commands.local_stack", "--port", str(port)],
            cwd=REPO_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stack_env(aegra_services: AegraServices, tmp: Path, extra: dict[str, str]) -> dict[str, str]:
    db, redis, queue = aegra_services.new_stack()
    return {
        **offline_env(tmp, {"WORKER_QUEUE_KEY": queue, **extra}),
        "DATABASE_URL": db,
        "REDIS_URL": redis,
    }


def test_make_aegra_refuses_to_start_on_a_refused_configuration(
    aegra_services: AegraServices, tmp_path: Path
) -> None:
    port = free_port()
    env = _stack_env(aegra_services, tmp_path, {"AUTH_TOKENS": "aaaaaaaaaaaaaaaa:alice"})
    proc = _local_stack(env, port, tmp_path / "stack.log")
    assert proc.wait(timeout=120) == 2
    out = (tmp_path / "stack.log").read_text()
    assert "AUTH_TOKENS" in out and "Aegra is not started" in out, out
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)


def test_sigterm_stops_make_aegra_and_its_uvicorn(
    aegra_services: AegraServices, tmp_path: Path
) -> None:
    port = free_port()
    env = _stack_env(aegra_services, tmp_path, {"AUTH_DEV_MODE": "true"})
    proc = _local_stack(env, port, tmp_path / "stack.log")
    url = f"http://127.0.0.1:{port}/health"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "stack.log").read_text()[-3000:]
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        else:
            pytest.fail("make aegra did not become healthy")
        proc.send_signal(signal.SIGTERM)  # as a service manager stops it: this process only
        proc.wait(timeout=60)
        serving = True
        deadline = time.monotonic() + 30
        while serving and time.monotonic() < deadline:
            try:
                httpx.get(url, timeout=2)
                time.sleep(0.5)
            except httpx.HTTPError:
                serving = False
        assert not serving, "Aegra's uvicorn still serves after `make aegra` got SIGTERM"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
