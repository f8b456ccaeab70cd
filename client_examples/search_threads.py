"""List a user's threads, newest first: `client.threads.search(metadata={"user_id": ...})`.

python client_examples/search_threads.py --user alice --limit 10
"""

from __future__ import annotations

import asyncio
import sys

from _common import base_parser, client_for
from langgraph_sdk.errors import NotFoundError


def _first_question(thread: dict) -> str:
    values = thread.get("values") or {}
    for msg in values.get("messages", []) if isinstance(values, dict) else []:
        if msg.get("type") == "human":
            content = msg.get("content")
            return (content if isinstance(content, str) else str(content))[:80]
    return ""


async def main() -> int:
    parser = base_parser(__doc__ or "", question=False)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--open", metavar="THREAD_ID", help="print one thread's messages")
    args = parser.parse_args()
    client = client_for(args)
    if args.open:
        try:
            state = await client.threads.get_state(args.open)
        except NotFoundError:
            print(
                f"Thread {args.open} is gone: it expired (TTL) or belongs to someone else.",
                file=sys.stderr,
            )
            return 1
        for msg in state["values"].get("messages", []):
            print(f"[{msg['type']}] {msg.get('content')}")
        return 0
    threads = await client.threads.search(
        metadata={"user_id": args.user}, limit=args.limit, sort_by="updated_at", sort_order="desc"
    )
    if not threads:
        print(f"No threads for user {args.user!r}.")
        return 0
    for t in threads:
        graph = (t.get("metadata") or {}).get("graph_id", "?")
        print(
            f"{t['thread_id']}  {t['updated_at'][:19]}  {graph:<10}  {t['status']:<8}  {_first_question(t)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
