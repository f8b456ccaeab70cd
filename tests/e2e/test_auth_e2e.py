"""Auth and ownership through a real server with AUTH_TOKENS + JWT configured, on both engines.

Every test runs against `langgraph dev` and against Aegra on PostgreSQL + Redis (the fixture is
parametrised), so the ownership rules are proven the same on both.

User B tries every thread/run/cron/history endpoint on user A's resources; bad credentials of every
kind are tried on two endpoints; memory tools run through a scripted graph on the real store.
The counts printed at the end are the figures reported for the issue.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import langgraph_api
import pytest

from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

TOKEN_A, TOKEN_B = "tok-alice-7f3a9c2e51", "tok-bob-0d8e4b6a93"
SECRET = "e2e-secret-0123456789-0123456789-abcdef"
AUD, ISS = "docs-agent", "https://login.example.com/"
MEMORY_GRAPH = str(Path(__file__).with_name("memory_graph.py")) + ":graph"
DENIED = {403, 404}


def make_jwt(**claims: Any) -> str:
    base = {"sub": "jwt-user", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600}
    base.update(claims)
    key = base.pop("_key", SECRET)
    return jwt.encode(base, key, algorithm="HS256")


AUTH_ENV = {
    "AUTH_TOKENS": f"{TOKEN_A}:alice,{TOKEN_B}:bob",
    "AUTH_JWT_SECRET": SECRET,
    "AUTH_JWT_AUDIENCE": AUD,
    "AUTH_JWT_ISSUER": ISS,
}


# The server log of each running auth server, by URL (the query-token test reads it).
SERVER_LOGS: dict[str, list[Path]] = {}


@pytest.fixture(scope="module", params=["langgraph-dev", "aegra"])
def auth_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A server with static tokens and HS256 JWT, plus the scripted memory test graph."""
    graphs = {"memory_test": MEMORY_GRAPH}
    tmp = tmp_path_factory.mktemp(f"auth-{request.param}")
    if request.param == "aegra":
        services = request.getfixturevalue("aegra_services")
        with e2e.aegra_server(tmp, services, AUTH_ENV, graphs) as url:
            SERVER_LOGS[url] = sorted((tmp / "aegra").glob("server*.log"))
            yield url
    else:
        with e2e.langgraph_dev(tmp, extra_env=AUTH_ENV, graphs=graphs) as url:
            SERVER_LOGS[url] = [tmp / "server" / "server.log"]
            yield url


def client(url: str, token: str | None = None, **headers: str) -> httpx.Client:
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(base_url=url, headers=headers, timeout=60)


def ask(c: httpx.Client, graph: str, text: str, thread_id: str | None = None, **body: Any) -> str:
    """One run to completion; the last message's text."""
    if thread_id is None:
        thread_id = c.post("/threads", json={}).raise_for_status().json()["thread_id"]
    r = c.post(
        f"/threads/{thread_id}/runs/wait",
        json={
            "assistant_id": graph,
            "input": {"messages": [{"role": "user", "content": text}]},
            **body,
        },
    )
    r.raise_for_status()
    return str(r.json()["messages"][-1]["content"])


def attempt(
    c: httpx.Client, method: str, path: str, body: Any, seconds: float = 6.0
) -> tuple[int, str]:
    """Status and the first bytes of the answer; a stream left open is cut after `seconds`."""
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    with c.stream(method, path, json=body, timeout=seconds) as r:
        try:
            for chunk in r.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline or sum(map(len, chunks)) > 8192:
                    break
        except httpx.TimeoutException:
            pass
        return r.status_code, b"".join(chunks).decode(errors="replace")


