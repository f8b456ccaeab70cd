"""No user slows another: the size caps and the per-user run limit, attacked through a real server.

Both engines (`langgraph dev` and Aegra on PostgreSQL + Redis), auth on with two users. The
attacks of issue 22: text written into a thread around the run input (a huge run input, resume
value, `threads.update_state` message, with an injected tool call), a 20 MB store value, and one
user queueing run after run. A body over the request limit is refused before anything reads it,
text over the write cap by the auth handler where the engine shows it the payload (413); what
gets past both is cut by the graph before any model or tool reads it. The run limit answers 429 with a message, leaves the other user alone
and frees a place when a run ends. The dev server's log must hold no blocking-call error.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(420)]

TOKEN_A, TOKEN_B = "tok-mallory-fair-7c1e93a0", "tok-alice-fair-2b84d6f1"
MAX_RUNS = 3
ENV = {
    "AUTH_TOKENS": f"{TOKEN_A}:mallory,{TOKEN_B}:alice",
    "DOCS_AGENT_MAX_RUNS_PER_USER": str(MAX_RUNS),
    "DOCS_AGENT_NUM_SUGGESTIONS": "0",
}
SLOW_GRAPH = str(Path(__file__).with_name("slow_graph.py")) + ":graph"
MB = 1_000_000


@dataclass
class Server:
    """A running server of one engine, and its log."""

    engine: str
    url: str
    log: Path


@pytest.fixture(scope="module", params=["langgraph-dev", "aegra"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"fair-{request.param}")
    graphs = {"slow": SLOW_GRAPH}
    if request.param == "aegra":
        stack = e2e.AegraStack(tmp, request.getfixturevalue("aegra_services"), ENV, graphs)
        try:
            process = stack.start()
            yield Server("aegra", process.url, process.log)
        finally:
            stack.stop()
    else:
        with e2e.langgraph_dev(tmp, extra_env=ENV, graphs=graphs) as url:
            yield Server("dev", url, tmp / "server" / "server.log")


def client(server: Server, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=120
    )


def new_thread(c: httpx.Client) -> str:
    return str(c.post("/threads", json={}).raise_for_status().json()["thread_id"])


def ask(
    c: httpx.Client, thread_id: str, text: str | None, graph: str = "docs_agent"
) -> dict[str, Any]:
    """One run to its end; the thread's values."""
    body: dict[str, Any] = {"assistant_id": graph}
    if text is None:
        # Continue from the thread's latest checkpoint (its pending tool calls run first); Aegra
        # needs the checkpoint named to run without input.
        state = c.get(f"/threads/{thread_id}/state").raise_for_status().json()
        body.update(input=None, checkpoint_id=state["checkpoint"]["checkpoint_id"])
    else:
        body["input"] = {"messages": [{"role": "user", "content": text}]}
    r = c.post(f"/threads/{thread_id}/runs/wait", json=body)
    r.raise_for_status()
    return dict(r.json())


def refused(r: httpx.Response, status: int, variable: str) -> bool:
    return r.status_code == status and variable in r.text


def injected_call(name: str) -> dict[str, Any]:
    return {"name": name, "args": {"feedback_to_user": ""}, "id": "inj-1", "type": "tool_call"}


