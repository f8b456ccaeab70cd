"""Every way the scripted model can fail, on a real `langgraph dev`, as a reader receives it.

The scripted OpenAI-compatible model (`tests/fixtures/fake_openai.py`) fails in every way it
supports — HTTP 400/401/403/404/429/500/502/503, a Retry-After past the reader's wait budget, a
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

import json
import re
import uuid
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import pytest
from langgraph_sdk import get_client

from server import report_access
from tests.e2e.conftest import langgraph_dev
from tests.fixtures.fake_openai import FakeOpenAI, Step

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240), pytest.mark.asyncio(loop_scope="module")]

# What must never reach a reader: exception or class names, tracebacks, module paths.
LEAK_RE = re.compile(
    r"\b\w*(?:Error|Exception)\b|Traceback|File \"|"
    r"\b(?:openai|httpx\w*|httpcore\w*|langchain\w*|langgraph\w*|graphs|tools|server|anyio)\.[a-z_]"
)
QUESTION = "How do I install the server?"
SECOND = "And how do I stream tokens?"
SECOND_ANSWER = "Stream them with stream_mode set to messages."
MANY = 9  # more steps than every retry of the default settings takes


@dataclass
class Case:
    """One way to fail: the model's script, the kind the turn must end with (None: answered)."""

    name: str
    steps: list[Step]
    kind: str | None
    context: dict[str, Any] = field(default_factory=dict)
    refusing: bool = False


CASES = [
    Case("401_key", [Step("status", status=401)] * MANY, "refused"),
    Case("403_access", [Step("status", status=403)] * MANY, "refused"),
    Case("404_model", [Step("status", status=404)] * MANY, "refused"),
    Case("400_request", [Step("status", status=400)] * MANY, "refused"),
    Case("429_exhausted", [Step("status", status=429, retry_after="0")] * MANY, "rate_limited"),
    Case("429_long_wait", [Step("status", status=429, retry_after="30")] * MANY, "rate_limited"),
    Case("500", [Step("status", status=500)] * MANY, "model_unavailable"),
    Case("502", [Step("status", status=502)] * MANY, "model_unavailable"),
    Case(
        "503_retry_after",
        [Step("status", status=503, retry_after="20")] * MANY,
        "model_unavailable",
    ),
    Case("timeout", [Step("slow", delay=2.0)] * MANY, "timeout"),
    Case(
        "stream_cut",
        [Step("reset", content="Install it with pip and then run the server.")] * MANY,
        "stream_cut",
    ),
    Case("malformed_json", [Step("malformed")] * MANY, "bad_reply"),
    Case("bad_tool_args", [Step("bad_args")] * MANY, "bad_reply"),
    Case("empty_completion", [Step("empty")] * MANY, "bad_reply"),
    Case("connection_refused", [], "model_unavailable", refusing=True),
    Case("engine", [], "engine", context={"model": "nosuchprovider:some-model"}),
    # Recovered on a retry, or not a failure at all: an answer, and still no names anywhere.
    Case("stream_cut_then_ok", [Step("reset"), Step("text", content="Install it with pip.")], None),
    Case(
        "429_then_ok",
        [Step("status", status=429, retry_after="1"), Step("text", content="Use pip.")],
        None,
    ),  # fmt: skip
    # langchain-openai drops a refusal from a streamed reply (shown as text when not streamed,
    # tests/e2e/test_faults.py): streamed, it is an empty completion, retried, then `bad_reply`.
    Case(
        "refusal", [Step("refusal", content="I can't help with that request.")] * MANY, "bad_reply"
    ),
    Case("bad_suggestions", [Step("text", content="Install it with pip."), Step("bad_json")], None),
]


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


def _ai_texts(messages: Any) -> list[str]:
    """The texts of the AI messages in a list of serialized messages (tool output excluded)."""
    out = []
    for m in messages if isinstance(messages, list) else []:
        if isinstance(m, dict) and m.get("type") in ("ai", "AIMessageChunk"):
            out.append(
                json.dumps([m.get("content"), m.get("additional_kwargs")], ensure_ascii=False)
            )
    return out


def reader_texts(event: str, data: Any) -> list[str]:
    """Every text of one stream event that a reader's client may show."""
    if event.startswith(("error", "custom")):
        return [json.dumps(data, ensure_ascii=False)]
    if event.startswith("messages"):
        chunk = data[0] if isinstance(data, list) and data else data
        return _ai_texts([chunk])
    if event.startswith("values") and isinstance(data, dict):
        return _ai_texts(data.get("messages"))
    if event.startswith("updates") and isinstance(data, dict):
        return [t for update in data.values() if isinstance(update, dict) for t in _ai_texts(update.get("messages"))]  # fmt: skip
    return []


def leaks(texts: list[str]) -> list[str]:
    """The leaked names in `texts` (each match once)."""
    return sorted({m.group(0) for t in texts for m in LEAK_RE.finditer(t)})


async def ask(
    url: str, thread: str, question: str, context: dict[str, Any], fake: FakeOpenAI | None = None
) -> tuple[list[str], list[Any]]:
    """One streamed run; (reader texts, error events). With `fake`, its port is closed meanwhile."""
    client = get_client(url=url)
    texts: list[str] = []
    errors: list[Any] = []
    with fake.refusing() if fake else nullcontext():
        async for part in client.runs.stream(
            thread,
            "docs_agent",
            input={"messages": [{"role": "user", "content": question}]},
            context=context,
            stream_mode=["values", "updates", "messages-tuple", "custom"],
            stream_subgraphs=True,
        ):
            texts.extend(reader_texts(part.event, part.data))
            if part.event.startswith("error"):
                errors.append(part.data)
    return texts, errors


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
    texts.extend(_ai_texts([final]))
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
