"""The server-side attacks of the third outside attack (issue 33), replayed on both engines.

One server per engine with static users, JWTs, guest mode (a new-guest cap of 3 per address) and
the scripted OpenAI-compatible model, whose request log says which model names reached the
"provider". The attacks: mint guests past the cap behind a spoofed `X-Forwarded-For`; as a guest,
choose billed models through every way a run takes settings (context, configurable, an
assistant, a stateless run, a fallback); schedule a guest cron; sign a JWT whose `sub` is a
guest's identity; filter threads by `values`; start with the platform's `LANGGRAPH_AUTH_TOKENS`.
Each test prints its figures; `attacks that worked` must be 0.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest

from testing.fake_openai import FakeOpenAI, Step
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

ALICE = "tok-alice-hostile-8f2c1e9a"
JWT_SECRET = "jwt-secret-k3Xq9vTz-8Hw2LpQe-Zr5mNc7Y-aB4dF6gJ"
GUEST_SECRET = "guest-secret-Pw7rYb2m-Qs9tUv3x-Lk8jHg5f-Dc4eRw"
DEPLOY, TEAM = "deploy-model", "team-model"
BILLED = ("o1-pro", "gpt-4.5-preview")
GUEST_CAP = 3
QUESTION = {"messages": [{"role": "user", "content": "How do I install docs-agent?"}]}


@dataclass
class Server:
    """A running engine, its scripted model, and the guests it issued to this test module."""

    engine: str
    url: str
    fake: FakeOpenAI
    guests: list[dict[str, Any]] = field(default_factory=list)

    def client(self, token: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=120
        )


def server_env(fake: FakeOpenAI) -> dict[str, str]:
    return {
        "AUTH_TOKENS": f"{ALICE}:alice",
        "AUTH_JWT_SECRET": JWT_SECRET,
        "DOCS_AGENT_GUESTS": "true",
        "DOCS_AGENT_GUEST_SECRET": GUEST_SECRET,
        "DOCS_AGENT_GUEST_NEW_PER_ADDRESS_HOUR": str(GUEST_CAP),
        "OPENAI_API_KEY": "test",
        "OPENAI_BASE_URL": fake.base_url,
        "DOCS_AGENT_MODEL": f"openai:{DEPLOY}",
        "DOCS_AGENT_ALLOWED_MODELS": f"openai:{TEAM}",
        "DOCS_AGENT_CODE_ROOTS": "",
        # Not under test here: stateless runs hold a place for 15 s (server/limits.py).
        "DOCS_AGENT_MAX_RUNS_PER_USER": "10",
    }


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="module", params=["dev", "aegra"])
def server(
    request: pytest.FixtureRequest, fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The engine under attack, with this address's whole allowance of guests already minted."""
    tmp = tmp_path_factory.mktemp(f"hostile-{request.param}")
    env = server_env(fake)
    if request.param == "dev":
        manager = e2e.langgraph_dev(tmp, extra_env=env)
    else:
        services = request.getfixturevalue("aegra_services")
        manager = e2e.aegra_server(tmp, services, extra_env=env)
    with manager as url:
        s = Server(request.param, url, fake)
        for _ in range(GUEST_CAP):
            minted = httpx.post(url + "/chat/api/guest", timeout=30)
            assert minted.status_code == 200, minted.text
            s.guests.append(minted.json())
        yield s


def final_text(values: Any) -> str:
    messages = (values or {}).get("messages") or [] if isinstance(values, dict) else []
    return str(messages[-1].get("content")) if messages else ""


def said(response: httpx.Response) -> str:
    """What an error answer says, whichever engine's shape (`detail`, or Aegra's `message`)."""
    return json.dumps(response.json(), ensure_ascii=False)


def report(what: str, attempts: int, worked: int, server: Server) -> None:
    print(f"\n[{server.engine}] {what}: {worked} of {attempts} attacks worked")


# --- 1. guests past the cap behind a spoofed X-Forwarded-For ----------------------------------