def test_text_around_the_input_is_capped(server: Server) -> None:
    a = client(server, TOKEN_A)
    tid = new_thread(a)
    ask(a, tid, "How do I install the server?")  # the thread now belongs to a graph

    # A megabyte in any write is refused before anything reads it (the body limit), and text
    # over the write cap in a smaller body is refused by the auth handler: run input, resume,
    # a stateless run, on both engines.
    over = "x" * 100_000  # 100 kB: under the body limit, over DOCS_AGENT_MAX_WRITE_CHARS
    for text, variable in (
        ("x" * MB, "DOCS_AGENT_MAX_REQUEST_BYTES"),
        (over, "DOCS_AGENT_MAX_WRITE_CHARS"),
    ):
        message = {"messages": [{"role": "user", "content": text}]}
        attempts = [
            (f"/threads/{tid}/runs/wait", {"assistant_id": "docs_agent", "input": message}),
            (f"/threads/{tid}/runs", {"assistant_id": "docs_agent", "command": {"resume": text}}),
            ("/runs/wait", {"assistant_id": "docs_agent", "input": message}),
        ]
        for path, body in attempts:
            r = a.post(path, json=body)
            assert refused(r, 413, variable), (path, r.status_code, r.text[:300])

    # A 1 MB question written through update_state with an injected tool call (the issue's
    # attack) is refused at the door on both engines; Aegra's handler also sees 100 kB of values
    # (langgraph-api's is not shown them). Under those caps but over the question's, the graph
    # cuts the question before any model reads it and ends the turn with the limit.
    values = {
        "messages": [
            {"type": "human", "content": "x " * (MB // 2)},
            {"type": "ai", "content": "", "tool_calls": [injected_call("list_memories")]},
        ]
    }
    r = a.post(f"/threads/{tid}/state", json={"values": values, "as_node": "model"})
    assert refused(r, 413, "DOCS_AGENT_MAX_REQUEST_BYTES"), (r.status_code, r.text[:300])
    if server.engine == "aegra":
        values["messages"][0]["content"] = over
        r = a.post(f"/threads/{tid}/state", json={"values": values, "as_node": "model"})
        assert refused(r, 413, "DOCS_AGENT_MAX_WRITE_CHARS"), (r.status_code, r.text[:300])
    values["messages"][0]["content"] = "x " * 15_000
    r = a.post(f"/threads/{tid}/state", json={"values": values, "as_node": "model"})
    assert r.status_code == 200, r.text[:300]
    out = ask(a, tid, None)
    assert "limit is 16,000" in out["messages"][-1]["content"]
    stored = a.get(f"/threads/{tid}/state").raise_for_status().json()["values"]["messages"]
    assert max(len(str(m["content"])) for m in stored if m["type"] == "human") < 2200
    assert sum(len(str(m["content"])) for m in stored) < 20_000  # the 30,000 characters are cut

    # The same injected call with a plain question: the turn searches on a later step and
    # answers with citations (the step that blocked the event loop before).
    values["messages"][0]["content"] = "How do I stream tokens from subgraphs?"
    a.post(f"/threads/{tid}/state", json={"values": values, "as_node": "model"}).raise_for_status()
    answer = ask(a, tid, None)["messages"][-1]["content"]
    assert answer.startswith("_This is an extractive answer") and "docs/" in answer


def test_store_values_are_capped(server: Server) -> None:
    a = client(server, TOKEN_A)
    item = {"namespace": ["memories", "mallory"], "key": "big"}
    r = a.put("/store/items", json={**item, "value": {"text": "x" * (20 * MB)}})
    assert refused(r, 413, "DOCS_AGENT_MAX_REQUEST_BYTES"), (r.status_code, r.text[:300])
    r = a.put("/store/items", json={**item, "value": {"text": "x" * 10_000}})
    assert refused(r, 413, "DOCS_AGENT_MAX_STORE_VALUE_CHARS"), (r.status_code, r.text[:300])
    ok = a.put("/store/items", json={**item, "key": "small", "value": {"text": "prefers uv"}})
    assert ok.status_code in (200, 204), ok.text
    got = a.get("/store/items", params={"namespace": "memories.mallory", "key": "big"})
    # Nothing of the refused value was written (dev answers a missing item with null, Aegra 404).
    assert got.status_code == 404 or got.json() is None, got.text[:200]


def _active(c: httpx.Client, runs: list[tuple[str, str]]) -> int:
    return sum(
        c.get(f"/threads/{t}/runs/{r}").json()["status"] in ("pending", "running") for t, r in runs
    )


def test_one_user_cannot_queue_more_than_the_limit(server: Server) -> None:
    a, b = client(server, TOKEN_A), client(server, TOKEN_B)
    body = {"assistant_id": "slow", "input": {"messages": [{"role": "user", "content": "30"}]}}
    admitted: list[tuple[str, str]] = []
    refusals: list[httpx.Response] = []
    # 40 at once (the attack): more than the engine's connection pool holds (Aegra: 30).
    threads = [new_thread(a) for _ in range(40)]
    with ThreadPoolExecutor(max_workers=40) as pool:
        answers = list(pool.map(lambda t: (t, a.post(f"/threads/{t}/runs", json=body)), threads))
    for tid, r in answers:
        if r.status_code == 200:
            admitted.append((tid, r.json()["run_id"]))
        else:
            refusals.append(r)
    # Exactly the limit on both engines: admissions still in flight and the engine's records are
    # matched by key (run id, or thread id on Aegra), so a burst can no longer slip one past.
    assert len(admitted) == MAX_RUNS, [(r.status_code, r.text[:100]) for r in refusals][:3]
    assert all(refused(r, 429, "DOCS_AGENT_MAX_RUNS_PER_USER") for r in refusals), [
        (r.status_code, r.text[:200]) for r in refusals
    ]
    assert "Wait for one to finish" in refusals[0].text
    # Stateless runs count the same.
    r = a.post("/runs", json=body)
    assert refused(r, 429, "DOCS_AGENT_MAX_RUNS_PER_USER"), r.text[:200]

    # The other user is not limited by it.
    tb = new_thread(b)
    rb = b.post(
        f"/threads/{tb}/runs",
        json={**body, "input": {"messages": [{"role": "user", "content": "0"}]}},
    )
    assert rb.status_code == 200, rb.text[:200]

    # A cancelled run frees its place.
    tid, run_id = admitted.pop(0)
    a.post(f"/threads/{tid}/runs/{run_id}/cancel").raise_for_status()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _active(a, [(tid, run_id)]):
        time.sleep(0.5)
    tid = new_thread(a)
    r = a.post(
        f"/threads/{tid}/runs",
        json={**body, "input": {"messages": [{"role": "user", "content": "0"}]}},
    )
    assert r.status_code == 200, r.text[:200]
    admitted.append((tid, r.json()["run_id"]))
    for t, run in admitted:
        a.post(f"/threads/{t}/runs/{run}/cancel")


def test_dev_server_logged_no_blocking_call(server: Server) -> None:
    """Last in the module: the attacks above ran on this server; `langgraph dev` flags blocking."""
    if server.engine != "dev":
        pytest.skip("only `langgraph dev` runs the blocking-call detector")
    log = server.log.read_text(errors="replace")
    assert "Created run" in log or "run_id" in log  # the log is the server's
    assert log.count("Blocking call") == 0, log[log.find("Blocking call") - 2000 :][:4000]
