"""Ask a question, then vote on its answer (thumbs up/down and an optional comment).

    python client_examples/send_feedback.py --vote down --comment "The page on X is missing" \
        "How do I rotate the signing key?"
    python client_examples/send_feedback.py --thread T --message M --vote up   # vote on an old answer

The vote goes to `POST /chat/api/feedback` on the same server (served by `http.app`), which
checks that the thread is yours and the message is an answer in it, and stores one vote per
user per answer in the platform store (a second vote replaces the first). Operators see the
votes in the answers report (`python -m commands.report`).
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx
from _common import base_parser, client_for


async def main() -> int:
    parser = base_parser(__doc__ or "", question=False)
    parser.add_argument("question", nargs="*", help="ask this first and vote on its answer")
    parser.add_argument("--vote", choices=["up", "down"], required=True)
    parser.add_argument("--comment", default="", help="optional, at most 2,000 characters")
    parser.add_argument("--thread", help="vote on an answer of this thread instead of asking")
    parser.add_argument("--message", help="the answer's message id (with --thread)")
    args = parser.parse_args()
    client = client_for(args)
    if args.thread and args.message:
        thread_id, message_id, run_id = args.thread, args.message, None
    elif args.question:
        thread = await client.threads.create(metadata={"user_id": args.user})
        thread_id = thread["thread_id"]
        run = await client.runs.create(
            thread_id,
            args.graph,
            input={"messages": [{"role": "user", "content": " ".join(args.question)}]},
        )
        await client.runs.join(thread_id, run["run_id"])
        state = await client.threads.get_state(thread_id)
        answer = state["values"]["messages"][-1]
        thread_id, message_id, run_id = thread_id, answer["id"], run["run_id"]
        print(str(answer.get("content", ""))[:300] + "…\n")
    else:
        parser.error("give a question, or --thread and --message")
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else {}
    async with httpx.AsyncClient(base_url=args.url, headers=headers, timeout=30) as http:
        r = await http.post(
            "/chat/api/feedback",
            json={
                "thread_id": thread_id,
                "message_id": message_id,
                "run_id": run_id,
                "vote": args.vote,
                "comment": args.comment,
            },
        )
    if r.status_code != 200:
        print(f"feedback refused ({r.status_code}): {r.text}", file=sys.stderr)
        return 1
    print(json.dumps(r.json(), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