def denied(status: int, text: str, path: str) -> bool:
    """403/404; or the platform's own shapes of "not found" that reveal nothing and change nothing.

    Copy of an invisible thread answers 409 (checked below: no copy is made). Joining a run's
    stream opens the SSE stream (200) and sends a single error event "404: Thread not found".
    """
    if status in DENIED:
        return True
    if status == 405:  # the engine has no such operation (Aegra: GET /runs/crons/{id})
        return True
    if path.endswith("/copy") and status == 409:
        return True
    if path.endswith("/stream") and status == 200:
        events = [line for line in text.splitlines() if line.startswith("event:")]
        return events == ["event: error"] and "404" in text
    if status == 200 and (path.endswith("/runs") or path == "/threads/prune"):
        # Aegra filters lists and bulk actions instead of refusing: an empty run list, a prune of
        # nothing ({"deleted": 0, "pruned": 0}). A's data is checked intact below.
        try:
            body = json.loads(text)
        except ValueError:
            return False
        return body == [] or (isinstance(body, dict) and not any(body.values()))
    return False


def test_user_b_cannot_touch_user_a(auth_url: str) -> None:
    a, b = client(auth_url, TOKEN_A), client(auth_url, TOKEN_B)
    # A creates a thread claiming to be bob: the server stamps the real owner.
    thread = (
        a.post("/threads", json={"metadata": {"user_id": "bob", "topic": "t"}})
        .raise_for_status()
        .json()
    )
    tid = thread["thread_id"]
    assert thread["metadata"]["user_id"] == "alice"
    ask(a, "docs_agent", "How do I install docs-agent?", tid, metadata={"user_id": "bob"})
    runs = a.get(f"/threads/{tid}/runs").raise_for_status().json()
    rid = runs[0]["run_id"]
    # A spoofed run owner is overwritten too (Aegra keeps no run metadata: the thread owns the run).
    assert runs[0].get("metadata", {"user_id": "alice"})["user_id"] == "alice"
    patched = (
        a.patch(f"/threads/{tid}", json={"metadata": {"user_id": "bob"}}).raise_for_status().json()
    )
    assert patched["metadata"]["user_id"] == "alice"
    cron = a.post(
        f"/threads/{tid}/runs/crons",
        json={"assistant_id": "docs_agent", "schedule": "0 0 1 1 *", "input": {"messages": []}},
    )
    cron_id = cron.json().get("cron_id") if cron.status_code == 200 else None
    if cron.status_code == 200 and not cron_id:  # Aegra answers with the cron's first run
        found = a.post("/runs/crons/search", json={"thread_id": tid}).raise_for_status().json()
        cron_id = found[0]["cron_id"] if found else None
        # ... which Aegra starts at once: let it finish before A's state is taken as reference.
        a.get(f"/threads/{tid}/runs/{cron.json()['run_id']}/join").raise_for_status()
    print(f"\ncron on A's thread: {cron.status_code} {cron.text[:120]}")
    before = a.get(f"/threads/{tid}/state").raise_for_status().json()
    checkpoint_id = before["checkpoint"]["checkpoint_id"]
    run_body = {
        "assistant_id": "docs_agent",
        "input": {"messages": [{"role": "user", "content": "hi"}]},
    }

    attempts: list[tuple[str, str, Any]] = [
        ("GET", f"/threads/{tid}", None),
        ("PATCH", f"/threads/{tid}", {"metadata": {"user_id": "bob"}}),
        ("POST", f"/threads/{tid}/copy", None),
        ("GET", f"/threads/{tid}/state", None),
        (
            "POST",
            f"/threads/{tid}/state",
            {"values": {"messages": [{"role": "user", "content": "x"}]}},
        ),
        ("GET", f"/threads/{tid}/state/{checkpoint_id}", None),
        (
            "POST",
            f"/threads/{tid}/state/checkpoint",
            {"checkpoint": {"checkpoint_id": checkpoint_id}},
        ),
        ("GET", f"/threads/{tid}/history", None),
        ("POST", f"/threads/{tid}/history", {"limit": 5}),
        ("POST", f"/threads/{tid}/runs", run_body),
        ("POST", f"/threads/{tid}/runs/stream", run_body),
        ("POST", f"/threads/{tid}/runs/wait", run_body),
        ("GET", f"/threads/{tid}/runs", None),
        ("GET", f"/threads/{tid}/runs/{rid}", None),
        ("GET", f"/threads/{tid}/runs/{rid}/join", None),
        ("GET", f"/threads/{tid}/runs/{rid}/stream", None),
        ("POST", f"/threads/{tid}/runs/{rid}/cancel", None),
        ("PATCH", f"/threads/{tid}/runs/{rid}", {"run_id": rid, "status": "interrupted"}),
        ("DELETE", f"/threads/{tid}/runs/{rid}", None),
        (
            "POST",
            f"/threads/{tid}/runs/crons",
            {"assistant_id": "docs_agent", "schedule": "0 0 1 1 *", "input": {"messages": []}},
        ),
        ("GET", f"/threads/{tid}/storage", None),
        ("GET", f"/threads/{tid}/stream", None),
        ("POST", "/runs/cancel", {"thread_id": tid, "run_ids": [rid]}),
        ("POST", "/threads/prune", {"thread_ids": [tid], "strategy": "keep_latest"}),
        ("POST", "/threads/prune", {"thread_ids": [tid]}),
        ("DELETE", f"/threads/{tid}", None),
    ]
    if cron_id:
        attempts += [
            ("GET", f"/runs/crons/{cron_id}", None),
            ("PATCH", f"/runs/crons/{cron_id}", {"schedule": "0 0 2 1 *"}),
            ("DELETE", f"/runs/crons/{cron_id}", None),
        ]

    succeeded = []
    for method, path, body in attempts:
        status, text = attempt(b, method, path, body)
        if not denied(status, text, path):
            succeeded.append((method, path, status, text[:200]))
    print(
        f"\ncross-tenant attempts that succeeded: {len(succeeded)} of {len(attempts)} (endpoint x method)"
    )
    assert not succeeded, succeeded
    assert len(attempts) >= 20

    # Searches: nothing of A's, whatever filter B uses.
    search_hits = 0
    for body in ({}, {"metadata": {"user_id": "alice"}}, {"metadata": {"topic": "t"}}):
        found = b.post("/threads/search", json={**body, "limit": 100}).raise_for_status().json()
        search_hits += sum(t["thread_id"] == tid for t in found)
    count = b.post("/threads/count", json={"metadata": {"user_id": "alice"}})
    if count.status_code != 405:  # Aegra has no /threads/count
        search_hits += count.raise_for_status().json()
    if cron_id:
        crons = b.post("/runs/crons/search", json={"thread_id": tid}).raise_for_status().json()
        search_hits += len(crons)
    print(f"A's items in B's searches: {search_hits}")
    assert search_hits == 0

    # A's data is intact after B's attempts: same owner, state, run; no copy made.
    after = a.get(f"/threads/{tid}").raise_for_status().json()
    assert after["metadata"]["user_id"] == "alice"
    assert a.get(f"/threads/{tid}/state").json()["checkpoint"]["checkpoint_id"] == checkpoint_id
    assert a.get(f"/threads/{tid}/runs/{rid}").status_code == 200
    assert rid in {r["run_id"] for r in a.get(f"/threads/{tid}/runs").raise_for_status().json()}
    mine = a.post("/threads/search", json={"limit": 100}).json()
    assert [t["thread_id"] for t in mine if t["metadata"].get("topic") == "t"] == [tid]
    if cron_id:
        assert any(
            c["cron_id"] == cron_id
            for c in a.post("/runs/crons/search", json={"thread_id": tid}).json()
        )

    # Assistants are readable by every authenticated user.
    assistants = b.post("/assistants/search", json={}).raise_for_status().json()
    assert "docs_agent" in {x["graph_id"] for x in assistants}


