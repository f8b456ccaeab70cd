"""A terminal chat with docs-agent: threads by user, live tokens, progress, suggestions, Ctrl-C.

    python client_examples/chat.py --user alice            # pick one of alice's threads or start one
    python client_examples/chat.py --user alice --new      # always a new thread
    python client_examples/chat.py --graph deep_agent      # shows subagent activity as it happens

In the chat: type a question; type a suggestion's number to send its prompt; `/new` starts a new
thread, `/quit` (or Ctrl-D) leaves. Ctrl-C during an answer cancels the run on the server
(`runs.cancel`), not just the display.

Uses the synchronous langgraph-sdk client on purpose: Ctrl-C then arrives as a plain
KeyboardInterrupt in the streaming loop, which asyncio's own SIGINT handling would swallow while
the prompt waits for input.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from _common import base_parser
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import NotFoundError
from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

STREAM_MODES = ["messages-tuple", "custom", "updates", "values"]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    return ""


def _subagent(namespace: str) -> str:
    """`tools:…|docs_researcher:…|model:…` → `docs_researcher`: the subagent that emitted the event."""
    names = [segment.split(":", 1)[0] for segment in namespace.split("|") if segment]
    return next(
        (n for n in names if n not in {"tools", "model", "task"}), names[0] if names else "subagent"
    )


class Chat:
    """One user's chat session on one thread at a time."""

    def __init__(self, args: argparse.Namespace) -> None:
        """Connect; nothing is sent until a thread is chosen."""
        headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
        self.client = get_sync_client(url=args.url, headers=headers)
        self.console = Console(highlight=False)
        self.args = args
        self.thread_id = ""
        self.suggests: list[dict[str, Any]] = []

    # -- threads -------------------------------------------------------------------------------

    def new_thread(self) -> None:
        """Create a thread owned by this user (metadata.user_id)."""
        thread = self.client.threads.create(metadata={"user_id": self.args.user})
        self.thread_id = thread["thread_id"]
        self.suggests = []
        self.console.print(f"[dim]new thread {self.thread_id}[/dim]")

    def resume(self, thread_id: str) -> bool:
        """Open an existing thread and show its last exchange; False when it is gone (404)."""
        try:
            state = self.client.threads.get_state(thread_id)
        except NotFoundError:
            self.console.print(
                f"[yellow]Thread {thread_id} is gone (expired or not yours).[/yellow]"
            )
            return False
        self.thread_id = thread_id
        messages = (
            (state.get("values") or {}).get("messages", [])
            if isinstance(state.get("values"), dict)
            else []
        )
        self.console.print(f"[dim]resumed thread {thread_id} ({len(messages)} messages)[/dim]")
        exchange = [
            m
            for m in messages
            if m.get("type") == "human" or (m.get("type") == "ai" and not m.get("tool_calls"))
        ]
        for msg in exchange[-2:]:
            who = "you" if msg.get("type") == "human" else "assistant"
            self.console.print(f"[dim]{who}:[/dim] {_text(msg.get('content'))[:300]}")
        self.show_suggestions(messages[-1] if messages else {})
        return True

    def pick_thread(self) -> None:
        """Offer this user's recent threads (threads.search by metadata), or start a new one."""
        if self.args.thread and self.resume(self.args.thread):
            return
        threads = (
            []
            if self.args.new
            else self.client.threads.search(
                metadata={"user_id": self.args.user},
                limit=10,
                sort_by="updated_at",
                sort_order="desc",
            )
        )
        if not threads:
            self.new_thread()
            return
        table = Table(title=f"Threads of {self.args.user}", show_lines=False)
        table.add_column("#", justify="right")
        table.add_column("updated")
        table.add_column("first question")
        for i, t in enumerate(threads, 1):
            values = t.get("values") if isinstance(t.get("values"), dict) else {}
            first = next(
                (
                    _text(m.get("content"))
                    for m in values.get("messages", [])
                    if m.get("type") == "human"
                ),
                "",
            )
            table.add_row(str(i), str(t.get("updated_at", ""))[:19], first[:70])
        self.console.print(table)
        choice = Prompt.ask(
            "Thread number, or Enter for a new thread", default="", show_default=False
        )
        if choice.strip().isdigit() and 1 <= int(choice) <= len(threads):
            if self.resume(threads[int(choice) - 1]["thread_id"]):
                return
        self.new_thread()

    # -- one turn ------------------------------------------------------------------------------

    def show_suggestions(self, last: dict[str, Any]) -> None:
        """Numbered follow-ups from the answer's `additional_kwargs["suggests"]`."""
        self.suggests = sorted(
            (last.get("additional_kwargs") or {}).get("suggests") or [],
            key=lambda s: s.get("position") or 0,
        )
        for i, s in enumerate(self.suggests, 1):
            label = s.get("label") or s.get("prompt")
            self.console.print(
                f"  [bold cyan]{i}.[/bold cyan] {label}  [dim]{s.get('prompt') if s.get('label') else ''}[/dim]"
            )

    def ask(self, question: str) -> None:
        """Stream one run; Ctrl-C cancels it on the server."""
        run_id = ""
        answer: dict[str, str] = {}  # message id -> text so far (root graph only)
        final: dict[str, Any] = {}
        active_subagents: set[str] = set()
        live = Live(Text(""), console=self.console, transient=True, refresh_per_second=12)

        def tail() -> Text:
            text = "".join(answer.values())
            lines = text.splitlines()[-max(3, self.console.height - 4) :]
            return Text("\n".join(lines))

        try:
            with live:
                for part in self.client.runs.stream(
                    self.thread_id,
                    self.args.graph,
                    input={"messages": [{"role": "user", "content": question}]},
                    stream_mode=STREAM_MODES,
                    stream_subgraphs=True,
                ):
                    event, data = part.event, part.data
                    mode, _, namespace = event.partition("|")
                    if event == "metadata":
                        run_id = data.get("run_id", "")
                    elif mode == "messages" and not namespace:
                        chunk = data[0] if isinstance(data, list) and data else {}
                        if (
                            chunk.get("type") in ("AIMessageChunk", "ai")
                            and not chunk.get("tool_calls")
                            and not chunk.get("tool_call_chunks")
                        ):
                            key = chunk.get("id") or "answer"
                            piece = _text(chunk.get("content"))
                            answer[key] = (
                                answer.get(key, "") + piece
                                if chunk["type"] == "AIMessageChunk"
                                else piece
                            )
                            live.update(tail())
                    elif (
                        mode == "custom"
                        and isinstance(data, dict)
                        and data.get("name") == "tool_feedback"
                    ):
                        who = f"{_subagent(namespace)}: " if namespace else ""
                        self.console.print(f"[dim]… {who}{data['data'].get('feedback', '')}[/dim]")
                    elif (
                        mode == "custom"
                        and isinstance(data, dict)
                        and data.get("name") == "subagent_start"
                    ):
                        info = data.get("data") or {}
                        active_subagents.add(str(info.get("subagent")))
                        self.console.print(
                            f"[magenta]↳ {info.get('subagent')}: {str(info.get('task', ''))[:100]}[/magenta]"
                        )
                    elif mode == "updates" and namespace and isinstance(data, dict):
                        name = _subagent(namespace)
                        if name not in active_subagents:
                            active_subagents.add(name)
                            self.console.print(f"[magenta]↳ {name} is working[/magenta]")
                        for update in data.values():
                            for msg in (
                                (update or {}).get("messages", [])
                                if isinstance(update, dict)
                                else []
                            ):
                                for call in msg.get("tool_calls") or []:
                                    self.console.print(
                                        f"[dim magenta]  {name} → {call.get('name')}[/dim magenta]"
                                    )
                    elif event == "values" and isinstance(data, dict):
                        final = data
                    elif event == "error":
                        self.console.print(f"[red]error: {data}[/red]")
                        return
        except KeyboardInterrupt:
            live.stop()
            if run_id:
                self.client.runs.cancel(self.thread_id, run_id)
            self.console.print("[yellow]cancelled (the run was stopped on the server)[/yellow]")
            return
        messages = final.get("messages", [])
        last = messages[-1] if messages else {}
        text = _text(last.get("content")) if last.get("type") == "ai" else "".join(answer.values())
        self.console.print(Markdown(text or "_(no answer)_"))
        self.show_suggestions(last)

    def send(self, question: str) -> None:
        """Ask on the current thread; a thread that expired meanwhile (404) is replaced by a new one."""
        try:
            self.ask(question)
        except NotFoundError:
            self.console.print(
                "[yellow]This thread has expired; continuing in a new thread.[/yellow]"
            )
            self.new_thread()
            self.ask(question)

    def loop(self) -> int:
        """Read questions until /quit, Ctrl-D or Ctrl-C at the prompt."""
        self.console.print("[dim]Type a question, a suggestion number, /new or /quit.[/dim]")
        while True:
            try:
                line = self.console.input("[bold green]you>[/bold green] ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return 0
            if not line:
                continue
            if line in {"/quit", "/exit"}:
                return 0
            if line == "/new":
                self.new_thread()
                continue
            if line.isdigit() and 1 <= int(line) <= len(self.suggests):
                line = self.suggests[int(line) - 1]["prompt"]
                self.console.print(f"[dim]→ {line}[/dim]")
            self.send(line)


def main() -> int:
    """Parse arguments, choose a thread, chat."""
    parser = base_parser(__doc__ or "", question=False)
    parser.add_argument("--thread", help="resume this thread id")
    parser.add_argument("--new", action="store_true", help="start a new thread without asking")
    args = parser.parse_args()
    chat = Chat(args)
    try:
        chat.pick_thread()
    except KeyboardInterrupt:
        return 0
    return chat.loop()


if __name__ == "__main__":
    sys.exit(main())
