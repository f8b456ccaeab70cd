"""Model choice from an allow-list: users choose among the deployment's models, guests choose none.

The attack of issue 33: a guest's `context.model` / `fallback_models` reached the provider as
`openai:o1-pro` and `openai:gpt-4.5-preview`. Every test here runs the real graphs with a spy on the
one seam models are loaded through, so a refused model that is ever loaded (for the answer, a
fallback or the suggestions) fails the test.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage

from graphs import docs_answer, model_policy, models
from graphs.context import Context, context_of
from graphs.docs_agent import build_docs_agent
from settings import current
from tests.fixtures.fake_chat import ScriptedChatModel

DEPLOY, FALLBACK, TEAM = "openai:deploy-model", "openai:deploy-fallback", "openai:team-model"
BILLED = ("openai:o1-pro", "openai:gpt-4.5-preview")


@pytest.fixture(autouse=True)
def _deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCS_AGENT_MODEL", DEPLOY)
    monkeypatch.setenv("DOCS_AGENT_FALLBACK_MODELS", FALLBACK)
    monkeypatch.setenv("DOCS_AGENT_ALLOWED_MODELS", f"{TEAM}, anthropic:claude-sonnet-*")
    monkeypatch.delenv("LANGGRAPH_RUNTIME_EDITION", raising=False)
    current.cache_clear()


def config_of(identity: str | None, *permissions: str, aegra: bool = False) -> dict[str, Any]:
    """A run's config as the engines build it (langgraph-api's keys, or Aegra's user object)."""
    if identity is None:
        return {"configurable": {}}
    if aegra:
        user = SimpleNamespace(identity=identity, permissions=list(permissions))
        return {"configurable": {"langgraph_auth_user": user, "user_id": identity}}
    return {
        "configurable": {
            "langgraph_auth_user_id": identity,
            "langgraph_auth_permissions": list(permissions),
        }
    }


@pytest.mark.parametrize("aegra", [False, True])
def test_the_chooser_comes_from_the_run_s_authenticated_user(aegra: bool) -> None:
    assert model_policy.chooser_of(config_of("guest:abc", "guest", aegra=aegra)) == "guest"
    # A cron's run carries the identity alone (Aegra: no permissions): still a guest.
    assert model_policy.chooser_of(config_of("guest:abc", aegra=aegra)) == "guest"
    assert model_policy.chooser_of(config_of("alice", "authenticated", aegra=aegra)) == "user"
    assert model_policy.chooser_of(config_of("dev-anonymous", "dev_mode", aegra=aegra)) == (
        "developer"
    )
    # A user without permissions (Aegra's cron user) is a signed-in user, never free to choose.
    assert model_policy.chooser_of(config_of("dev-anonymous", aegra=aegra)) == "user"


def test_a_run_without_a_caller_is_free_only_outside_a_server() -> None:
    assert model_policy.chooser_of(None, env={}) == "deployment"
    assert model_policy.chooser_of(config_of(None), env={}) == "deployment"
    inside = {"LANGGRAPH_RUNTIME_EDITION": "inmem"}
    assert model_policy.chooser_of(config_of(None), env=inside) == "user"


def refused(model: str, fallbacks: str, chooser: model_policy.Chooser) -> str | None:
    ctx = Context(model=model, fallback_models=fallbacks)
    return model_policy.refused_spec(ctx.model, ctx.fallback_chain, chooser, current().agent)


def test_users_choose_among_the_deployment_s_models_and_the_allow_list() -> None:
    for model, fallbacks in [
        ("", ""),
        (DEPLOY, ""),
        (FALLBACK, DEPLOY),
        (TEAM, ""),
        ("anthropic:claude-sonnet-4-5", TEAM),
        (" openai:team-model ", " openai:deploy-model "),
    ]:
        assert refused(model, fallbacks, "user") is None, (model, fallbacks)
    assert refused(BILLED[0], "", "user") == BILLED[0]
    assert refused(DEPLOY, BILLED[1], "user") == BILLED[1]  # a fallback is a choice too
    assert refused("OpenAI:team-model", "", "user") == "OpenAI:team-model"  # exact, case and all
    assert refused("anthropic:claude-opus-4", "", "user") == "anthropic:claude-opus-4"
    assert refused("offline", "", "user") == "offline"  # not listed: not offered


def test_guests_choose_nothing_but_may_echo_the_defaults() -> None:
    assert refused("", "", "guest") is None
    assert refused(DEPLOY, FALLBACK, "guest") is None
    assert refused(TEAM, "", "guest") == TEAM  # on the users' allow-list, still not for guests
    assert refused("offline", "", "guest") == "offline"
    assert refused(DEPLOY, BILLED[1], "guest") == BILLED[1]
    assert refused(FALLBACK, "", "guest") == FALLBACK
    assert refused(DEPLOY, " , ", "guest") == "fallback_models="


@pytest.mark.parametrize("odd", [123, ["openai:o1-pro"], {"x": 1}, True])
def test_a_model_setting_that_is_not_text_is_refused_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, odd: Any
) -> None:
    spy = Spy(monkeypatch)
    for context in ({"model": odd}, {"fallback_models": odd}):
        answer = ask(build_docs_agent(tools=[]), context, config_of("alice", "authenticated"))
        assert "is not a model this deployment offers" in answer
    assert spy.billed() == []


