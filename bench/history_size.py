"""Lean history and suggestion figures, on the offline model over the repo's own docs/ and kb/.

    .venv/bin/python -m bench.history_size                 # in-process: sizes, calls, 100-turn leak check
    .venv/bin/python -m bench.history_size --server-turns 10   # plus a leak check through langgraph dev

Reports:
- thread state size (JSON of the state's messages) after 10 tool-heavy turns, with history pruning
  on and off, against the size of the 10 questions and answers themselves (their text);
- model calls per turn with suggestions on and off, and how many were streamed (`_stream`) or not
  (`_generate`): suggestions must cost exactly one extra, non-streamed call per turn;
- leaked suggestion events over N turns streamed in `messages` mode: events carrying the
  suggestion call's JSON or one of the suggested prompts (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import BaseMessage, messages_to_dict
from langgraph.checkpoint.memory import InMemorySaver

from graphs.context import Context
from graphs.middleware import shared_middleware
from graphs.models import load_chat_model
from graphs.offline.model import OfflineChatModel
from graphs.prompts import SYSTEM_PROMPT
from tools import create_all_tools

QUESTIONS = [
    "How do I stream tokens from subgraphs?",
    "How do I enable authentication with bearer tokens?",
    "Where is the checkpointer TTL configured?",
    "Как настроить fallback models для OpenAI?",
    "Come configurare il checkpointer TTL?",
    "Why does the answer start with 'This is an extractive answer'?",
    "How do I deploy to LangGraph Platform?",
    "Jak włączyć auth token w Studio?",
    "How do I find a user's threads with threads.search?",
    "What does 401 Unauthorized mean and how do I fix it?",
]
CALLS: Counter[str] = Counter()


def _count_calls() -> None:
    """Count the offline model's streamed and non-streamed calls (callbacks are off for suggestions)."""
    original_generate, original_stream = OfflineChatModel._generate, OfflineChatModel._stream

    def generate(self: OfflineChatModel, *args: Any, **kwargs: Any) -> Any:
        CALLS["generate"] += 1
        return original_generate(self, *args, **kwargs)

    def stream(self: OfflineChatModel, *args: Any, **kwargs: Any) -> Any:
        CALLS["stream"] += 1
        return original_stream(self, *args, **kwargs)

    OfflineChatModel._generate = generate  # type: ignore[method-assign]
    OfflineChatModel._stream = stream  # type: ignore[method-assign]


def _agent() -> Any:
    # Same assembly as graphs/docs_agent.py, plus a checkpointer so threads keep state in-process.
    return create_agent(
        model=load_chat_model("offline"),
        tools=create_all_tools(),
        system_prompt=SYSTEM_PROMPT,
        middleware=shared_middleware(),
        context_schema=Context,
        checkpointer=InMemorySaver(),
    )


def _size(messages: list[BaseMessage]) -> int:
    return _json_size(messages_to_dict(messages))


def _leaks(chunk: BaseMessage, prompts: list[str]) -> bool:
    """The suggestion call's own output: its JSON in model text, or a suggested prompt anywhere."""
    text = chunk.text
    return (chunk.type != "tool" and '"suggests"' in text) or any(p in text for p in prompts)


async def _turns(agent: Any, n: int, ctx: Context) -> dict[str, Any]:
    """Stream n turns in `messages` + `values` mode on threads of 10 turns; count leaks and calls."""
    before = Counter(CALLS)
    leaks = events = 0
    suggested = from_suggests = 0
    thread = ""
    for i in range(n):
        if i % len(QUESTIONS) == 0:
            thread = uuid.uuid4().hex
        chunks: list[BaseMessage] = []
        last: BaseMessage | None = None
        async for mode, data in agent.astream(
            {"messages": [{"role": "user", "content": QUESTIONS[i % len(QUESTIONS)]}]},
            {"configurable": {"thread_id": thread}},
            context=ctx,
            stream_mode=["messages", "values"],
        ):
            if mode == "messages":
                chunks.append(data[0])
                events += 1
                from_suggests += str(data[1].get("langgraph_node", "")).startswith(
                    "SuggestionsMiddleware"
                )
            else:
                last = data["messages"][-1]
        prompts = (
            [s["prompt"] for s in (last.additional_kwargs.get("suggests") or [])] if last else []
        )
        suggested += bool(prompts)
        leaks += sum(_leaks(c, prompts) for c in chunks)
    used = CALLS - before
    return {
        "turns": n,
        "messages_events": events,
        "leaked_suggestion_events": leaks,
        "events_from_suggests_node": from_suggests,
        "turns_with_suggestions": suggested,
        "model_calls_streamed": used["stream"],
        "model_calls_not_streamed": used["generate"],
    }


