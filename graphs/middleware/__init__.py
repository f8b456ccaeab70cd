"""The middleware both graphs share, one module per middleware, and their order in `shared_middleware`.

Order matters: guardrails and input checks run before any model call; the model choice and its
fallbacks wrap every model call; `after_agent` hooks run last-to-first, so the citation check sees
the finished turn (tool results still in state), then suggestions, then history pruning.
"""

from __future__ import annotations

from typing import Any

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
from graphs.middleware.usage_log import UsageLogMiddleware
from graphs.settings import AgentSettings, load_settings


def shared_middleware(settings: AgentSettings | None = None) -> list[AgentMiddleware[Any, Any]]:
    """Middleware of the user-facing agent of each graph (docs_agent, deep_agent's orchestrator).

    Each graph appends `CitationCheckMiddleware` after it (whatever stack a test passes): last
    in the list, its `after_agent` runs first and sees the finished turn with its tool results.
    """
    s = settings or load_settings()
    return [
        # Guardrails and the input cap first (no model call for a refused turn), then the gate on
        # tool output, loop limits, tool-error handling and retries (Retry-After aware) around the
        # model choice + fallbacks.
        GuardrailsMiddleware(
            s.max_input_chars,
            topic_check=s.guardrails,
            classifier_model=s.guardrails_model,
            allow=s.guardrails_allow,
        ),
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
        # The user's saved memories, appended after the stable system prompt on each model call.
        MemoryPromptMiddleware(),
        # after_agent hooks run last-to-first: (the graph's citation check,) suggestions see the
        # checked answer, then pruning drops the turn's tool traffic from the thread.
        PruneHistoryMiddleware(),
        SuggestionsMiddleware(),
    ]
