"""A real model is sent the current turn and the latest earlier turns within a token budget."""

from __future__ import annotations

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from graphs.context import Context
from graphs.middleware.history_budget import HistoryBudgetMiddleware, within_budget
from tests.fixtures.fake_chat import ScriptedChatModel

ANSWER = "An answer of some length. " * 40  # about 260 tokens


@tool
def search_docs(query: str) -> str:
    """Search the docs."""
    return "results for " + query


def _history(turns: int) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for t in range(turns):
        out += [HumanMessage(f"Question {t}?"), AIMessage(ANSWER)]
    return out


def test_the_current_turn_stays_whole_and_earlier_turns_start_at_a_question() -> None:
    current: list[BaseMessage] = [
        HumanMessage("Now?"),
        AIMessage("", tool_calls=[{"name": "search_docs", "args": {}, "id": "c1"}]),
        ToolMessage("BIG " * 2000, tool_call_id="c1"),
    ]
    kept = within_budget([*_history(30), *current], max_tokens=1000)
    assert kept[-3:] == current
    earlier = kept[:-3]
    assert earlier and earlier[0].type == "human" and len(earlier) % 2 == 0
    assert count_tokens_approximately(earlier) <= 1000
    assert earlier[-1].text == ANSWER and earlier[-2].text == "Question 29?"


def test_a_short_history_passes_unchanged() -> None:
    messages = [*_history(2), HumanMessage("Now?")]
    assert within_budget(messages, max_tokens=6000) == messages


def test_request_size_is_flat_once_the_budget_is_reached() -> None:
    model = ScriptedChatModel([AIMessage(ANSWER)])
    agent = create_agent(
        model,
        middleware=[HistoryBudgetMiddleware(1500)],
        context_schema=Context,
        checkpointer=InMemorySaver(),
    )
    cfg = {"configurable": {"thread_id": "t"}}
    for t in range(30):
        agent.invoke({"messages": [HumanMessage(f"Question {t}?")]}, cfg)
    sizes = [count_tokens_approximately(prompt) for prompt in model.seen]
    assert sizes[4] < sizes[9]  # still growing below the budget
    assert max(sizes[12:]) - min(sizes[12:]) <= count_tokens_approximately(_history(1))
    assert max(sizes) <= 1500 + count_tokens_approximately([HumanMessage("Question 29?")]) + 10
    state = agent.get_state(cfg).values["messages"]
    assert len(state) == 60  # the thread itself keeps every turn


def test_zero_switches_the_budget_off() -> None:
    model = ScriptedChatModel([AIMessage(ANSWER)])
    agent = create_agent(
        model, middleware=[HistoryBudgetMiddleware(0)], checkpointer=InMemorySaver()
    )
    cfg = {"configurable": {"thread_id": "t"}}
    for t in range(10):
        agent.invoke({"messages": [HumanMessage(f"Question {t}?")]}, cfg)
    assert len(model.seen[-1]) == 19
