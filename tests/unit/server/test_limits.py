"""server/limits.py: the size caps and the per-user run limit, without a server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import pytest
from langgraph_sdk import Auth

from server import limits as L
from settings.limits import Limits

SMALL = Limits(max_runs_per_user=2, max_write_chars=1000, max_store_value_chars=100)


def test_text_size_counts_nested_text_and_stops_early() -> None:
    assert L.text_size({"a": ["xy", {"bc": 12}], "n": None}, 10**6) == 1 + 2 + 2 + 2 + 1
    huge = ["x" * 1000] * 10_000
    assert 100 < L.text_size(huge, 100) <= 1100  # stopped after the first string over the limit


def _refused(call: Any, *args: Any) -> Auth.exceptions.HTTPException:
    with pytest.raises(Auth.exceptions.HTTPException) as info:
        call(*args)
    return info.value


@pytest.mark.parametrize(
    "value",
    [
        # langgraph-api: a run's input and resume under `kwargs`.
        {"kwargs": {"input": {"messages": [{"role": "user", "content": "x" * 2000}]}}},
        {"kwargs": {"command": {"resume": "x" * 2000}}},
        # Aegra: the request body, for runs and for update_state.
        {"input": {"messages": [{"content": "x" * 2000}]}},
        {"command": {"resume": {"answer": "x" * 2000}}},
        {"values": {"messages": [{"type": "human", "content": "x" * 2000}]}},
        {"metadata": {"note": "x" * 2000}},
    ],
)
def test_oversized_writes_are_refused_with_413(value: dict[str, Any]) -> None:
    err = _refused(L.check_write, value, SMALL)
    assert err.status_code == 413 and "DOCS_AGENT_MAX_WRITE_CHARS" in str(err.detail)


def test_writes_within_the_cap_pass() -> None:
    L.check_write({"kwargs": {"input": {"messages": [{"content": "How do I install?"}]}}}, SMALL)
    L.check_write({"thread_id": "t" * 5000}, SMALL)  # ids and other fields are not text written
    L.check_write(None, SMALL)


def test_store_values_are_capped() -> None:
    L.check_store_value(
        {"namespace": ("memories", "u"), "key": "k", "value": {"text": "ok"}}, SMALL
    )
    err = _refused(L.check_store_value, {"value": {"text": "x" * 20_000_000}}, SMALL)
    assert err.status_code == 413 and "DOCS_AGENT_MAX_STORE_VALUE_CHARS" in str(err.detail)


class FakeEngine:
    """Runs as an engine records them (user, key, status, created_at); writes lag behind admission.

    `key` is what the engine's records share with the handler's value: the run id on
    `langgraph dev`, the thread on Aegra.
    """

    def __init__(self) -> None:
        self.runs: list[dict[str, Any]] = []
        self.reads = 0

    async def count(self, user: str, asked: Mapping[str, datetime]) -> L.EngineRuns:
        self.reads += 1
        await asyncio.sleep(0)  # the engine is awaited: other requests interleave here
        mine = [r for r in self.runs if r["user"] == user]
        recorded = {
            key: sum(r["key"] == key and r["created_at"] >= since for r in mine)
            for key, since in asked.items()
        }
        return L.EngineRuns(sum(r["status"] in L.ACTIVE for r in mine), recorded)

    def add(self, user: str, key: str, status: str = "pending") -> dict[str, Any]:
        run = {"user": user, "key": key, "status": status, "created_at": datetime.now(UTC)}
        self.runs.append(run)
        return run

    def delete(self, run: dict[str, Any]) -> None:
        """A stateless run's end: the engine deletes it with its temporary thread."""
        self.runs.remove(run)

    @property
    def records(self) -> L.RunRecords:
        return L.RunRecords("fake", self.count, "run_id")


