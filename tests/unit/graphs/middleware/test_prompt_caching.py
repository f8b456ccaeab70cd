"""graphs/middleware/prompt_caching.py: only an Anthropic model loads the caching middleware."""

from __future__ import annotations

import sys

from langchain.agents import create_agent
from langchain_core.messages import AIMessage

from graphs.middleware.prompt_caching import AnthropicCachingMiddleware
from tests.fixtures.fake_chat import ScriptedChatModel


def test_other_providers_pass_through_and_import_nothing_of_anthropic() -> None:
    middleware = AnthropicCachingMiddleware()
    model = ScriptedChatModel([AIMessage("An answer.")])
    agent = create_agent(model=model, tools=[], middleware=[middleware], system_prompt="Be brief.")
    before = {name for name in sys.modules if name.startswith("langchain_anthropic")}
    out = agent.invoke({"messages": [{"role": "user", "content": "hi"}]})
    assert out["messages"][-1].content == "An answer." and model.calls == 1
    assert middleware._inner is None
    assert {name for name in sys.modules if name.startswith("langchain_anthropic")} == before
