"""Every way the scripted model can fail, on a real `langgraph dev`, as a reader receives it.

The scripted OpenAI-compatible model (testing/fake_openai.py; the cases in testing/model_failures.py,
which bench/model_failures.py measures too) fails in every way it supports — HTTP 400/401/403/404/429/500/502/503, a Retry-After past the reader's wait budget, a
first byte after the timeout, a stream cut mid-answer, a reply cut mid-JSON, unusable tool
arguments, an empty completion, a provider refusal, suggestions that are not JSON, a closed port —
plus an engine failure (a model that cannot be loaded). For each, through the SDK's stream, every
text a reader can be shown (streamed AI tokens, AI messages in `values` and `updates`, custom
progress events, error events, the final state) must be free of exception and class names,
tracebacks and module paths; a turn that ends on a failure carries contract C2's `failure`
metadata with the right kind; the turn record the report reads says the same; and the next
question on the same thread is answered.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from langgraph_sdk import get_client

from server import report_access
from testing.fake_openai import FakeOpenAI, Step
from testing.model_failures import (
    CASES,
    QUESTION,
    SECOND,
    SECOND_ANSWER,
    Case,
    ai_texts,
    ask,
    leaks,
)
from testing.servers import langgraph_dev

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240), pytest.mark.asyncio(loop_scope="module")]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(token_delay=0.01) as server:
        yield server


@pytest.fixture(scope="module")
def dev_url(fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`langgraph dev` whose OpenAI is the scripted model; default retries, fast backoff."""
    env = {
        "OPENAI_API_KEY": "test",
        "OPENAI_BASE_URL": fake.base_url,
        "DOCS_AGENT_MODEL": "openai:dev-default",
        "DOCS_AGENT_RETRY_INITIAL_S": "0.05",
        "DOCS_AGENT_MODEL_TIMEOUT_S": "1.0",
        "DOCS_AGENT_CODE_ROOTS": "",
    }
    with langgraph_dev(tmp_path_factory.mktemp("failures"), extra_env=env) as url:
        yield url


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_no_exception_name_reaches_the_reader(
    fake: FakeOpenAI, dev_url: str, case: Case
) -> None:
    model = f"fail-{case.name}-{uuid.uuid4().hex[:6]}"
    fake.script(model, list(case.steps))
    context = {"model": f"openai:{model}", **case.context}
    client = get_client(url=dev_url)
    thread = (await client.threads.create())["thread_id"]
    texts, errors = await ask(dev_url, thread, QUESTION, context, fake if case.refusing else None)
    state = await client.threads.get_state(thread)
    final = state["values"]["messages"][-1]
    texts.extend(ai_texts([final]))
    assert not leaks(texts), [t for t in texts if leaks([t])][:3]
    assert not errors, f"{case.name}: the run failed instead of answering: {errors}"
    assert final["type"] == "ai" and str(final["content"]).strip()
    failure = (final.get("additional_kwargs") or {}).get("failure")
    if case.kind is None:
        assert failure is None, failure
    else:
        assert failure and failure["kind"] == case.kind, failure
        assert failure["message"] == final["content"]
        if case.name == "429_long_wait":
            assert failure["retry_after_s"] == 30
            assert len(fake.requests_for(model)) == 1, "a 30 s wait was retried, not told"
        if case.name == "503_retry_after":
            assert failure["retry_after_s"] == 20
    # The provider is fixed: the same thread answers the next question.
    fake.clear(model)
    fake.script(model, [Step("text", content=SECOND_ANSWER)])
    if case.name == "engine":
        context = {"model": f"openai:{model}"}
    _, errors = await ask(dev_url, thread, SECOND, context)
    final = (await client.threads.get_state(thread))["values"]["messages"][-1]
    assert not errors and final["content"] == SECOND_ANSWER


async def test_the_turn_record_counts_a_failure_apart_from_an_answer(
    fake: FakeOpenAI, dev_url: str
) -> None:
    """What the report reads: the failure's kind, the page it was asked on, the reader's wait."""
    model = f"record-{uuid.uuid4().hex[:6]}"
    fake.script(model, [Step("status", status=429, retry_after="45")])
    client = get_client(url=dev_url)
    thread = (await client.threads.create())["thread_id"]
    page = "https://docs.example.com/guide/install/"
    async for _ in client.runs.stream(
        thread,
        "docs_agent",
        input={"messages": [{"role": "user", "content": QUESTION}]},
        context={"model": f"openai:{model}"},
        metadata={"asked_on": page, "client": "widget"},
        stream_mode="messages-tuple",
    ):
        pass
    final = (await client.threads.get_state(thread))["values"]["messages"][-1]
    record = await client.store.get_item(list(report_access.TURNS), final["id"])
    assert record is not None
    value = record["value"]
    assert value["failure"] == {"kind": "rate_limited", "retry_after_s": 45}
    assert value["asked_on"] == page and value["client"] == "widget"
    assert value["found"] is False and value["answer"] == final["content"]
    # langgraph-api tells the graph when the run's request arrived: the wait includes the queue.
    assert value["wait_from"] == "run_created"
    assert value["first_token_s"] is not None and value["last_token_s"] >= value["first_token_s"]


async def test_an_answer_records_when_its_first_and_last_token_left(
    fake: FakeOpenAI, dev_url: str
) -> None:
    model = f"timed-{uuid.uuid4().hex[:6]}"
    words = " ".join(["Install it with pip, then start the server."] * 8)
    fake.script(model, [Step("text", content=words)])
    client = get_client(url=dev_url)
    thread = (await client.threads.create())["thread_id"]
    async for _ in client.runs.stream(
        thread,
        "docs_agent",
        input={"messages": [{"role": "user", "content": QUESTION}]},
        context={"model": f"openai:{model}"},
        metadata={"client": "page"},
        stream_mode="messages-tuple",
    ):
        pass
    final = (await client.threads.get_state(thread))["values"]["messages"][-1]
    value = (await client.store.get_item(list(report_access.TURNS), final["id"]))["value"]  # type: ignore[index]
    assert value["failure"] is None and value["client"] == "page" and value["asked_on"] is None
    # 64 tokens 10 ms apart: the last left at least ~0.5 s after the first.
    assert value["last_token_s"] - value["first_token_s"] >= 0.4
    assert value["latency_s"] is not None
