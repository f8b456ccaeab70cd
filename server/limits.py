"""Per-user limits at the server's door, so one signed-in user cannot slow the others down.

Called from the auth handlers of `server/auth.py` (they see every write before the engine acts):
- `check_write`: the text a request writes into a thread — run input, a resume
  (`Command(resume=...)`), `threads.update_state` values, metadata — is at most
  `DOCS_AGENT_MAX_WRITE_CHARS` characters; more answers 413. Below that, the graph cuts an
  oversized message the way it cuts an oversized question (`graphs/middleware/guardrails.py`),
  which also covers `update_state` on `langgraph dev`, whose handler is not shown the values.
- `check_store_value`: a store item's value is at most `DOCS_AGENT_MAX_STORE_VALUE_CHARS`
  (the memory tool keeps records of 1,000 characters); more answers 413.
- `RequestSizeLimit` (an ASGI middleware of `server/app.py`, over every route of both engines):
  a request body over `DOCS_AGENT_MAX_REQUEST_BYTES` answers 413 before anything reads it. The
  handlers only see a body the engine has already parsed: with the store-value cap alone,
  back-to-back 20 MB writes (each refused) made another user's answers 2.6x slower on Aegra.
- `RunLimiter` (from `check_thread_event`): a user has at most `DOCS_AGENT_MAX_RUNS_PER_USER`
  runs pending or running; one more answers 429 with a message saying to wait.

Why the run limit is counted this way: the `threads.create_run` handler is the one place both
engines show every new run (threaded, stateless, streamed, waited) before it is queued, so it
decides there. It counts the user's unfinished runs in the engine's own records, which survive a
restart and, on Aegra, are shared by every process on the database: the in-memory runtime's run
list under `langgraph dev`, the `runs` table under Aegra (`user_id`, `status`). Neither exposes a
per-user count through its API (runs are listed per thread), hence the direct read. A burst of
requests can all pass the count before the first run is written, so each process also counts the
runs it admitted that the records do not show yet, matched to the records by key (the run id on
`langgraph dev`, the run's thread on Aegra, which picks the run id after the handler) so none is
counted twice. Such an admission counts only while the HTTP request that made it is in flight
(`RunAdmissionScope`, a middleware of `server/app.py`): when that request ends the engine has
recorded the run or never will. A stateless run (MCP `tools/call`, `runs.wait(None, ...)`) is
deleted when it finishes, so an admission that waited to be "seen" in the records (as this
module's first version did, for 15 s) kept counting after the run was gone: measured on main,
2 of 20 sequential MCP calls answered, the rest refused. Runs admitted outside any request (a
cron's) still count for `ADMITTED_WINDOW_S`. On Aegra the count has a pool of two connections
of its own (a burst on Aegra's pool deadlocked it). The engine, not this module, decides when a
pending run starts: the limit bounds how many of a user's runs wait in the queue ahead of
another user's and how many hold workers (running plus queued).
On an engine this module cannot read (say LangGraph Platform's Postgres runtime), the run limit
is off and the start-up log says so; the write and store caps work everywhere.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph_sdk import Auth
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.identity import OWNER_KEY
from settings import current
from settings.engine import engine
from settings.limits import Limits

log = logging.getLogger(__name__)

# How long a run admitted outside any HTTP request (a cron's) counts on its own before the
# engine's records must show it: generous, since a loaded engine may record a run seconds after
# its admission. A run admitted in a request counts while that request is in flight instead.
ADMITTED_WINDOW_S = 15.0
ACTIVE = ("pending", "running")


def text_size(value: Any, stop_at: int) -> int:
    """Characters of text in a JSON-like value (strings, keys, numbers), counted up to `stop_at`.

    Iterative and stops early, so a 20 MB payload costs no more than reading `stop_at` of it.
    """
    total = 0
    stack = [value]
    while stack and total <= stop_at:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, Mapping):
            for k, v in item.items():
                total += len(str(k))
                stack.append(v)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif item is not None:
            total += len(str(item))
    return total


def _too_large(what: str, limit: int, variable: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(
        status_code=413,
        detail=f"{what} is over the limit of {limit:,} characters ({variable}); nothing was "
        "written. Send a shorter message: the question and only the relevant part of a log or code.",
    )


# What a thread write carries, by field: langgraph-api nests a run's under `kwargs`.
WRITE_FIELDS = ("input", "command", "values", "metadata", "config", "context", "supersteps")


def check_write(value: Any, limits: Limits) -> None:
    """413 when a thread write (create, update, update_state, run, resume) holds too much text."""
    if not isinstance(value, Mapping):
        return
    parts = [value.get(f) for f in WRITE_FIELDS]
    kwargs = value.get("kwargs")
    if isinstance(kwargs, Mapping):
        parts += [kwargs.get(f) for f in WRITE_FIELDS]
    if text_size(parts, limits.max_write_chars) > limits.max_write_chars:
        raise _too_large(
            "This request's text", limits.max_write_chars, "DOCS_AGENT_MAX_WRITE_CHARS"
        )


def check_store_value(value: Any, limits: Limits) -> None:
    """413 when a store item's value holds too much text."""
    item = value.get("value") if isinstance(value, Mapping) else None
    if text_size(item, limits.max_store_value_chars) > limits.max_store_value_chars:
        raise _too_large(
            "The store value", limits.max_store_value_chars, "DOCS_AGENT_MAX_STORE_VALUE_CHARS"
        )


