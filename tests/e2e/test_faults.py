"""Fault injection through the real `langchain-openai` client against the fake OpenAI server.

docs_agent runs in-process (`build_docs_agent` + InMemorySaver), streamed and not, and through a
real `langgraph dev`. Every fault — HTTP 401, 403, 429, 5xx, a timeout, a refused connection, a
malformed (cut-off) JSON reply, and more — must end in a correct answer or a clear message, and the
thread must stay consistent: tool calls answered, the next turn works, nothing duplicated; through
the server, no error event and the thread idle after it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_sdk import get_client

from graphs.context import Context
from testing.fake_openai import FakeOpenAI, Step
from testing.servers import langgraph_dev

# One event loop for the module: langchain-openai shares one async HTTP client per base URL.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180), pytest.mark.asyncio(loop_scope="module")]

ANSWER = "According to the documentation:"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(cached_tokens=96) as server:
        yield server


@pytest.fixture(scope="module")
def agent(fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    env = {
        "OPENAI_API_KEY": "test",
        "OPENAI_BASE_URL": fake.base_url,
        "DOCS_AGENT_RETRY_INITIAL_S": "0.05",
        "DOCS_AGENT_MODEL_TIMEOUT_S": "1.5",
        "DOCS_AGENT_MEMORY": "false",
    }
    mp = pytest.MonkeyPatch()
    for k, v in env.items():
        mp.setenv(k, v)
    from graphs.docs_agent import build_docs_agent
    from settings.sources import SourceSettings
    from tools import create_all_tools, load_sources

    settings = SourceSettings.from_env(
        {"DOCS_AGENT_INDEX_DIR": str(tmp_path_factory.mktemp("index")), "DOCS_AGENT_CODE_ROOTS": ""}
    )
    yield build_docs_agent(
        tools=create_all_tools(load_sources(settings)), checkpointer=InMemorySaver()
    )
    mp.undo()


async def _turn(
    agent: Any, thread: str, text: str, ctx: Context, stream: bool
) -> list[BaseMessage]:
    config = {"configurable": {"thread_id": thread}}
    payload = {"messages": [{"role": "user", "content": text}]}
    if not stream:
        return (await agent.ainvoke(payload, config, context=ctx))["messages"]
    final: list[BaseMessage] = []
    tokens = 0
    async for mode, data in agent.astream(
        payload, config, context=ctx, stream_mode=["messages", "values"]
    ):
        if mode == "messages":
            tokens += 1
        else:
            final = data["messages"]
    assert tokens > 0, "the model did not stream"
    return final


def check_thread(messages: list[BaseMessage], questions: list[str]) -> None:
    """The thread invariants every fault must keep."""
    assert [m.content for m in messages if m.type == "human"] == questions
    ids = [m.id for m in messages]
    assert len(ids) == len(set(ids)), "duplicated message"
    answered = {m.tool_call_id for m in messages if m.type == "tool"}
    for m in messages:
        if m.type == "ai" and m.tool_calls:
            assert {c["id"] for c in m.tool_calls} <= answered, "tool call without its tool message"
    # Exactly one final AI message per question, right before the next question.
    turn_ends = [i - 1 for i, m in enumerate(messages) if m.type == "human"][1:] + [
        len(messages) - 1
    ]
    for end in turn_ends:
        assert (
            messages[end].type == "ai"
            and not messages[end].tool_calls
            and str(messages[end].content).strip()
        )
    finals = [m for m in messages if m.type == "ai" and not m.tool_calls]
    assert len(finals) == len(questions), "a failed attempt left an extra answer"


REFUSED_KEY = "refused this assistant's request"
UNREADABLE = "sent a reply that could not be used"
UNREACHABLE = "could not be reached"
OFFLINE_STAND_IN = "the configured language model (openai:"

# (name, primary script, fallback script, "offline" or None, expected text in the final answer).
# A name starting with `connection_refused` runs its first turn with the fake's port closed.
FAULTS: list[tuple[str, list[Step], list[Step] | str | None, str]] = [
    ("401_refused_key", [Step("status", status=401)] * 3, None, f"{REFUSED_KEY} (HTTP 401)"),
    ("403_refused_key", [Step("status", status=403)] * 3, None, f"{REFUSED_KEY} (HTTP 403)"),
    ("401_fallback", [Step("status", status=401)] * 3, [], ANSWER),
    ("401_offline_fallback", [Step("status", status=401)] * 9, "offline", OFFLINE_STAND_IN),
    ("malformed_json_retried", [Step("malformed")], None, ANSWER),
    ("malformed_json_exhausted", [Step("malformed")] * 3, None, UNREADABLE),
    ("connection_refused", [], None, UNREACHABLE),
    ("connection_refused_offline_fallback", [], "offline", OFFLINE_STAND_IN),
    ("429_retry_after", [Step("status", status=429, retry_after="1")], None, ANSWER),
    ("500", [Step("status", status=500)], None, ANSWER),
    ("503_then_ok", [Step("status", status=503), Step("status", status=503)], None, ANSWER),
    ("503_exhausted", [Step("status", status=503)] * 3, None, "HTTP 503"),
    ("503_fallback", [Step("status", status=503)] * 3, [], ANSWER),
    ("first_byte_after_timeout", [Step("slow", delay=2.5)], None, ANSWER),
    ("timeouts_exhausted", [Step("slow", delay=2.5)] * 3, None, "did not answer in time"),
    (
        "connection_reset",
        [Step("reset", content="This partial answer is cut off by a reset.")],
        None,
        ANSWER,
    ),
    ("malformed_tool_args", [Step("bad_args")], None, ANSWER),
    ("empty_completion", [Step("empty")], None, ANSWER),
    ("empty_exhausted", [Step("empty")] * 3, None, UNREADABLE),
]


@pytest.mark.parametrize("stream", [False, True], ids=["invoke", "stream"])
@pytest.mark.parametrize(
    ("name", "steps", "fallback", "expected"), FAULTS, ids=[f[0] for f in FAULTS]
)
async def test_fault_ends_in_answer_or_clear_message(
    agent: Any,
    fake: FakeOpenAI,
    name: str,
    steps: list[Step],
    fallback: list[Step] | str | None,
    expected: str,
    stream: bool,
) -> None:
    model = f"fault-{name}-{uuid.uuid4().hex[:6]}"
    fake.script(model, list(steps))
    ctx = Context(model=f"openai:{model}", num_suggestions=0)
    if fallback == "offline":
        ctx = Context(model=f"openai:{model}", fallback_models="offline", num_suggestions=0)
    elif fallback is not None:
        fake.script(model + "-fb", list(fallback))
        ctx = Context(
            model=f"openai:{model}", fallback_models=f"openai:{model}-fb", num_suggestions=0
        )
    thread = uuid.uuid4().hex
    start = time.monotonic()
    with _port_state(fake, name):
        messages = await _turn(agent, thread, "How do I install the server?", ctx, stream)
    elapsed = time.monotonic() - start
    assert expected in str(messages[-1].content), messages[-1].content
    if name == "429_retry_after":
        assert elapsed >= 1.0, "Retry-After was not honoured"
    if isinstance(fallback, list):
        assert fake.requests_for(model + "-fb"), "fallback model was never called"
    if name.endswith("refused_key"):
        assert len(fake.requests_for(model)) == 1, "a refused key was retried"
    check_thread(messages, ["How do I install the server?"])
    fake.clear(model)  # the provider is fixed: the same model answers the next question
    # The next turn on the same thread works and keeps the first one intact.
    messages = await _turn(agent, thread, "And how do I stream tokens?", ctx, stream)
    assert str(messages[-1].content).startswith(ANSWER)
    check_thread(messages, ["How do I install the server?", "And how do I stream tokens?"])


def _port_state(fake: FakeOpenAI, name: str) -> AbstractContextManager[None]:
    return fake.refusing() if name.startswith("connection_refused") else nullcontext()


async def test_refusal_is_shown_as_a_clear_message(agent: Any, fake: FakeOpenAI) -> None:
    model = f"refusal-{uuid.uuid4().hex[:6]}"
    fake.script(model, [Step("refusal", content="I can't help with that request.")])
    messages = await _turn(
        agent,
        "r1",
        "How do I install the server?",
        Context(model=f"openai:{model}", num_suggestions=0),
        False,
    )
    assert messages[-1].content == "I can't help with that request."
    check_thread(messages, ["How do I install the server?"])


async def test_invalid_suggestions_json_keeps_the_answer(agent: Any, fake: FakeOpenAI) -> None:
    model = f"sugg-{uuid.uuid4().hex[:6]}"
    fake.script(
        model,
        [
            Step("tool_calls", calls=[{"name": "search_docs", "arguments": {"query": "install"}}]),
            Step("text", content="Install it with pip [docs/install.md]."),
            Step("bad_json"),
        ],
    )
    messages = await _turn(
        agent,
        "s1",
        "How do I install the server?",
        Context(model=f"openai:{model}", num_suggestions=3),
        False,
    )
    assert messages[-1].content.startswith("Install it with pip")
    assert (
        len(fake.requests_for(model)) == 3
    )  # the suggestion call happened and its bad JSON was absorbed
    check_thread(messages, ["How do I install the server?"])


async def test_cached_input_tokens_are_reported(agent: Any, fake: FakeOpenAI) -> None:
    model = f"cache-{uuid.uuid4().hex[:6]}"
    messages = await _turn(
        agent,
        "c1",
        "How do I install the server?",
        Context(model=f"openai:{model}", num_suggestions=0),
        False,
    )
    usage = [
        m.usage_metadata for m in messages if m.type == "ai" and getattr(m, "usage_metadata", None)
    ]
    assert usage and all(u["input_token_details"]["cache_read"] == 96 for u in usage)
    # The prompt prefix is stable: the same system prompt and tools first on every call.
    reqs = fake.requests_for(model)
    assert len({r.messages[0]["content"] for r in reqs}) == 1 and reqs[0].messages[0]["role"] in (
        "system",
        "developer",
    )
    assert len({tuple(r.tools) for r in reqs}) == 1


@pytest.fixture(scope="module")
def dev_url(fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real `langgraph dev` whose OpenAI is the fake; each test picks its model per run."""
    env = {
        "OPENAI_API_KEY": "test",
        "OPENAI_BASE_URL": fake.base_url,
        "DOCS_AGENT_MODEL": "openai:dev-default",
        "DOCS_AGENT_RETRY_INITIAL_S": "0.05",
        "DOCS_AGENT_MODEL_RETRIES": "3",
        "DOCS_AGENT_MODEL_TIMEOUT_S": "1.5",
        "DOCS_AGENT_NUM_SUGGESTIONS": "0",
        "DOCS_AGENT_CODE_ROOTS": "",
    }
    with langgraph_dev(tmp_path_factory.mktemp("dev"), extra_env=env) as url:
        yield url


