"""deep_agent's researchers: one compiled subgraph per source, and the `ask_<name>` tool that runs it.

Each researcher is `<name> → condense`: `<name>` is a `create_agent` with its own prompt and only
its own tool group; `condense` caps what goes back (≤ ~400 words, every fact cited) and hands up a
structured result — the subgraph's output schema, `ResearcherOutputState`, as in
open_deep_research — so raw search output never reaches the orchestrator's context.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, NotRequired

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from graphs.citations import cited_sources, read_sources
from graphs.context import Context
from graphs.messages import current_turn
from graphs.middleware import shared_middleware
from graphs.middleware.offline_role import OfflineRole
from graphs.models import load_chat_model
from graphs.offline.roles import OfflineResearcherModel
from graphs.prompts import CODE_RESEARCHER_PROMPT, DOCS_RESEARCHER_PROMPT, KB_RESEARCHER_PROMPT
from tools.text import fenced_lines

RESEARCHER_RECURSION_LIMIT = 25
MAX_FINDINGS_WORDS = 400


@dataclass(frozen=True)
class Researcher:
    """One specialist: its name, what the orchestrator is told about it, its prompt and tools."""

    name: str
    kind: str  # docs | kb | code: the tool group it gets
    description: str
    prompt: str


RESEARCHERS = (
    Researcher(
        "docs_researcher",
        "docs",
        "Researches the product documentation; returns condensed findings cited by page URL (#section).",
        DOCS_RESEARCHER_PROMPT,
    ),
    Researcher(
        "kb_researcher",
        "kb",
        "Researches support articles (known issues, errors, FAQ); returns condensed findings cited by article id and URL.",
        KB_RESEARCHER_PROMPT,
    ),
    Researcher(
        "code_researcher",
        "code",
        "Researches the source code (where and how something is implemented); returns findings cited as path:start-end.",
        CODE_RESEARCHER_PROMPT,
    ),
)


class ResearcherOutputState(TypedDict):
    """What a researcher hands back: condensed findings, the citations in them, and what it read."""

    findings: str
    sources: list[str]  # citations in the findings, in order (code, KB, URLs)
    read: dict[str, Any]  # `ReadSources.as_dict()` of what its tools returned
    read_chars: int
    # The best calibrated search score it saw (docs and KB share one scale), None without one:
    # how strongly its source answers, so an answer can lead with the strongest researcher.
    best_score: float | None


class ResearcherState(TypedDict):
    """A researcher's working state: its own messages, then its output."""

    messages: Annotated[list[BaseMessage], add_messages]
    findings: NotRequired[str]
    sources: NotRequired[list[str]]
    read: NotRequired[dict[str, Any]]
    read_chars: NotRequired[int]
    best_score: NotRequired[float | None]


def best_search_score(turn: Sequence[BaseMessage]) -> float | None:
    """The highest calibrated score among the docs and KB search hits of a turn."""
    scores = [
        float(hit["score"])
        for m in turn
        if isinstance(m, ToolMessage) and isinstance(m.artifact, list)
        for hit in m.artifact
        if isinstance(hit, dict) and isinstance(hit.get("score"), int | float)
    ]
    return max(scores, default=None)


def condense_findings(text: str, limit: int = MAX_FINDINGS_WORDS) -> str:
    """Cap findings at `limit` words on a line boundary (a real model may overrun its brief)."""
    lines = text.strip().splitlines()
    words = 0
    kept: list[str] = []
    inside = False
    for line, now_inside in fenced_lines(lines):
        n = len(line.split())
        if words + n > limit:
            break
        kept.append(line)
        words += n
        inside = now_inside
    if inside:
        kept.append("```")
    out = "\n".join(kept).strip()
    return out if len(kept) == len(lines) else out + "\n[findings cut at ~400 words]"