# --- the run limit ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineRuns:
    """What an engine's run records say about one user, read at one moment."""

    active: int  # the user's runs pending or running
    # Per admission key asked about: the user's runs with that key made at or after its time.
    recorded: Mapping[str, int]


# (user, {admission key: since}) -> the engine's records of that user's runs.
RunCounter = Callable[[str, Mapping[str, datetime]], Awaitable[EngineRuns]]


@dataclass(frozen=True)
class RunRecords:
    """One engine's run records: how to read them, and what names a new run in them.

    `key_field` is the field of the `create_run` handler's value that the run's record will carry:
    langgraph-api picks the run id before it calls the handler (`Runs.put`), Aegra only after
    (`_prepare_run`), so there the run's thread names it (a stateless run gets a fresh thread).
    """

    engine: str
    count: RunCounter
    key_field: str


def _aware(value: Any) -> datetime | None:
    if not isinstance(value, datetime):
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


async def count_inmem_runs(user: str, asked: Mapping[str, datetime]) -> EngineRuns:
    """`langgraph dev`: the in-memory runtime's run list (the run's owner is in its config).

    Read without awaiting anything, so the whole check is one step of the event loop there.
    """
    from langgraph_runtime_inmem.database import connect

    active = 0
    recorded = dict.fromkeys(asked, 0)
    async with connect() as conn:
        for run in conn.store["runs"]:
            kwargs = run.get("kwargs") or {}
            configurable = (kwargs.get("config") or {}).get("configurable") or {}
            if configurable.get("langgraph_auth_user_id") != user:
                continue
            active += run.get("status") in ACTIVE
            key = str(run.get("run_id"))
            if key in asked:
                created_at = _aware(run.get("created_at"))
                recorded[key] += created_at is None or created_at >= asked[key]
    return EngineRuns(active, recorded)


_aegra_engine: Any = None


def _aegra_count_engine() -> Any:
    """A pool of its own for the count, two connections, on Aegra's database.

    Not Aegra's pool: a run request holds one of its connections while the handler runs, so a
    burst of requests held the whole pool and every count waited for one more (measured: 40 runs
    at once, every request timed out after 30 s with `QueuePool limit ... reached`).
    """
    global _aegra_engine
    if _aegra_engine is None:
        from aegra_api.settings import settings
        from sqlalchemy.ext.asyncio import create_async_engine

        _aegra_engine = create_async_engine(
            settings.db.database_url,
            pool_size=2,
            max_overflow=0,
            pool_pre_ping=True,
            connect_args={"prepared_statement_cache_size": 0},  # as Aegra's own (PgBouncer)
        )
    return _aegra_engine


async def count_aegra_runs(user: str, asked: Mapping[str, datetime]) -> EngineRuns:
    """Aegra: its `runs` table, shared by every process on the database, in one statement.

    The rows read are the user's active runs and their recent runs on the asked threads: a few.
    """
    from aegra_api.core.orm import Run
    from sqlalchemy import and_, or_, select

    wanted = Run.status.in_(ACTIVE)
    if asked:
        since = min(asked.values())
        wanted = or_(wanted, and_(Run.thread_id.in_(list(asked)), Run.created_at >= since))
    stmt = select(Run.status, Run.thread_id, Run.created_at).where(Run.user_id == user, wanted)
    async with _aegra_count_engine().connect() as conn:
        rows = (await conn.execute(stmt)).all()
    active = 0
    recorded = dict.fromkeys(asked, 0)
    for status, thread_id, created_at in rows:
        active += status in ACTIVE
        key = str(thread_id)
        created = _aware(created_at)
        if key in asked and (created is None or created >= asked[key]):
            recorded[key] += 1
    return EngineRuns(active, recorded)