async def _server_turn(
    url: str,
    thread_id: str,
    question: str,
    context: dict[str, Any],
    refusing: FakeOpenAI | None = None,
) -> list[Any]:
    """One streamed run through the server (with `refusing`'s port closed); its error events."""
    client = get_client(url=url)
    errors = []
    with refusing.refusing() if refusing else nullcontext():
        async for part in client.runs.stream(
            thread_id,
            "docs_agent",
            input={"messages": [{"role": "user", "content": question}]},
            context=context,
            stream_mode=["values", "messages-tuple"],
        ):
            if part.event == "error":
                errors.append(part.data)
    return errors


async def test_faults_through_langgraph_dev(fake: FakeOpenAI, dev_url: str) -> None:
    model = f"dev-{uuid.uuid4().hex[:6]}"
    fake.script(
        model,
        [Step("status", status=429, retry_after="0"), Step("status", status=503), Step("reset")],
    )
    client = get_client(url=dev_url)
    thread = await client.threads.create()
    questions = ["How do I install the server?", "And how do I stream tokens?"]
    for q in questions:
        assert not await _server_turn(dev_url, thread["thread_id"], q, {"model": f"openai:{model}"})
    state = await client.threads.get_state(thread["thread_id"])
    msgs = state["values"]["messages"]
    assert [m["content"] for m in msgs if m["type"] == "human"] == questions
    finals = [m for m in msgs if m["type"] == "ai" and not m.get("tool_calls")]
    assert len(finals) == 2 and all(m["content"].startswith(ANSWER) for m in finals)
    answered = {m["tool_call_id"] for m in msgs if m["type"] == "tool"}
    assert all(
        {c["id"] for c in m.get("tool_calls") or []} <= answered for m in msgs if m["type"] == "ai"
    )
    assert len({m["id"] for m in msgs}) == len(msgs)


