"""Request size of a real (scripted) model over a long conversation, history budget on and off.

    .venv/bin/python -m bench.request_budget                # 60 turns, budget 6000 vs off
    .venv/bin/python -m bench.request_budget --turns 90 --budget 3000

docs_agent as packaged (tools, middleware, citation check) on the repository's own docs/ and kb/,
with the chat model replaced by a scripted one that searches once and then answers at a real
answer's length (about 1.5 KB). Each turn's first model request is measured as the JSON of the
messages it was sent (the system prompt and tool schemas are the same every turn and left out).
Reports the size at turns 5 / 30 / 60 in KiB: with the budget the size stops growing once the
earlier turns reach it; without it, it grows with every turn.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import uuid
from typing import Any

from langchain_core.language_models.fake_chat_models import (
    FakeMessagesListChatModel,
)
from langchain_core.messages import AIMessage, BaseMessage, messages_to_dict
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from bench.harness import REPO_ROOT

ANSWER = (
    "Start the server with `langgraph dev --port 9000`; the port is the only setting it needs. "
    * 18
    + "\n\nSources: docs/install.md"
)


class RecordingModel(FakeMessagesListChatModel):
    """Searches on a turn's first call, answers on its second; records each request's size."""

    sizes: list[tuple[int, int]] = Field(default_factory=list)  # (turn, bytes of messages)
    turn: int = 0
    responses: list[BaseMessage] = Field(default_factory=lambda: [AIMessage("")])

    def bind_tools(self, tools: Any, **kwargs: Any) -> RecordingModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        last = messages[-1]
        if last.type == "human":  # the turn's first call
            self.sizes.append((self.turn, len(json.dumps(messages_to_dict(messages)))))
            reply = AIMessage(
                "",
                tool_calls=[
                    {"name": "search_docs", "args": {"query": last.text}, "id": uuid.uuid4().hex}
                ],
            )
        else:
            reply = AIMessage(ANSWER)
        return ChatResult(generations=[ChatGeneration(message=reply)])


def run(turns: int, budget: int) -> dict[int, int]:
    """Bytes of each turn's first request over `turns` turns of one thread."""
    from graphs import models
    from graphs.docs_agent import build_docs_agent
    from settings import current

    os.environ["DOCS_AGENT_HISTORY_TOKENS"] = str(budget)
    os.environ["DOCS_AGENT_NUM_SUGGESTIONS"] = "0"
    current.cache_clear()
    model = RecordingModel()
    models.load_chat_model = lambda spec, streaming=True: model  # type: ignore[assignment]
    agent = build_docs_agent(checkpointer=InMemorySaver())
    questions = [
        json.loads(line)["question"]
        for line in (REPO_ROOT / "bench/eval/newcomer.jsonl").read_text().splitlines()
        if line.strip()
    ]
    cfg = {"configurable": {"thread_id": uuid.uuid4().hex}}
    for t in range(1, turns + 1):
        model.turn = t
        agent.invoke(
            {"messages": [{"role": "user", "content": questions[t % len(questions)]}]},
            cfg,
            context={"model": "openai:scripted"},
        )
    return dict(model.sizes)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--budget", type=int, default=6000)
    args = parser.parse_args()
    os.environ.setdefault("DOCS_AGENT_INDEX_DIR", tempfile.mkdtemp(prefix="request-budget-"))
    marks = [t for t in (5, 30, 60, args.turns) if t <= args.turns]
    marks = sorted(set(marks))
    rows = {"budget": run(args.turns, args.budget), "off": run(args.turns, 0)}
    print(f"request size (KiB of messages) at turn {' / '.join(map(str, marks))}")
    for name, sizes in rows.items():
        label = f"budget {args.budget} tokens" if name == "budget" else "no budget"
        cells = " / ".join(f"{sizes[t] / 1024:.1f}" for t in marks)
        print(f"  {label:<22} {cells}")


if __name__ == "__main__":
    main()