INMEM_RECORDS = RunRecords("langgraph dev", count_inmem_runs, "run_id")
AEGRA_RECORDS = RunRecords("aegra", count_aegra_runs, "thread_id")


async def inmem_thread_of_another(user: str, thread_id: Any) -> bool:
    """`langgraph dev`: whether `thread_id` is a thread another user owns.

    langgraph-api calls the run handler before it checks who owns the thread (then answers 404),
    so a run on another user's thread must not take one of the caller's places. Aegra checks the
    owner before the handler, so it needs no such look.
    """
    from langgraph_runtime_inmem.database import connect

    async with connect() as conn:
        for thread in conn.store["threads"]:
            if str(thread.get("thread_id")) == str(thread_id):
                owner = (thread.get("metadata") or {}).get(OWNER_KEY)
                return owner is not None and owner != user
    return False


def engine_run_records(env: Mapping[str, str] | None = None) -> RunRecords | None:
    """The run records of the engine this process runs in; None when it is neither known engine."""
    kind = engine(env)
    if kind == "inmem":
        return INMEM_RECORDS
    if kind == "aegra":
        return AEGRA_RECORDS
    return None


class RequestInFlight:
    """One HTTP request while its route runs: the runs admitted in it count until it ends."""

    __slots__ = ("open",)

    def __init__(self) -> None:
        """Open until `RunAdmissionScope` closes it."""
        self.open = True


_request: ContextVar[RequestInFlight | None] = ContextVar("docs_agent_request", default=None)


class RunAdmissionScope:
    """ASGI middleware (`server/app.py`, around every route of both engines): marks each request.

    The auth handler runs inside the request that creates the run (both engines call it from
    the route), so the run it admits is tied to that request through a context variable, and
    stops counting on its own when the request ends: by then the engine has recorded the run
    (it writes the run before it answers) or never will (it refused it, or it was stateless,
    finished and deleted). The engine's loopback requests (MCP `tools/call` runs the graph
    through one) pass through here too, so each gets its own mark.
    """

    def __init__(self, app: ASGIApp) -> None:
        """Wrap the server's app."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request with its mark set, and close the mark when it ends."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = RequestInFlight()
        token = _request.set(request)
        try:
            await self.app(scope, receive, send)
        finally:
            request.open = False
            _request.reset(token)


@dataclass
class Admission:
    """A run this process let through, not yet (or never to be) in the engine's records."""

    key: str | None  # the value of `RunRecords.key_field` in the handler's value
    at: float
    request: RequestInFlight | None  # None: admitted outside any request (a cron's run)


@dataclass
class RunLimiter:
    """Admits a user's run while they have fewer than `limit` pending or running ones.

    Counted: the user's active runs in the engine's records, plus the runs this process admitted
    that the records do not show yet, matched by key (so none is counted twice).
    """

    limit: int
    records: RunRecords | None
    window_s: float = ADMITTED_WINDOW_S
    clock: Callable[[], float] = time.time
    _admitted: dict[str, list[Admission]] = field(default_factory=lambda: defaultdict(list))

    def _live(self, user: str) -> list[Admission]:
        """The user's admissions that still count, the others dropped.

        One counts while its request is in flight; one made outside any request, for `window_s`.
        """
        now = self.clock()
        live = [
            a
            for a in self._admitted[user]
            if (a.request.open if a.request is not None else a.at >= now - self.window_s)
        ]
        if live:
            self._admitted[user] = live
        else:
            self._admitted.pop(user, None)
        return live

    def _unseen(self, live: list[Admission], engine: EngineRuns) -> int:
        """Admissions the records do not show: per key, those beyond the runs recorded with it.

        An admission whose key the read was not asked about (another request's, made while the
        records were read) matches nothing and counts: a burst can be over-counted for the time
        of one read, never under-counted.
        """
        keyless = 0
        per_key: dict[str, int] = defaultdict(int)
        for admission in live:
            if admission.key is None:
                keyless += 1
            else:
                per_key[admission.key] += 1
        return keyless + sum(max(0, n - engine.recorded.get(k, 0)) for k, n in per_key.items())

    async def check(self, user: str, key: str | None = None) -> None:
        """Admit one run of `user` (named `key` in the engine's records), or raise 429.

        No lock around the count: the decision after it is made without awaiting, so each one
        sees every admission decided before it, and a request that waits holds nothing.
        """
        if self.limit <= 0 or self.records is None:
            return
        asked: dict[str, datetime] = {}
        for admission in self._live(user):
            if admission.key is not None:
                # A second of slack for the engine's clock (Aegra stamps created_at itself).
                since = datetime.fromtimestamp(admission.at, UTC) - timedelta(seconds=1)
                asked[admission.key] = min(since, asked.get(admission.key, since))
        try:
            engine = await self.records.count(user, asked)
        except Exception as exc:
            log.error("docs-agent limits: counting %s's runs failed: %r", user, exc)
            raise Auth.exceptions.HTTPException(
                status_code=503, detail="The run limit could not be checked; try again shortly."
            ) from None
        taken = engine.active + self._unseen(self._live(user), engine)
        if taken >= self.limit:
            raise Auth.exceptions.HTTPException(
                status_code=429,
                detail=f"You have {taken} runs pending or running; the limit is "
                f"{self.limit} per user (DOCS_AGENT_MAX_RUNS_PER_USER). Wait for one to "
                "finish, or cancel one, then send this again.",
                headers={"Retry-After": "2"},
            )
        self._admitted[user].append(Admission(key, self.clock(), _request.get()))


