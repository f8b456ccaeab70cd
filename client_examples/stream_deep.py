"""Ask deep_agent a question and watch its three researchers work, each in its own lane.

    python client_examples/stream_deep.py --graph deep_agent "Streaming LLM tokens from subgraph does not work"

Streams `messages-tuple`, `updates`, `custom` and `values` with `stream_subgraphs=True`. Every
event name carries the namespace after `|`: events from a researcher have a segment
`docs_researcher:<id>` (or kb_/code_), which picks the lane; events with no namespace are the
orchestrator's, and the root's `messages` tokens are the answer. `custom` carries tool progress
(`tool_feedback`), `subagent_start` and the final `citation_check`; `values` is the checked answer.
"""

from __future__ import annotations

import asyncio
import json
import sys

from _common import base_parser, client_for

LANES = ("docs_researcher", "kb_researcher", "code_researcher")


def _lane(event: str) -> str | None:
    """The researcher whose namespace an event name carries, or None for the orchestrator."""
    for segment in event.split("|")[1:]:
        name = segment.split(":", 1)[0]
        if name in LANES:
            return name
    return None


def _show(lane: str, text: str) -> None:
    col = LANES.index(lane) * 4 if lane in LANES else 0
    tag = f"[{lane}]".ljust(18)
    print(" " * col + tag + text[:140].replace("\n", " "))


async def main() -> int:
    parser = base_parser(__doc__ or "")
    parser.set_defaults(graph="deep_agent")
    args = parser.parse_args()
    client = client_for(args)
    thread = await client.threads.create(metadata={"user_id": args.user})
    print(f"thread {thread['thread_id']} (user {args.user}, graph {args.graph})")
    final: dict = {}
    lanes: dict[str, str] = {}
    streamed: list[str] = []
    answer_started = False
    async for part in client.runs.stream(
        thread["thread_id"],
        args.graph,
        input={"messages": [{"role": "user", "content": " ".join(args.question)}]},
        stream_mode=["messages-tuple", "updates", "custom", "values"],
        stream_subgraphs=True,
    ):
        event, data = part.event, part.data
        ns = event.split("|")[1:]
        lane = _lane(event)
        if lane and ns:
            lanes[ns[0]] = lane  # the researcher's task namespace, for its `condense` step
        elif ns:
            lane = lanes.get(ns[0])
        if event == "error":
            print(f"\nerror: {data}", file=sys.stderr)
            return 1
        if event.startswith("messages"):
            chunk, meta = data if isinstance(data, list | tuple) and len(data) == 2 else (data, {})
            text = (
                chunk.get("content")
                if isinstance(chunk, dict) and isinstance(chunk.get("content"), str)
                else ""
            )
            if (
                "|" not in event
                and text
                and not chunk.get("tool_calls")
                and meta.get("langgraph_node") == "model"
            ):
                if not answer_started:
                    print("\n=== answer ===")
                    answer_started = True
                print(text, end="", flush=True)
                streamed.append(text)
        elif event.startswith("updates"):
            for node, update in (data or {}).items():
                if node in LANES:
                    continue  # the researcher's whole run again, one level up: already shown
                msgs = update.get("messages", []) if isinstance(update, dict) else []
                for msg in msgs:
                    for call in msg.get("tool_calls") or []:
                        _show(
                            lane or "orchestrator",
                            f"→ {call['name']}({json.dumps(call['args'], ensure_ascii=False)[:100]})",
                        )
                if isinstance(update, dict) and "findings" in update:
                    _show(lane or node, f"✓ findings: {len(str(update['findings']).split())} words")
        elif event.startswith("custom") and isinstance(data, dict):
            name, payload = data.get("name"), data.get("data") or {}
            if name == "tool_feedback":
                _show(lane or "orchestrator", f"… {payload.get('feedback')}")
            elif name == "subagent_start":
                _show(payload.get("subagent", "?"), f"started: {payload.get('task', '')}")
            elif name == "citation_check":
                final_check = payload
                print(
                    f"\n[citations] checked {final_check.get('checked')}, fixed {final_check.get('fixed')}, removed {final_check.get('removed')}"
                )
        elif event == "values":
            final = data
    messages = final.get("messages", []) if isinstance(final, dict) else []
    checked = messages[-1].get("content") if messages else ""
    if checked and checked.strip() != "".join(streamed).strip():
        # The streamed tokens came before the citation check; this is the verified text.
        print("\n=== answer with citations checked ===")
        print(checked)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