SPOOFS: list[dict[str, str]] = [
    *({"X-Forwarded-For": f"198.51.100.{i}"} for i in range(1, 6)),
    {"X-Forwarded-For": "203.0.113.7, 198.51.100.99"},
    {"X-Forwarded-For": "2001:db8::7"},
    {"X-Forwarded-For": "unknown"},
    {"X-Forwarded-For": "127.0.0.2"},
    {"X-Real-IP": "198.51.100.50"},
    {"Forwarded": "for=198.51.100.51"},
]


def test_a_spoofed_forwarded_for_mints_no_guest_past_the_cap(server: Server) -> None:
    statuses = [
        httpx.post(server.url + "/chat/api/guest", headers=h, timeout=30).status_code
        for h in SPOOFS
    ]
    minted = statuses.count(200)
    report("guests minted past a cap of 3 with spoofed headers", len(SPOOFS), minted, server)
    assert statuses == [429] * len(SPOOFS), statuses


# --- 2. a guest picks the billed model --------------------------------------------------------


def guest_model_attacks(server: Server, token: str) -> list[tuple[str, int, str, int]]:
    """Every way a guest's run takes model settings: (way, status, answer, billed calls)."""
    out: list[tuple[str, int, str, int]] = []
    with server.client(token) as c:
        tid = c.post("/threads", json={}).json()["thread_id"]
        run = {"assistant_id": "docs_agent", "input": QUESTION}
        ways: list[tuple[str, str, dict[str, Any]]] = [
            ("context.model", f"/threads/{tid}/runs/wait", {"context": {"model": "openai:o1-pro"}}),
            (
                "context.model + fallback",
                f"/threads/{tid}/runs/wait",
                {
                    "context": {
                        "model": "openai:o1-pro",
                        "fallback_models": "openai:gpt-4.5-preview",
                    }
                },
            ),
            (
                "configurable.model",
                f"/threads/{tid}/runs/wait",
                {"config": {"configurable": {"model": "openai:o1-pro"}}},
            ),
            ("stateless run", "/runs/wait", {"context": {"model": "openai:gpt-4.5-preview"}}),
            (
                "deep_agent",
                "/runs/wait",
                {"assistant_id": "deep_agent", "context": {"model": "openai:o1-pro"}},
            ),
        ]
        for way, path, extra in ways:
            before = billed_calls(server.fake)
            r = c.post(path, json={**run, **extra})
            answer = final_text(r.json()) if r.status_code == 200 else ""
            out.append((way, r.status_code, answer, billed_calls(server.fake) - before))
        # A fallback is reached when the deployment's model fails: make it fail.
        server.fake.script(DEPLOY, [Step("status", status=401)] * 20)
        try:
            before = billed_calls(server.fake)
            r = c.post(
                f"/threads/{tid}/runs/wait",
                json={**run, "context": {"fallback_models": "openai:gpt-4.5-preview"}},
            )
            reached = billed_calls(server.fake) - before
            out.append(("fallback_models", r.status_code, final_text(r.json()), reached))
        finally:
            server.fake.clear(DEPLOY)
        # An assistant of the guest's own that carries the choice.
        made = c.post(
            "/assistants",
            json={"graph_id": "docs_agent", "context": {"model": "openai:o1-pro"}},
        )
        if made.status_code == 200:
            before = billed_calls(server.fake)
            r = c.post(
                f"/threads/{tid}/runs/wait",
                json={"assistant_id": made.json()["assistant_id"], "input": QUESTION},
            )
            reached = billed_calls(server.fake) - before
            out.append(("own assistant", r.status_code, final_text(r.json()), reached))
        else:
            out.append(("own assistant", made.status_code, "", 0))
    return out


def billed_calls(fake: FakeOpenAI) -> int:
    return sum(len(fake.requests_for(m)) for m in BILLED)