def test_bad_credentials_are_rejected(auth_url: str) -> None:
    a = client(auth_url, TOKEN_A)
    tid = a.post("/threads", json={}).raise_for_status().json()["thread_id"]
    bad: dict[str, dict[str, str]] = {
        "no token": {},
        "wrong token": {"Authorization": "Bearer tok-nobody-000"},
        "right token, Basic scheme": {"Authorization": f"Basic {TOKEN_A}"},
        "right token, no scheme": {"Authorization": TOKEN_A},
        "expired JWT": {
            "Authorization": "Bearer " + make_jwt(sub="alice", exp=int(time.time()) - 3600)
        },
        "wrong-audience JWT": {"Authorization": "Bearer " + make_jwt(sub="alice", aud="other-app")},
        "wrong-issuer JWT": {
            "Authorization": "Bearer " + make_jwt(sub="alice", iss="https://evil.example/")
        },
        "wrong-key JWT": {"Authorization": "Bearer " + make_jwt(sub="alice", _key="x" * 40)},
        "alg=none JWT": {
            "Authorization": "Bearer "
            + jwt.encode(
                {"sub": "alice", "aud": AUD, "iss": ISS, "exp": int(time.time()) + 600},
                None,
                algorithm="none",
            )
        },
        "Studio header alone": {"x-auth-scheme": "langsmith"},
        "Studio header + wrong token": {
            "x-auth-scheme": "langsmith",
            "Authorization": "Bearer nope",
        },
    }
    accepted = []
    tried = 0
    for name, headers in bad.items():
        with httpx.Client(base_url=auth_url, headers=headers, timeout=30) as c:
            for method, path, body in (
                ("POST", "/threads/search", {}),
                ("GET", f"/threads/{tid}", None),
            ):
                tried += 1
                r = c.request(method, path, json=body)
                if r.status_code != 401:
                    accepted.append((name, method, path, r.status_code))
    print(f"\nbad credentials accepted: {len(accepted)} of {tried}")
    assert not accepted, accepted

    # Positive controls: a valid JWT works and owns its own threads; the Studio header with a valid
    # token is just that token's user.
    j = client(auth_url, make_jwt(sub="jwt-user"))
    t = j.post("/threads", json={"metadata": {"user_id": "alice"}}).raise_for_status().json()
    assert t["metadata"]["user_id"] == "jwt-user"
    assert j.get(f"/threads/{tid}").status_code == 404
    studio = client(auth_url, TOKEN_B, **{"x-auth-scheme": "langsmith"})
    assert studio.get(f"/threads/{tid}").status_code == 404


