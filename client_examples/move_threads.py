"""Move a user's threads (latest state) and memories from one server to another: dev → Aegra → Platform.

python client_examples/move_threads.py --url http://old:8123 --to http://new:8123 --user alice
    [--token T] [--to-token T2] [--thread ID ...]

Runs as the user on both servers (their token), so each home's auth stamps the owner itself. Each
thread keeps its id and metadata; its messages are written as the graph's last node, so the thread
is finished and takes the next question; checkpoint history before the latest state stays behind.
Memories under the user's memory namespace are copied too. A thread already on the target is left alone.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from _common import base_parser, client_for
from langgraph_sdk import get_client

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from server.identity import memory_namespace  # noqa: E402 - the repository root, just added


async def last_node(dst: Any, graph_id: str) -> str:
    """The graph's last node on `dst`: state written "as" it has nothing left to run.

    Read from the served graph (its one plain edge into `__end__`), not written down here, so
    a change to the middleware's order cannot leave moved threads half-finished.
    """
    found = await dst.assistants.search(graph_id=graph_id, limit=1)
    graph = await dst.assistants.get_graph(found[0]["assistant_id"] if found else graph_id)
    ends = [
        e["source"]
        for e in graph.get("edges", [])
        if e.get("target") == "__end__" and not e.get("conditional")
    ]
    if len(ends) != 1:
        raise SystemExit(f"{graph_id}: cannot tell its last node from {ends or 'no edge'}")
    return str(ends[0])


async def move_thread(src: Any, dst: Any, thread_id: str) -> int:
    """Copy one thread; the number of messages written (0 when it already exists on `dst`)."""
    thread = await src.threads.get(thread_id)
    state = await src.threads.get_state(thread_id)
    created = await dst.threads.create(
        thread_id=thread_id, metadata=thread.get("metadata") or {}, if_exists="do_nothing"
    )
    if created.get("values"):
        return 0
    messages = (state.get("values") or {}).get("messages") or []
    if messages:
        graph_id = str((thread.get("metadata") or {}).get("graph_id") or "docs_agent")
        await dst.threads.update_state(
            thread_id, {"messages": messages}, as_node=await last_node(dst, graph_id)
        )
    return len(messages)


async def move_memories(src: Any, dst: Any, user: str) -> int:
    """Copy the user's memories; how many."""
    namespace = list(memory_namespace(user))  # the label the server uses (`carol@example%2Ecom`)
    found = await src.store.search_items(namespace, limit=100)
    for item in found.get("items", []):
        await dst.store.put_item(item["namespace"], item["key"], item["value"])
    return len(found.get("items", []))


async def main() -> int:
    parser = base_parser(__doc__ or "", question=False)
    parser.add_argument("--to", required=True, help="URL of the server to move to")
    parser.add_argument("--to-token", default="", help="the user's token there (default: --token)")
    parser.add_argument("--thread", nargs="*", help="only these thread ids")
    args = parser.parse_args()
    src = client_for(args)
    token = args.to_token or args.token
    dst = get_client(url=args.to, headers={"Authorization": f"Bearer {token}"} if token else None)
    ids = args.thread or [
        t["thread_id"]
        for t in await src.threads.search(metadata={"user_id": args.user}, limit=1000)
    ]
    for tid in ids:
        print(f"{tid}: {await move_thread(src, dst, tid)} messages")
    print(f"memories: {await move_memories(src, dst, args.user)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