def test_a_guest_reaches_no_billed_model(server: Server) -> None:
    results = guest_model_attacks(server, server.guests[0]["token"])
    worked = [way for way, _, _, billed in results if billed]
    report("guest runs choosing a billed model", len(results), len(worked), server)
    reached = sum(billed for *_, billed in results)
    print(f"[{server.engine}] requests that reached o1-pro / gpt-4.5-preview: {reached} {worked}")
    assert reached == 0
    for way, status, answer, _ in results:
        if way == "own assistant" and status != 200:
            continue  # the engine refused the assistant itself: nothing ran
        assert status == 200, (way, status)
        assert "guests cannot choose the model" in answer, (way, answer[:200])
    # The guest's ordinary question is answered by the deployment's own model.
    deploy_before = len(server.fake.requests_for(DEPLOY))
    with server.client(server.guests[0]["token"]) as c:
        r = c.post("/runs/wait", json={"assistant_id": "docs_agent", "input": QUESTION})
    assert r.status_code == 200 and "guests cannot" not in final_text(r.json())
    assert len(server.fake.requests_for(DEPLOY)) > deploy_before


def test_a_user_chooses_only_the_deployment_s_models(server: Server) -> None:
    before, team_before = billed_calls(server.fake), len(server.fake.requests_for(TEAM))
    with server.client(ALICE) as c:
        run = {"assistant_id": "docs_agent", "input": QUESTION}
        refused = c.post("/runs/wait", json={**run, "context": {"model": "openai:o1-pro"}})
        allowed = c.post("/runs/wait", json={**run, "context": {"model": f"openai:{TEAM}"}})
    reached = billed_calls(server.fake) - before
    report("a user choosing an unlisted model", 1, int(reached > 0), server)
    assert reached == 0
    assert refused.status_code == 200 and allowed.status_code == 200
    answer = final_text(refused.json())
    assert "not a model this deployment offers" in answer and f"openai:{TEAM}" in answer
    assert len(server.fake.requests_for(TEAM)) > team_before  # the listed model is used


# --- 3. guest crons, and a JWT that names a guest ----------------------------------------------


def test_a_guest_schedules_nothing(server: Server) -> None:
    body = {"assistant_id": "docs_agent", "input": QUESTION, "schedule": "* * * * *"}
    with server.client(server.guests[1]["token"]) as c:
        tid = c.post("/threads", json={}).json()["thread_id"]
        attempts = [
            c.post(f"/threads/{tid}/runs/crons", json=body),
            c.post("/runs/crons", json=body),
        ]
        listed = c.post("/runs/crons/search", json={})
    worked = sum(r.status_code == 200 for r in attempts)
    report("guest crons created", len(attempts), worked, server)
    assert [r.status_code for r in attempts] == [403, 403], [r.text for r in attempts]
    assert all("Guests cannot schedule" in said(r) for r in attempts)
    assert listed.status_code != 200 or listed.json() == []
    # A signed-in user still schedules (and removes) a cron.
    with server.client(ALICE) as c:
        tid = c.post("/threads", json={}).json()["thread_id"]
        made = c.post(f"/threads/{tid}/runs/crons", json={**body, "schedule": "0 0 1 1 *"})
        assert made.status_code == 200, made.text
        cron_id = made.json().get("cron_id")
        if cron_id:
            c.delete(f"/runs/crons/{cron_id}")


def test_a_jwt_cannot_become_a_guest(server: Server) -> None:
    victim = server.guests[2]
    with server.client(victim["token"]) as c:
        tid = c.post("/threads", json={"metadata": {"topic": "private"}}).json()["thread_id"]
    now = int(time.time())
    forged = jwt.encode(
        {"sub": victim["identity"], "iat": now, "exp": now + 600}, JWT_SECRET, algorithm="HS256"
    )
    with server.client(forged) as c:
        attempts = [c.get(f"/threads/{tid}"), c.post("/threads/search", json={})]
    worked = sum(r.status_code == 200 for r in attempts)
    report("JWTs whose sub is a guest's identity accepted", len(attempts), worked, server)
    assert [r.status_code for r in attempts] == [401, 401]
    # A look-alike subject is another user, who sees nothing of the guest's.
    other = jwt.encode(
        {"sub": "Guest:" + victim["identity"][6:], "iat": now, "exp": now + 600},
        JWT_SECRET,
        algorithm="HS256",
    )
    with server.client(other) as c:
        assert c.get(f"/threads/{tid}").status_code == 404
        assert c.post("/threads/search", json={}).json() == []