def test_memory_limits_and_isolation(auth_url: str) -> None:
    a, b = client(auth_url, TOKEN_A), client(auth_url, TOKEN_B)
    # 21 facts in one run: the tool node runs the calls in parallel; exactly 20 are kept.
    out = ask(
        a, "memory_test", "save: " + " | ".join(f"alice fact {i}" for i in range(21))
    ).splitlines()
    assert len(out) == 21
    assert sum(line.startswith("Saved memory") for line in out) == 20, out
    assert (
        sum(
            "Memory is full (20 of 20 records)" in line and "Nothing was saved" in line
            for line in out
        )
        == 1
    )
    listed = ask(a, "memory_test", "list")
    assert listed.startswith("20 of 20 memories") and "alice fact 0" in listed
    key = listed.split("- [", 2)[1].split("]", 1)[0]

    # B's model asks for alice by argument: B gets B's (empty) memories, deletes nothing.
    assert ask(b, "memory_test", "list as: alice") == "No memories saved for this user."
    assert "No memory with id" in ask(b, "memory_test", f"delete as: alice {key}")
    assert "alice fact" not in ask(b, "memory_test", "prompt")
    assert "alice fact 0" in ask(a, "memory_test", "prompt")  # A's own memories reach A's prompt

    # The store API is confined the same way.
    store_attempts = [
        b.get("/store/items", params={"namespace": "memories.alice", "key": key}),
        b.request("DELETE", "/store/items", json={"namespace": ["memories", "alice"], "key": key}),
        b.put(
            "/store/items",
            json={"namespace": ["memories", "alice"], "key": "x", "value": {"text": "pwn"}},
        ),
        b.post("/store/items/search", json={"namespace_prefix": ["memories", "alice"]}),
    ]
    # Aegra answers a search outside one's namespace with nothing rather than 403: its own
    # per-user scoping rewrites the prefix (docs/deploy.md). Alice has 20 items there.
    assert all(
        r.status_code in DENIED
        or (
            r.request.url.path.endswith("/search")
            and r.status_code == 200
            and not r.json()["items"]
        )
        for r in store_attempts
    ), [(r.status_code, r.text) for r in store_attempts]
    broad = (
        b.post("/store/items/search", json={"namespace_prefix": ["memories"], "limit": 100})
        .raise_for_status()
        .json()
    )
    assert all(item["namespace"][1] == "bob" for item in broad["items"])
    assert ask(a, "memory_test", "list").startswith("20 of 20 memories")  # all of A's still there
    # A can delete her own.
    assert ask(a, "memory_test", f"delete: {key}") == f"Deleted memory [{key}]."