@contextmanager
def in_request() -> Iterator[L.RequestInFlight]:
    """What `RunAdmissionScope` does around one HTTP request, without the ASGI around it."""
    request = L.RequestInFlight()
    token = L._request.set(request)
    try:
        yield request
    finally:
        request.open = False
        L._request.reset(token)


async def _admitted(limiter: L.RunLimiter, user: str, n: int) -> int:
    """Admissions out of `n` parallel requests, each its own HTTP request in flight."""

    async def one(i: int) -> None:
        with in_request():
            await limiter.check(user, f"run-{user}-{i}")
            await asyncio.sleep(0.01)  # the request is still in flight while the others decide

    results = await asyncio.gather(*(one(i) for i in range(n)), return_exceptions=True)
    for r in results:
        assert r is None or (isinstance(r, Auth.exceptions.HTTPException) and r.status_code == 429)
    return sum(r is None for r in results)


async def test_a_burst_is_admitted_up_to_the_limit_before_the_engine_writes_anything() -> None:
    engine = FakeEngine()
    limiter = L.RunLimiter(3, engine.records)
    assert await _admitted(limiter, "mallory", 40) == 3
    assert await _admitted(limiter, "alice", 1) == 1  # another user is not affected


async def test_finished_runs_free_their_place_and_the_message_says_what_to_do() -> None:
    engine = FakeEngine()
    limiter = L.RunLimiter(2, engine.records)
    for i in range(2):
        with in_request():  # `POST /runs`: answered once the run is recorded
            await limiter.check("bob", f"r{i}")
            engine.add("bob", f"r{i}")
    with pytest.raises(Auth.exceptions.HTTPException) as info, in_request():
        await limiter.check("bob", "r2")
    assert info.value.status_code == 429 and info.value.headers == {"Retry-After": "2"}
    assert "You have 2 runs pending or running" in str(info.value.detail)
    assert "limit is 2 per user (DOCS_AGENT_MAX_RUNS_PER_USER)" in str(info.value.detail)
    assert "Wait for one to finish" in str(info.value.detail)
    engine.runs[0]["status"] = "success"
    with in_request():
        await limiter.check("bob", "r3")  # one finished: one more may start


async def test_stateless_runs_free_their_place_as_soon_as_their_request_ends() -> None:
    """MCP `tools/call` and `runs.wait(None, ...)`: the engine deletes the run when it finishes.

    The first version counted such a run until the records showed it, for 15 s: 2 of 20
    sequential calls were answered. Each call now frees its place when its request ends.
    """
    engine = FakeEngine()
    limiter = L.RunLimiter(2, engine.records, clock=lambda: 1_000_000.0)  # no time passes
    for i in range(20):
        with in_request():
            await limiter.check("ide", f"s{i}")
            run = engine.add("ide", f"s{i}", "running")
            run["status"] = "success"
            engine.delete(run)  # finished and deleted while the wait request is still open
            # Until its request ends the admission still counts: one place of two is taken.
            assert limiter._unseen(limiter._live("ide"), await engine.count("ide", {})) == 1
    assert limiter._live("ide") == []


async def test_a_run_in_the_records_and_in_flight_counts_once() -> None:
    engine = FakeEngine()
    limiter = L.RunLimiter(2, engine.records)
    with in_request():  # `runs.wait`: the request stays open while the run runs
        await limiter.check("carol", "w1")
        engine.add("carol", "w1", "running")
        with in_request():  # a second request while the first is in flight
            await limiter.check("carol", "w2")  # 1 run, not 2: admitted
            engine.add("carol", "w2", "running")
            with pytest.raises(Auth.exceptions.HTTPException), in_request():
                await limiter.check("carol", "w3")


async def test_a_run_the_engine_refused_after_the_handler_counts_only_while_its_request_lasts() -> (
    None
):
    """A 409 (thread busy), a guest limit or a missing assistant after the handler: no leak."""
    engine = FakeEngine()
    limiter = L.RunLimiter(1, engine.records, clock=lambda: 1_000_000.0)
    with in_request():
        await limiter.check("dave", "never-written")
        with pytest.raises(Auth.exceptions.HTTPException), in_request():
            await limiter.check("dave", "other")  # while it is in flight it holds the place
    with in_request():
        await limiter.check("dave", "next")  # its request ended: the place is free at once