# --- 4. a values filter -------------------------------------------------------------------------


def test_a_values_filter_is_answered_not_crashed_on(server: Server) -> None:
    queries = [
        ("/threads/search", {"values": {"messages": []}}),
        ("/threads/search", {"values": {"x": {"y": 1}}, "limit": 5}),
        ("/threads/count", {"values": {"x": 1}}),
    ]
    with server.client(ALICE) as c:
        c.post("/threads", json={}).raise_for_status()  # a thread without values yet
        searches, statuses = [], []
        for path, body in queries:
            try:
                searches.append(c.post(path, json=body))
                statuses.append(searches[-1].status_code)
            except httpx.TransportError:  # the connection dropped: as bad as a 500
                statuses.append(500)
    report("values filters answered 500", len(queries), statuses.count(500), server)
    assert 500 not in statuses
    if server.engine == "dev":
        # The engine's own bug: refused up front with the way that works.
        assert statuses == [422, 422, 422]
        assert all("filter by `metadata`" in said(r) for r in searches)


# --- 5. the platform's variable name -----------------------------------------------------------


def test_the_platform_s_auth_variable_name_never_starts_an_open_server(tmp_path: Path) -> None:
    env = {"LANGGRAPH_AUTH_TOKENS": f"{ALICE}:alice"}
    with pytest.raises(RuntimeError, match="exited early") as exc:
        with e2e.langgraph_dev(tmp_path, extra_env=env):
            pass
    log = str(exc.value)
    print("\n[dev] LANGGRAPH_AUTH_TOKENS: the start failed (1 of 1 refused)")
    assert "LANGGRAPH_AUTH_TOKENS → AUTH_TOKENS" in log


def test_the_platform_s_auth_variable_name_refuses_every_request_on_aegra(
    tmp_path: Path, aegra_services: e2e.AegraServices
) -> None:
    # Aegra serves an auth module that fails as one shared user, so ours never fails there: it
    # refuses every request with the reason (and AegraStack adds AUTH_DEV_MODE=true here).
    env = {"LANGGRAPH_AUTH_TOKENS": f"{ALICE}:alice"}
    with e2e.aegra_server(tmp_path, aegra_services, extra_env=env) as url:
        answers = [
            httpx.post(url + "/threads/search", json={}, timeout=30),
            httpx.post(url + "/threads", json={}, headers={"Authorization": f"Bearer {ALICE}"}),
        ]
    served = sum(r.status_code < 400 for r in answers)
    print(f"\n[aegra] LANGGRAPH_AUTH_TOKENS: {served} of {len(answers)} requests served")
    assert all(r.status_code in (401, 503) for r in answers)
    details = [said(r) for r in answers]
    assert all("LANGGRAPH_AUTH_TOKENS → AUTH_TOKENS" in d for d in details), details


# --- 6. behind a configured proxy --------------------------------------------------------------


def test_behind_a_trusted_proxy_the_proxy_s_hop_counts_not_the_client_s(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    env = {**server_env(fake), "DOCS_AGENT_TRUSTED_PROXIES": "127.0.0.1,::1"}
    with e2e.langgraph_dev(tmp_path, extra_env=env) as url:

        def mint(xff: str) -> int:
            return httpx.post(
                url + "/chat/api/guest", headers={"X-Forwarded-For": xff}, timeout=30
            ).status_code

        # One reader behind the proxy: its cap of 3, whatever it writes left of the proxy's hop.
        first = [mint("203.0.113.10") for _ in range(GUEST_CAP)]
        spoofed = [mint(f"198.51.100.{i}, 203.0.113.10") for i in range(5)]
        other = mint("203.0.113.11")
    report(
        "guests minted past a reader's cap behind a proxy",
        len(spoofed),
        spoofed.count(200),
        Server("dev", url, fake),
    )
    assert first == [200] * GUEST_CAP and spoofed == [429] * 5 and other == 200