def test_dev_mode_keeps_client_user_id(server_url: str) -> None:
    """No AUTH_* variable: every request accepted and metadata.user_id kept as sent."""
    with httpx.Client(base_url=server_url, timeout=30) as c:
        t = (
            c.post("/threads", json={"metadata": {"user_id": "dev-alice"}})
            .raise_for_status()
            .json()
        )
        assert t["metadata"]["user_id"] == "dev-alice"
        found = c.post("/threads/search", json={"metadata": {"user_id": "dev-alice"}}).json()
        assert [x["thread_id"] for x in found] == [t["thread_id"]]


def test_a_dotted_user_id_uses_its_own_memory(auth_url: str) -> None:
    """`sub` = an e-mail (the usual JWT): memory works, through the tools and the store API."""
    carol = client(auth_url, make_jwt(sub="carol@example.com"))
    twin = client(auth_url, make_jwt(sub="carol@example%2Ecom"))  # the label, as a raw id
    assert ask(carol, "memory_test", "save: carol prefers curl").startswith("Saved memory")
    assert "carol prefers curl" in ask(carol, "memory_test", "list")
    assert ask(twin, "memory_test", "list") == "No memories saved for this user."
    label = "carol@example%2Ecom"
    put = carol.put(
        "/store/items",
        json={"namespace": ["memories", label], "key": "k1", "value": {"text": "via the API"}},
    )
    assert put.status_code in (200, 204), put.text
    got = carol.get("/store/items", params={"namespace": f"memories.{label}", "key": "k1"})
    assert got.status_code == 200 and got.json()["value"] == {"text": "via the API"}, got.text
    found = carol.post("/store/items/search", json={"namespace_prefix": ["memories", label]}).json()
    assert {i["key"] for i in found["items"]} >= {"k1"}
    assert all(i["namespace"] == ["memories", label] for i in found["items"])
    assert "via the API" in ask(carol, "memory_test", "list")  # the tools see the API's item
    theirs = twin.post(
        "/store/items/search", json={"namespace_prefix": ["memories", label]}
    )  # refused (langgraph-api) or narrowed to the twin's own (Aegra)
    assert theirs.status_code in (200, 403)
    theirs_items = theirs.json().get("items", []) if theirs.status_code == 200 else []
    assert not any(
        "carol prefers" in json.dumps(i) or "via the API" in json.dumps(i) for i in theirs_items
    )


