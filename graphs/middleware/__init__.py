"""The one middleware policy: which middleware every agent of the package runs, in which order.

`shared_middleware(role=...)` is the list for each kind of agent the package builds: `answer` for
the agents that talk to the user (docs_agent, deep_agent's orchestrator), `researcher` for
deep_agent's researchers, which read the most raw tool text. Both get the same resilience and
safety core — the gate on tool output, loop limits, tool errors as text, model retries with an
honest final message, the check on unusable replies, the model choice and its fallbacks; only the
user-facing concerns (guardrails on the user's input, saved memories, suggestions, history
pruning) are the answering agent's. One module per middleware; a new one goes into this list.

Order matters: guardrails and input checks run before any model call; the model choice and its
fallbacks wrap every model call; `after_agent` hooks run last-to-first, so the citation check sees
the finished turn (tool results still in state), then suggestions, then history pruning.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware

from graphs.middleware.guardrails import GuardrailsMiddleware
from graphs.middleware.history import PruneHistoryMiddleware
from graphs.middleware.history_budget import HistoryBudgetMiddleware
from graphs.middleware.memory_prompt import MemoryPromptMiddleware
from graphs.middleware.model_choice import ContextModelMiddleware
from graphs.middleware.prompt_caching import AnthropicCachingMiddleware
from graphs.middleware.response_check import ResponseCheckMiddleware
from graphs.middleware.retry import model_retry_middleware
from graphs.middleware.suggestions import SuggestionsMiddleware
from graphs.middleware.tool_errors import tool_error_middleware
from graphs.middleware.tool_output import ToolOutputSanitizerMiddleware
from graphs.middleware.turn_limit import TurnLimitMiddleware
from graphs.middleware.turn_record import TurnRecordMiddleware
from graphs.middleware.usage_log import UsageLogMiddleware
from settings import current
from settings.agent import AgentSettings

AgentRole = Literal["answer", "researcher"]
ROLES: tuple[AgentRole, ...] = ("answer", "researcher")


def shared_middleware(
    settings: AgentSettings | None = None, role: AgentRole = "answer"
) -> list[AgentMiddleware[Any, Any]]:
    """The middleware of one agent of the package, by its role (see the module docstring).

    Each agent appends its own role-specific pieces after the list (the citation check, an
    offline role): last in the list, a wrapper runs innermost and an `after_agent` hook first.
    """
    s = settings or current().agent
    # Every agent: the gate on tool output, loop limits, tool-error handling and retries
    # (Retry-After aware) around the check on unusable replies and the model choice + fallbacks.
    core: list[AgentMiddleware[Any, Any]] = [
        ToolOutputSanitizerMiddleware(s.max_tool_chars),
        TurnLimitMiddleware(s.max_model_calls, s.max_tool_calls),
        *tool_error_middleware(),
        model_retry_middleware(s.model_retries, s.retry_initial_s, s.retry_max_s),
        ResponseCheckMiddleware(),
        UsageLogMiddleware(),
        ContextModelMiddleware(),
        # Inside the model choice (it sees the real model): earlier turns within a token budget.
        HistoryBudgetMiddleware(s.history_tokens),
        # Inside the model choice (it must see the real model), before volatile prompt parts.
        AnthropicCachingMiddleware(),
    ]
    if role == "researcher":
        return core  # its task comes from the orchestrator, its findings go back to it
    return [
        TurnRecordMiddleware(),  # first: its after_agent runs last and records the finished turn
        # Guardrails and the input cap first: no model call for a refused turn.
        GuardrailsMiddleware(
            s.max_input_chars,
            topic_check=s.guardrails,
            classifier_model=s.guardrails_model,
            allow=s.guardrails_allow,
        ),
        *core,
        # The user's saved memories, appended after the stable system prompt on each model call.
        MemoryPromptMiddleware(),
        # after_agent hooks run last-to-first: (the graph's citation check,) suggestions see the
        # checked answer, then pruning drops the turn's tool traffic from the thread.
        PruneHistoryMiddleware(),
        SuggestionsMiddleware(),
    ]