async def test_a_run_admitted_outside_any_request_counts_for_the_window() -> None:
    """A cron's run has no request to end: it counts until recorded, or for the window."""
    engine = FakeEngine()
    clock = SimpleNamespace(now=1_000_000.0)
    limiter = L.RunLimiter(1, engine.records, clock=lambda: clock.now)
    await limiter.check("erin", "cron-1")  # no request in flight
    with pytest.raises(Auth.exceptions.HTTPException):
        await limiter.check("erin", "cron-2")
    engine.add("erin", "cron-1", "success")  # recorded and finished: it matches, counts 0
    await limiter.check("erin", "cron-3")
    clock.now += L.ADMITTED_WINDOW_S + 1  # cron-3 was never recorded: it stops counting
    await limiter.check("erin", "cron-4")
    assert [a.key for a in limiter._live("erin")] == ["cron-4"]


async def test_runs_on_one_thread_match_by_count_when_the_thread_is_the_key() -> None:
    """Aegra names a run by its thread (it picks the run id after the handler)."""
    engine = FakeEngine()
    limiter = L.RunLimiter(3, engine.records)
    with in_request():
        await limiter.check("fay", "thread-1")
        engine.add("fay", "thread-1", "running")
        with in_request():
            await limiter.check("fay", "thread-1")  # enqueued behind it: 1 recorded, 1 unseen
            assert limiter._unseen(limiter._live("fay"), await engine.count("fay", {})) == 2
            live = limiter._live("fay")
            asked = {"thread-1": datetime.now(UTC) - timedelta(seconds=5)}
            assert limiter._unseen(live, await engine.count("fay", asked)) == 1
            await limiter.check("fay", "thread-2")
            with pytest.raises(Auth.exceptions.HTTPException) as info, in_request():
                await limiter.check("fay", "thread-3")
            assert "You have 3 runs" in str(info.value.detail)


async def test_a_failed_count_refuses_with_503_not_an_open_door() -> None:
    async def broken(user: str, asked: Mapping[str, datetime]) -> L.EngineRuns:
        raise OSError("database unreachable")

    with pytest.raises(Auth.exceptions.HTTPException) as info:
        await L.RunLimiter(2, L.RunRecords("broken", broken, "run_id")).check("u", "r")
    assert info.value.status_code == 503


async def test_no_limit_when_off_or_the_engine_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = FakeEngine()
    assert await _admitted(L.RunLimiter(0, engine.records), "u", 10) == 10
    assert await _admitted(L.RunLimiter(2, None), "u", 10) == 10
    assert engine.reads == 0
    assert L.engine_run_records({"LANGGRAPH_RUNTIME_EDITION": "inmem"}) is L.INMEM_RECORDS
    assert L.INMEM_RECORDS.key_field == "run_id" and L.AEGRA_RECORDS.key_field == "thread_id"
    assert L.engine_run_records({"LANGGRAPH_RUNTIME_EDITION": "postgres"}) is None
    # Resolved on the first run, not at import: the engine imports the auth module first.
    monkeypatch.setattr(L, "_runs", None)
    monkeypatch.setenv("LANGGRAPH_RUNTIME_EDITION", "inmem")
    assert L.run_limiter().records is L.INMEM_RECORDS and L.run_limiter() is L.run_limiter()