def test_assistant_ids_of_others_are_not_confirmed(auth_url: str) -> None:
    a, b = client(auth_url, TOKEN_A), client(auth_url, TOKEN_B)
    alices = a.post("/assistants", json={"graph_id": "docs_agent", "name": "a1"}).json()
    bobs = b.post("/assistants", json={"graph_id": "docs_agent", "name": "b1"}).json()
    unused = "6f1d2c3b-0000-4000-8000-000000000abc"
    probes = {
        aid: b.post(
            "/assistants",
            json={"graph_id": "docs_agent", "assistant_id": aid, "if_exists": "do_nothing"},
        )
        for aid in (alices["assistant_id"], bobs["assistant_id"], unused)
    }
    # Aegra shows the option to auth: refused (422) for every id. langgraph-api does not: every
    # taken id, yours or another's, is then the same plain 409 (and a free id is created).
    answers = [(r.status_code, r.text.replace(aid, "ID")) for aid, r in probes.items()]
    assert answers[0] == answers[1] and answers[0][0] in (409, 422), answers
    assert probes[unused].status_code in (200, 422), answers
    taken = {
        aid: b.post("/assistants", json={"graph_id": "docs_agent", "assistant_id": aid})
        for aid in (alices["assistant_id"], bobs["assistant_id"])
    }
    assert [r.status_code for r in taken.values()] == [409, 409]
    texts = [r.text.replace(aid, "ID") for aid, r in taken.items()]
    assert texts[0] == texts[1], texts
    assert a.get(f"/assistants/{alices['assistant_id']}").json()["name"] == "a1"


def test_tokens_in_the_url_are_refused_and_never_logged(auth_url: str) -> None:
    jwt_token = make_jwt(sub="url-user")
    attempts = [
        ("/threads/search", {"token": jwt_token}),
        ("/threads/search", {"access_token": TOKEN_A}),
    ]
    for path, params in attempts:
        r = httpx.post(auth_url + path, params=params, json={}, timeout=30)
        assert r.status_code == 401, r.text
    # With a valid header too, a credential in the URL is refused where the engine shows the
    # query to auth (langgraph-api); Aegra does not, and only its log is redacted.
    c = client(auth_url, TOKEN_B)
    mixed = c.post("/threads/search", params={"token": jwt_token}, json={})
    assert mixed.status_code in (200, 401)
    time.sleep(1.5)  # the log is written after the response
    logs = "\n".join(p.read_text(errors="replace") for p in SERVER_LOGS[auth_url] if p.exists())
    assert "/threads/search" in logs, "precondition: the server logs its requests"
    signature = jwt_token.rsplit(".", 1)[1]
    leaked = [s for s in (jwt_token, signature, TOKEN_A) if s in logs]
    print(f"\ncredentials from URLs found in the server log: {len(leaked)} of 3")
    assert not leaked


def test_cors_answers_only_loopback_and_studio_origins(auth_url: str) -> None:
    def preflight(origin: str) -> httpx.Response:
        return httpx.options(
            auth_url + "/threads/search",
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization,content-type",
                "Access-Control-Request-Private-Network": "true",
            },
            timeout=30,
        )

    allowed = ["http://127.0.0.1:5173", "http://localhost:3000", "https://smith.langchain.com"]
    refused = [
        "https://evil.example",
        "http://127.0.0.1.evil.example",
        "http://localhost.evil.example:3000",
        "https://smith.langchain.com.evil.example",
        "null",
    ]
    for origin in allowed:
        r = preflight(origin)
        assert r.headers.get("access-control-allow-origin") == origin, (origin, r.headers)
    opened = []
    for origin in refused:
        r = preflight(origin)
        simple = httpx.post(
            auth_url + "/threads/search",
            json={},
            headers={"Origin": origin, "Authorization": f"Bearer {TOKEN_A}"},
            timeout=30,
        )
        if (
            "access-control-allow-origin" in r.headers
            or "access-control-allow-origin" in simple.headers
        ):
            opened.append(origin)
    print(f"\nforeign origins a browser would let read the API: {len(opened)} of {len(refused)}")
    assert not opened, opened