LIMITS = current().limits  # settings/limits.py: never a start error
_runs: RunLimiter | None = None


def run_limiter() -> RunLimiter:
    """The process's limiter, made on the first run: by then the engine's modules are loaded."""
    global _runs
    if _runs is None:
        _runs = RunLimiter(LIMITS.max_runs_per_user, engine_run_records())
        if _runs.records is None and LIMITS.max_runs_per_user > 0:
            log.warning(
                "docs-agent limits: this engine's run records are not readable here; the per-user "
                "run limit (DOCS_AGENT_MAX_RUNS_PER_USER) is off. The size limits are on."
            )
    return _runs


async def check_thread_event(
    ctx: Auth.types.AuthContext, value: Any, *, limit_runs: bool = True
) -> None:
    """The thread handler's hook: caps on every write, and the run limit on a new run.

    `limit_runs=False` in dev mode: every caller is one identity there (one developer, or a
    bench's many clients), so a per-user limit would be a limit on the whole server.
    """
    if ctx.action in ("create", "update", "create_run"):
        check_write(value, LIMITS)
    if limit_runs and ctx.resource == "threads" and ctx.action == "create_run":
        user = ctx.user.identity
        fields = value if isinstance(value, Mapping) else {}
        thread_id = fields.get("thread_id")
        limiter = run_limiter()
        if limiter.records is None:
            return
        if (
            thread_id is not None
            and limiter.records.engine == INMEM_RECORDS.engine
            and await inmem_thread_of_another(user, thread_id)
        ):
            return  # the engine answers 404; this is no run of the caller's
        key = fields.get(limiter.records.key_field)
        await limiter.check(user, None if key is None else str(key))


def check_store_event(ctx: Auth.types.AuthContext, value: Any) -> None:
    """The store handler's hook: the value cap on a put."""
    if ctx.action == "put":
        check_store_value(value, LIMITS)


# The most of an oversized body read (and dropped) so its client gets the 413 cleanly.
DISCARD_BYTES = 64 * 1024 * 1024


class _BodyTooLarge(Exception):
    """Raised from `receive` when a body without Content-Length grows over the limit."""


class RequestSizeLimit:
    """413 for a request body over `DOCS_AGENT_MAX_REQUEST_BYTES`, before any route reads it.

    Pure ASGI (no body buffering): a declared Content-Length over the limit is answered at once;
    a chunked body is counted as it arrives and cut when it passes the limit.
    """

    def __init__(self, app: ASGIApp, max_bytes: int | None = None) -> None:
        """`max_bytes`: default the environment's limit."""
        self.app = app
        self.max_bytes = LIMITS.max_request_bytes if max_bytes is None else max_bytes

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "detail": f"The request body is over the limit of {self.max_bytes:,} bytes "
                "(DOCS_AGENT_MAX_REQUEST_BYTES); nothing was read or written."
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _discard_body(self, receive: Receive, declared: int) -> None:
        """Read and drop the body a client is sending (up to DISCARD_BYTES), unparsed.

        A client that sends its whole body before reading the answer (most HTTP clients) would
        otherwise see its connection cut mid-upload instead of the 413. Dropping bytes costs no
        parsing; a body over DISCARD_BYTES is not waited for (the connection is closed).
        """
        if declared > DISCARD_BYTES:
            return
        while True:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body"):
                return

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared size, then count what arrives."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.max_bytes:
            await self._discard_body(receive, int(declared))
            await self._refuse(send)
            return
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except _BodyTooLarge:
            if not started:
                await self._refuse(send)