async def test_the_scope_middleware_marks_each_request_and_closes_it() -> None:
    seen: list[L.RequestInFlight | None] = []

    async def route(scope: Any, receive: Any, send: Any) -> None:
        seen.append(L._request.get())
        if scope.get("path") == "/mcp":  # langgraph-api's MCP handler: an in-process request
            await middleware({"type": "http", "path": "/runs/wait"}, receive, send)
            assert L._request.get() is seen[0]  # the outer mark is back after the inner one

    middleware = L.RunAdmissionScope(route)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        return None

    await middleware({"type": "http", "path": "/mcp"}, receive, send)
    outer, inner = seen
    assert outer is not None and inner is not None and outer is not inner
    assert not outer.open and not inner.open and L._request.get() is None
    await middleware({"type": "lifespan"}, receive, send)
    assert seen[-1] is None  # not a request: no mark


@pytest.fixture
def inmem_runs() -> Iterator[list[dict[str, Any]]]:
    """The in-memory runtime's own run list (as `langgraph dev` holds it), emptied afterwards."""
    from langgraph_runtime_inmem.database import InMemConnectionProto

    runs: list[dict[str, Any]] = InMemConnectionProto().store["runs"]
    yield runs
    runs.clear()


async def test_inmem_counter_reads_the_owner_status_and_run_id_of_each_run(
    inmem_runs: list[dict[str, Any]],
) -> None:
    now = datetime.now(UTC)

    def run(run_id: str, user: str, status: str, age_s: float) -> dict[str, Any]:
        config = {"configurable": {"langgraph_auth_user_id": user}}
        return {
            "run_id": UUID(run_id),
            "status": status,
            "created_at": now - timedelta(seconds=age_s),
            "kwargs": {"config": config},
        }

    ids = [str(UUID(int=i)) for i in range(5)]
    inmem_runs += [
        run(ids[0], "carol", "running", 60),
        run(ids[1], "carol", "pending", 1),
        run(ids[2], "carol", "success", 0.5),
        run(ids[3], "dave", "pending", 1),
    ]
    since = now - timedelta(seconds=5)
    counted = await L.count_inmem_runs("carol", {ids[1]: since, ids[2]: since, ids[4]: since})
    assert counted == L.EngineRuns(2, {ids[1]: 1, ids[2]: 1, ids[4]: 0})
    assert await L.count_inmem_runs("carol", {ids[3]: since}) == L.EngineRuns(2, {ids[3]: 0})
    assert await L.count_inmem_runs("erin", {}) == L.EngineRuns(0, {})


async def test_thread_hook_applies_the_caps_and_the_run_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = FakeEngine()
    monkeypatch.setattr(L, "LIMITS", SMALL)
    monkeypatch.setattr(L, "_runs", L.RunLimiter(1, engine.records))
    user = SimpleNamespace(identity="mallory")

    def ctx(resource: str, action: str) -> Any:
        return SimpleNamespace(user=user, resource=resource, action=action, permissions=[])

    big = {"values": {"messages": [{"content": "x" * 5000}]}}
    with pytest.raises(Auth.exceptions.HTTPException):
        await L.check_thread_event(ctx("threads", "update"), big)
    await L.check_thread_event(ctx("threads", "read"), big)  # reads are not writes
    with in_request():
        run = {"run_id": UUID(int=7), "thread_id": None, "kwargs": {"input": None}}
        await L.check_thread_event(ctx("threads", "create_run"), run)
        assert [a.key for a in L._runs._live("mallory")] == [str(UUID(int=7))]  # the run's id
        with pytest.raises(Auth.exceptions.HTTPException) as info:
            await L.check_thread_event(ctx("threads", "create_run"), {"kwargs": {"input": None}})
        assert info.value.status_code == 429
    # Dev mode (one identity for every caller): no run limit, the caps still hold.
    await L.check_thread_event(ctx("threads", "create_run"), {}, limit_runs=False)
    with pytest.raises(Auth.exceptions.HTTPException):
        await L.check_thread_event(ctx("threads", "create_run"), big, limit_runs=False)
    with pytest.raises(Auth.exceptions.HTTPException):
        L.check_store_event(ctx("store", "put"), {"value": {"text": "x" * 500}})
    L.check_store_event(ctx("store", "get"), {"value": None})