def test_the_deployment_and_a_developer_choose_freely() -> None:
    for chooser in ("deployment", "developer"):
        assert refused(BILLED[0], BILLED[1], chooser) is None  # type: ignore[arg-type]


def test_a_star_lets_users_choose_any_model_but_never_guests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOCS_AGENT_ALLOWED_MODELS", "*")
    current.cache_clear()
    assert refused(BILLED[0], "", "user") is None
    assert refused(BILLED[0], "", "guest") == BILLED[0]


def test_refusal_text_names_the_model_and_the_choices_without_control_characters() -> None:
    spec = model_policy.refusal_spec("user", "openai:o1-pro\x1b]0;pwned\x07," + "x" * 500)
    assert spec.startswith("refused:user:openai:o1-pro") and "\x1b" not in spec
    assert "," not in spec and len(spec) < 140
    text = model_policy.refusal_text(spec)
    assert "openai:o1-pro" in text and TEAM in text and DEPLOY in text
    assert "DOCS_AGENT_ALLOWED_MODELS" in text
    guest_text = model_policy.refusal_text(model_policy.refusal_spec("guest", BILLED[0]))
    assert "guests cannot choose" in guest_text and TEAM not in guest_text


class Spy:
    """The model seam, recording every spec loaded; real models never leave the process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answer: str = "the model's answer") -> None:
        self.loaded: list[str] = []
        self.answers = answer
        real = models.load_chat_model

        def load(spec: str, streaming: bool = True) -> BaseChatModel:
            self.loaded.append(spec)
            if model_policy.is_refusal(spec):
                return real(spec, streaming=streaming)
            return ScriptedChatModel([AIMessage(self.answers)] * 10)

        monkeypatch.setattr(models, "load_chat_model", load)

    def billed(self) -> list[str]:
        return [s for s in self.loaded if s in BILLED]


def ask(graph: Any, context: dict[str, Any], config: dict[str, Any]) -> str:
    out = graph.invoke(
        {"messages": [{"role": "user", "content": "How do I install it?"}]},
        config=config,
        context=context,
    )
    return str(out["messages"][-1].content)


CHOICES: list[dict[str, Any]] = [
    {"model": BILLED[0]},
    {"fallback_models": BILLED[1]},
    {"model": BILLED[0], "fallback_models": BILLED[1], "num_suggestions": 3},
]


@pytest.mark.parametrize("context", CHOICES)
def test_a_guest_s_billed_choice_reaches_no_model_and_says_so(
    monkeypatch: pytest.MonkeyPatch, context: dict[str, Any]
) -> None:
    spy = Spy(monkeypatch)
    answer = ask(build_docs_agent(tools=[]), context, config_of("guest:g1", "guest"))
    assert "guests cannot choose the model" in answer
    assert spy.billed() == [] and all(model_policy.is_refusal(s) for s in spy.loaded)


@pytest.mark.parametrize("context", CHOICES)
def test_a_user_s_unlisted_choice_reaches_no_model_and_says_so(
    monkeypatch: pytest.MonkeyPatch, context: dict[str, Any]
) -> None:
    spy = Spy(monkeypatch)
    answer = ask(build_docs_agent(tools=[]), context, config_of("alice", "authenticated"))
    assert "is not a model this deployment offers" in answer and TEAM in answer
    assert spy.billed() == []


def test_a_user_s_listed_choice_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    answer = ask(
        build_docs_agent(tools=[]), {"model": TEAM}, config_of("alice", "authenticated", aegra=True)
    )
    assert answer == "the model's answer" and spy.loaded[0] == TEAM


def test_a_guest_without_a_choice_gets_the_deployment_s_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = Spy(monkeypatch)
    answer = ask(build_docs_agent(tools=[]), {}, config_of("guest:g1", "guest"))
    assert answer == "the model's answer" and spy.loaded[0] == DEPLOY
    assert set(spy.loaded) <= {DEPLOY, FALLBACK}


def test_in_process_code_chooses_freely(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    assert ask(build_docs_agent(tools=[]), {"model": BILLED[0]}, {}) == "the model's answer"
    assert spy.loaded[0] == BILLED[0]


async def test_docs_answer_passes_the_refusal_on(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    monkeypatch.setattr(docs_answer, "docs_agent", build_docs_agent(tools=[]))
    out = await docs_answer.graph.ainvoke(
        {"question": "How do I install it?"},
        config=config_of("guest:g2", "guest"),
        context={"model": BILLED[0]},
    )
    assert "guests cannot choose the model" in out["answer"] and spy.billed() == []


def test_context_of_outside_a_run_is_the_deployment_s_choice() -> None:
    ctx = context_of(SimpleNamespace(context={"model": BILLED[0]}))
    assert ctx.model == BILLED[0]  # no run, no caller: the deployment's own code


def test_the_refused_model_streams_its_answer_and_binds_tools() -> None:
    model = models.load_chat_model(model_policy.refusal_spec("guest", BILLED[0]))
    assert isinstance(model, models.RefusedChoiceModel)
    assert model.bind_tools([]) is model
    chunks = list(model.stream("hi"))
    assert "guests cannot choose" in "".join(str(c.content) for c in chunks)