async def _sizes(prune: bool) -> dict[str, Any]:
    agent = _agent()
    cfg = {"configurable": {"thread_id": uuid.uuid4().hex}}
    ctx = Context(prune_history=prune)
    tool_calls = 0
    for q in QUESTIONS:
        async for update in agent.astream(
            {"messages": [{"role": "user", "content": q}]}, cfg, context=ctx, stream_mode="updates"
        ):
            tool_calls += sum(
                m.type == "tool"
                for node in update.values()
                if isinstance(node, dict)
                for m in node.get("messages", [])
            )
    messages = (await agent.aget_state(cfg)).values["messages"]
    qa = [m for m in messages if m.type == "human" or (m.type == "ai" and not m.tool_calls)]
    suggests = [m.additional_kwargs.get("suggests") or [] for m in qa]
    return {
        "prune_history": prune,
        "tool_calls": tool_calls,
        "messages_in_state": len(messages),
        "state_bytes": _size(messages),
        # The 10 questions and answers three ways: their text; as a bare [{role, content}] JSON
        # conversation; and that JSON with each answer's suggestions (which the state also holds).
        "qa_text_bytes": sum(len(m.text.encode()) for m in qa),
        "qa_json_bytes": _json_size([{"role": m.type, "content": m.text} for m in qa]),
        "qa_json_with_suggests_bytes": _json_size(
            [
                {"role": m.type, "content": m.text, "suggests": s}
                for m, s in zip(qa, suggests, strict=True)
            ]
        ),
    }


def _json_size(obj: Any) -> int:
    return len(json.dumps(obj, ensure_ascii=False).encode())


async def _server_leaks(turns: int) -> dict[str, Any]:
    from langgraph_sdk import get_client

    from testing.servers import langgraph_dev

    leaks = events = 0
    with langgraph_dev(Path(tempfile.mkdtemp())) as url:
        client = get_client(url=url)
        thread = await client.threads.create()
        for i in range(turns):
            last: dict[str, Any] = {}
            seen: list[Any] = []
            async for part in client.runs.stream(
                thread["thread_id"],
                "docs_agent",
                stream_mode=["messages", "values"],
                input={"messages": [{"role": "user", "content": QUESTIONS[i % len(QUESTIONS)]}]},
            ):
                if part.event.startswith("messages"):
                    events += 1
                    seen.append(part.data)
                elif part.event == "values":
                    last = part.data["messages"][-1]
            prompts = [
                s["prompt"] for s in (last.get("additional_kwargs") or {}).get("suggests") or []
            ]
            for data in seen:
                for msg in data if isinstance(data, list) else [data]:
                    content = msg.get("content") if isinstance(msg, dict) else None
                    text = content if isinstance(content, str) else json.dumps(content)
                    if any(p in text for p in prompts) or (
                        msg.get("type") != "tool" and '"suggests": [' in text
                    ):
                        leaks += 1
    return {
        "server_turns": turns,
        "server_messages_events": events,
        "server_leaked_suggestion_events": leaks,
    }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=100, help="streamed turns for the leak check")
    parser.add_argument(
        "--server-turns",
        type=int,
        default=0,
        help="also stream this many turns through langgraph dev",
    )
    args = parser.parse_args()
    _count_calls()
    started = time.perf_counter()
    report: dict[str, Any] = {}
    on, off = await _sizes(True), await _sizes(False)
    report["history"] = {"pruned": on, "unpruned": off}
    for name, run in (("pruned", on), ("unpruned", off)):
        for base in ("qa_text_bytes", "qa_json_bytes", "qa_json_with_suggests_bytes"):
            report["history"][f"{name}_ratio_to_{base.removesuffix('_bytes')}"] = round(
                run["state_bytes"] / run[base], 3
            )
    agent = _agent()
    with_s = await _turns(agent, len(QUESTIONS), Context(num_suggestions=3))
    without = await _turns(agent, len(QUESTIONS), Context(num_suggestions=0))
    report["calls"] = {
        "with_suggestions": with_s,
        "without_suggestions": without,
        "extra_calls_per_turn": (
            with_s["model_calls_streamed"]
            + with_s["model_calls_not_streamed"]
            - without["model_calls_streamed"]
            - without["model_calls_not_streamed"]
        )
        / len(QUESTIONS),
        "extra_streamed_calls": with_s["model_calls_streamed"] - without["model_calls_streamed"],
    }
    report["leaks"] = await _turns(agent, args.turns, Context(num_suggestions=3))
    if args.server_turns:
        report["server"] = await _server_leaks(args.server_turns)
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