read: list[bytes] = []


async def _app(scope: Any, receive: Any, send: Any) -> None:
    """A route that reads its whole body, then answers 200."""
    while True:
        message = await receive()
        read.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


async def _serve(
    middleware: L.RequestSizeLimit, body_chunks: list[bytes], headers: list[tuple[bytes, bytes]]
) -> tuple[int, bytes, list[bytes]]:
    """(status, response body, what the app read) for one request through the middleware."""
    chunks = [
        {"type": "http.request", "body": c, "more_body": i < len(body_chunks) - 1}
        for i, c in enumerate(body_chunks)
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return chunks.pop(0) if chunks else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "PUT", "path": "/store/items", "headers": headers}
    await middleware(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, read


async def test_request_size_limit_refuses_before_the_app_reads_the_body() -> None:
    read.clear()
    middleware = L.RequestSizeLimit(_app, max_bytes=100)
    status, body, seen = await _serve(middleware, [b"x" * 101], [(b"content-length", b"101")])
    assert status == 413 and b"DOCS_AGENT_MAX_REQUEST_BYTES" in body and seen == []
    # No Content-Length (chunked): cut as soon as the count passes the limit.
    status, body, seen = await _serve(middleware, [b"x" * 60, b"x" * 60, b"x" * 60], [])
    assert status == 413 and seen == [b"x" * 60]
    # Within the limit, the request goes through untouched.
    status, body, seen = await _serve(
        middleware, [b"x" * 50, b"y" * 50], [(b"content-length", b"100")]
    )
    assert status == 200 and body == b"ok" and b"".join(seen[-2:]) == b"x" * 50 + b"y" * 50


async def test_an_oversized_declared_body_is_drained_unread_so_the_client_sees_the_413() -> None:
    read.clear()
    pending = [{"type": "http.request", "body": b"x" * 100, "more_body": i < 4} for i in range(5)]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return pending.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [(b"content-length", b"500")]}
    await L.RequestSizeLimit(_app, max_bytes=100)(scope, receive, send)
    assert sent[0]["status"] == 413 and read == []  # the app never saw a byte
    assert pending == []  # the body was read to its end (and dropped) before the answer


async def test_a_run_on_another_users_thread_takes_no_place_on_langgraph_dev(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """langgraph-api calls the handler before its owner check (then 404): no place is taken."""
    from langgraph_runtime_inmem.database import InMemConnectionProto

    threads: list[dict[str, Any]] = InMemConnectionProto().store["threads"]
    threads.append({"thread_id": "t-alice", "metadata": {"user_id": "alice"}})
    threads.append({"thread_id": "t-bob", "metadata": {"user_id": "bob"}})
    try:
        assert await L.inmem_thread_of_another("bob", "t-alice")
        assert not await L.inmem_thread_of_another("bob", "t-bob")
        assert not await L.inmem_thread_of_another("bob", "t-unknown")
        engine = FakeEngine()
        limiter = L.RunLimiter(1, L.RunRecords(L.INMEM_RECORDS.engine, engine.count, "run_id"))
        monkeypatch.setattr(L, "_runs", limiter)
        monkeypatch.setattr(L, "LIMITS", SMALL)
        bob = SimpleNamespace(
            user=SimpleNamespace(identity="bob"), resource="threads", action="create_run"
        )
        for _ in range(3):  # refused by the engine afterwards: never counted
            await L.check_thread_event(bob, {"thread_id": "t-alice"})  # type: ignore[arg-type]
        await L.check_thread_event(bob, {"thread_id": "t-bob"})  # type: ignore[arg-type]
        with pytest.raises(Auth.exceptions.HTTPException):
            await L.check_thread_event(bob, {"thread_id": "t-bob"})  # type: ignore[arg-type]
    finally:
        threads.clear()