def build_researcher(spec: Researcher, tools: Sequence[BaseTool]) -> Any:
    """Compile one researcher: `<name>` (create_agent over its own tools) → `condense`."""
    # The package's policy for researchers (graphs/middleware/__init__.py), then the offline role,
    # innermost so that it sees the model the policy's model choice picked.
    middleware: list[AgentMiddleware[Any, Any]] = [
        *shared_middleware(role="researcher"),
        OfflineRole(lambda m: OfflineResearcherModel(language=m.language, kind=spec.kind)),
    ]
    agent = create_agent(
        # A placeholder: ContextModelMiddleware picks the run's model.
        model=load_chat_model("offline"),
        tools=list(tools),
        system_prompt=spec.prompt,
        middleware=middleware,
        context_schema=Context,
        name=spec.name,
    )

    def condense(state: ResearcherState) -> ResearcherOutputState:
        _, turn = current_turn(state["messages"])
        final = next(
            (m for m in reversed(turn) if isinstance(m, AIMessage) and not m.tool_calls), None
        )
        findings = condense_findings(final.text if final is not None else "")
        return {
            "findings": findings or f"{spec.name}: no findings.",
            "sources": cited_sources(findings, doc_paths=True),
            "read": read_sources(turn).as_dict(),
            "read_chars": sum(len(m.text) for m in turn if isinstance(m, ToolMessage)),
            "best_score": best_search_score(turn),
        }

    graph = StateGraph(ResearcherState, context_schema=Context, output_schema=ResearcherOutputState)
    graph.add_node(spec.name, agent)
    graph.add_node("condense", condense)
    graph.add_edge(START, spec.name)
    graph.add_edge(spec.name, "condense")
    graph.add_edge("condense", END)
    return graph.compile(name=spec.name)


class AskArgs(BaseModel):
    """Arguments of an `ask_<researcher>` tool."""

    task: str = Field(
        description="A precise, self-contained research task: what to find out and why (the researcher does not see the conversation)."
    )


def make_ask_tool(spec: Researcher, researcher: Any) -> BaseTool:
    """`ask_<name>`: run the researcher subgraph on a task; the model sees only its findings.

    The artifact carries the rest of `ResearcherOutputState` (sources, what it read, how much) for
    the offline answer, the citation check and the context economy.
    """

    def _result(out: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        findings = str(out.get("findings") or f"{spec.name}: no findings.")
        return findings, {
            "researcher": spec.name,
            "sources": list(out.get("sources") or []),
            "read": dict(out.get("read") or {}),
            "read_chars": int(out.get("read_chars") or 0),
            "best_score": out.get("best_score"),
        }

    def _input(task: str) -> dict[str, Any]:
        try:
            get_stream_writer()(
                {"name": "subagent_start", "data": {"subagent": spec.name, "task": task[:300]}}
            )
        except RuntimeError:  # outside a graph run (direct tool call in a script)
            pass
        return {"messages": [HumanMessage(task)]}

    def _config(config: RunnableConfig) -> RunnableConfig:
        return {**config, "recursion_limit": RESEARCHER_RECURSION_LIMIT}

    empty = "The task is empty: say what to research."

    def ask(task: str, config: RunnableConfig) -> tuple[str, dict[str, Any]]:
        if not task.strip():
            return empty, _result({})[1]
        return _result(researcher.invoke(_input(task), _config(config)))

    async def aask(task: str, config: RunnableConfig) -> tuple[str, dict[str, Any]]:
        if not task.strip():
            return empty, _result({})[1]
        return _result(await researcher.ainvoke(_input(task), _config(config)))

    return StructuredTool.from_function(
        ask,
        coroutine=aask,
        name=f"ask_{spec.name}",
        description=spec.description,
        args_schema=AskArgs,
        response_format="content_and_artifact",
    )


def ask_tools(tools: Mapping[str, Sequence[BaseTool]]) -> list[BaseTool]:
    """One `ask_<researcher>` tool per researcher whose tool group (by kind) is not empty."""
    return [
        make_ask_tool(spec, build_researcher(spec, tools[spec.kind]))
        for spec in RESEARCHERS
        if tools.get(spec.kind)
    ]
