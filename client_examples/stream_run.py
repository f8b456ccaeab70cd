"""Ask one question and stream the run: answer tokens live, tool calls, progress, final message.

    python client_examples/stream_run.py --user alice "How do I stream tokens from subgraphs?"

Streams `values`, `updates`, `messages` and `custom` with `stream_subgraphs=True`:
- `messages/partial` carries the answer text so far (we print only the new part),
- `updates` shows each node's output (tool calls, tool results),
- `custom` carries tool progress `{"name": "tool_feedback", "data": {"feedback": ...}}`,
- `values` is the whole state; its last message is the final answer.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from _common import base_parser, client_for
from langgraph_sdk.errors import NotFoundError


def _dim(text: str) -> str:
    return f"\x1b[2m{text}\x1b[0m" if sys.stdout.isatty() else text


async def main() -> int:
    parser = base_parser(__doc__ or "")
    parser.add_argument("--thread", help="reuse this thread id instead of creating one")
    parser.add_argument(
        "--stats", action="store_true", help="print timing and citation stats as JSON at the end"
    )
    args = parser.parse_args()
    client = client_for(args)
    question = " ".join(args.question)

    if args.thread:
        try:
            thread = await client.threads.get(args.thread)
        except NotFoundError:
            print(
                f"Thread {args.thread} not found (expired or not yours); starting a new one.",
                file=sys.stderr,
            )
            thread = await client.threads.create(metadata={"user_id": args.user})
    else:
        thread = await client.threads.create(metadata={"user_id": args.user})
    print(_dim(f"thread {thread['thread_id']} (user {args.user}, graph {args.graph})"))

    printed: dict[str, int] = {}
    tool_calls = 0
    tokens = 0
    final: dict = {}
    start = time.perf_counter()
    first_token = last_token = None
    async for part in client.runs.stream(
        thread["thread_id"],
        args.graph,
        input={"messages": [{"role": "user", "content": question}]},
        stream_mode=["values", "updates", "messages", "custom"],
        stream_subgraphs=True,
    ):
        event, data = part.event, part.data
        if event.startswith("messages/partial") and "|" not in event:
            for msg in data:
                if msg.get("type") not in ("ai", "AIMessageChunk") or msg.get("tool_calls"):
                    continue
                text = msg.get("content") if isinstance(msg.get("content"), str) else ""
                seen = printed.get(msg["id"], 0)
                if len(text) > seen:
                    now = time.perf_counter()
                    first_token = first_token or now
                    last_token = now
                    tokens += 1
                    print(text[seen:], end="", flush=True)
                    printed[msg["id"]] = len(text)
        elif event.startswith("updates"):
            for node, update in (data or {}).items():
                for msg in (update or {}).get("messages", []) if isinstance(update, dict) else []:
                    for call in msg.get("tool_calls") or []:
                        tool_calls += 1
                        print(
                            _dim(
                                f"→ {node}: {call['name']}({json.dumps(call['args'], ensure_ascii=False)[:120]})"
                            )
                        )
        elif event.startswith("custom"):
            if isinstance(data, dict) and data.get("name") == "tool_feedback":
                print(_dim(f"… {data['data']['feedback']}"))
        elif event == "values":
            final = data
        elif event == "error":
            print(f"\nerror: {data}", file=sys.stderr)
            return 1
    print()
    messages = final.get("messages", []) if isinstance(final, dict) else []
    answer = messages[-1] if messages else {}
    if not printed and answer.get("content"):
        print(answer["content"])
    suggests = (answer.get("additional_kwargs") or {}).get("suggests") or []
    for s in suggests:
        print(_dim(f"  [{s.get('position', 0) + 1}] {s.get('label') or s.get('prompt')}"))
    if args.stats:
        content = answer.get("content") if isinstance(answer.get("content"), str) else ""
        cited = sorted(
            {
                line.split(". ", 1)[1]
                for line in content.splitlines()
                if line[:1].isdigit() and ". " in line
            }
        )
        print(
            json.dumps(
                {
                    "thread_id": thread["thread_id"],
                    "seconds_to_first_token": round(first_token - start, 3)
                    if first_token
                    else None,
                    "seconds_to_last_token": round(last_token - start, 3) if last_token else None,
                    "token_events": tokens,
                    "tool_calls": tool_calls,
                    "sources_cited": cited,
                },
                indent=2,
            ),
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