# The seven kinds of model failure the server must answer with a clear message: (name, script
# exhausting every retry, fallback or None, expected text).
SERVER_KINDS: list[tuple[str, list[Step], str | None, str]] = [
    ("401", [Step("status", status=401)] * 9, None, f"{REFUSED_KEY} (HTTP 401)"),
    ("403", [Step("status", status=403)] * 9, None, f"{REFUSED_KEY} (HTTP 403)"),
    ("429", [Step("status", status=429, retry_after="0")] * 9, None, "HTTP 429"),
    ("5xx", [Step("status", status=502)] * 9, None, "HTTP 502"),
    ("timeout", [Step("slow", delay=2.0)] * 9, None, "did not answer in time"),
    ("connection_refused", [], None, UNREACHABLE),
    ("malformed_json", [Step("malformed")] * 9, None, UNREADABLE),
    ("401_offline_fallback", [Step("status", status=401)] * 9, "offline", OFFLINE_STAND_IN),
]


@pytest.mark.parametrize(
    ("name", "steps", "fallback", "expected"), SERVER_KINDS, ids=[k[0] for k in SERVER_KINDS]
)
async def test_every_failure_kind_through_langgraph_dev(
    fake: FakeOpenAI,
    dev_url: str,
    name: str,
    steps: list[Step],
    fallback: str | None,
    expected: str,
) -> None:
    model = f"kind-{name}-{uuid.uuid4().hex[:6]}"
    fake.script(model, list(steps))
    context: dict[str, Any] = {"model": f"openai:{model}"}
    if fallback:
        context["fallback_models"] = fallback
    client = get_client(url=dev_url)
    thread = (await client.threads.create())["thread_id"]
    first = "How do I install the server?"
    refusing = fake if name.startswith("connection_refused") else None
    assert not await _server_turn(dev_url, thread, first, context, refusing), "raw error event"
    assert (await client.threads.get(thread))["status"] == "idle"
    state = await client.threads.get_state(thread)
    msgs = state["values"]["messages"]
    assert msgs[-1]["type"] == "ai" and expected in msgs[-1]["content"], msgs[-1]["content"]
    if not fallback:  # (an extractive answer may quote a page that mentions an error code)
        assert "Traceback" not in msgs[-1]["content"] and "Error code" not in msgs[-1]["content"]
    # The provider is fixed: the same thread answers the next question.
    fake.clear(model)
    second = "And how do I stream tokens?"
    assert not await _server_turn(dev_url, thread, second, context)
    msgs = (await client.threads.get_state(thread))["values"]["messages"]
    assert [m["content"] for m in msgs if m["type"] == "human"] == [first, second]
    assert msgs[-1]["content"].startswith(ANSWER)
    assert (await client.threads.get(thread))["status"] == "idle"