# Routes either engine answers without a token by design, and that carry no user's data: health
# checks, the API's description, the chat page and its static files, the page's public settings.
PUBLIC_ROUTES = frozenset(
    {
        "/",
        "/ok",
        "/info",
        "/health",
        "/live",
        "/ready",
        "/metrics",
        "/docs",
        "/openapi.json",
        "/chat",
        "/chat/widget.js",
        "/chat/api/config",
        "/chat/api/widget",  # may a site show the widget? (an origin check, no user data)
        "/chat/source",  # the source viewer's static shell; its data route needs a token
    }
)
# The in-memory engine's meta routes, which its OpenAPI does not list (langgraph-runtime-inmem
# 0.36: debug, truncate, deploy), and paths no route should answer.
ENGINE_META_ROUTES = (
    ("GET", "/internal/debug/thread/{thread_id}"),
    ("POST", "/internal/truncate"),
    ("GET", "/deploy"),
    ("POST", "/deploy"),
    ("GET", "/deploy/{run_id}/stream"),
    ("GET", "/internal/anything"),
    ("POST", "/debug"),
)


def _fill(template: str, ids: dict[str, str]) -> str:
    for name, value in ids.items():
        template = template.replace("{" + name + "}", value)
    return template


def test_no_route_answers_data_or_wipes_anything_without_a_token(auth_url: str) -> None:
    """Every route the server answers (its OpenAPI and the engine's meta routes), no token."""
    a = client(auth_url, TOKEN_A)
    tid = a.post("/threads", json={}).raise_for_status().json()["thread_id"]
    ask(a, "docs_agent", "What is langgraph dev? Paris-marker", tid)
    # The server's own description where it serves one (langgraph-api), else the platform API's
    # (the spec langgraph-api ships, which Aegra implements), plus Aegra's own list routes.
    spec = httpx.get(auth_url + "/openapi.json", timeout=30)
    if spec.status_code == 200:
        paths = spec.json().get("paths", {})
    else:
        shipped = Path(langgraph_api.__file__).parents[1] / "openapi.json"
        paths = json.loads(shipped.read_text())["paths"]
        paths |= {"/threads": {"get": {}}, "/assistants": {"get": {}}}
    routes = [
        (method.upper(), path)
        for path, ops in paths.items()
        for method in ops
        if method in ("get", "post", "put", "patch", "delete")
    ]
    routes += list(ENGINE_META_ROUTES)
    ids = {
        "thread_id": tid,
        "run_id": "1ef00000-0000-0000-0000-000000000000",
        "assistant_id": "docs_agent",
        "cron_id": "1ef00000-0000-0000-0000-000000000001",
        "checkpoint_id": "1ef00000-0000-0000-0000-000000000002",
        "namespace": "memories",
        "name": "chat.js",
    }
    answered: list[tuple[str, str, int]] = []
    tried = 0
    for headers in ({}, {"Authorization": "Bearer tok-nobody-000000"}):
        with httpx.Client(base_url=auth_url, headers=headers, timeout=30) as c:
            for method, template in routes:
                path = _fill(template, ids)
                body = None if method in ("GET", "DELETE") else {}
                status, text = attempt(c, method, path, body, seconds=5)
                tried += 1
                if status < 400 and template.rstrip("/") not in PUBLIC_ROUTES:
                    if not template.startswith("/chat/static"):
                        answered.append((method, template, status))
                assert TOKEN_A not in text and "Paris-marker" not in text, (method, template)
    survived = a.get(f"/threads/{tid}").status_code
    print(
        f"\nroutes answering without a valid token: {len(answered)} of {tried} requests"
        f" ({len(routes)} routes); the owner's thread after the walk: {survived}"
    )
    assert len(routes) >= 50
    assert not answered, answered
    assert survived == 200
    state = a.get(f"/threads/{tid}/state").raise_for_status().json()
    assert any("Paris-marker" in str(m.get("content")) for m in state["values"]["messages"])
