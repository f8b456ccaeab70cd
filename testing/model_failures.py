"""Every way the scripted model can fail, and what a reader may be shown: one scenario, two users.

tests/e2e/test_model_failures_e2e.py checks each case on a real `langgraph dev`;
bench/model_failures.py measures the same cases on this revision and a baseline. The scripted
OpenAI-compatible model (testing/fake_openai.py) fails in every way it supports; `reader_texts`
picks out every text of a stream event a reader's client may show, and `leaks` what must never be
among them (exception or class names, tracebacks, module paths).
"""

from __future__ import annotations

import json
import re
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from langgraph_sdk import get_client

from testing.fake_openai import FakeOpenAI, Step

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


def ai_texts(messages: Any) -> list[str]:
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
        return ai_texts([chunk])
    if event.startswith("values") and isinstance(data, dict):
        return ai_texts(data.get("messages"))
    if event.startswith("updates") and isinstance(data, dict):
        return [t for update in data.values() if isinstance(update, dict) for t in ai_texts(update.get("messages"))]  # fmt: skip
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
