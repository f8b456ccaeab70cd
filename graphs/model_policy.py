"""Which models a run may use: the deployment names them, callers choose only among those.

Why: `Context.model` and `Context.fallback_models` are per-run settings (Studio, `context={...}`),
and any `provider:model` string used to reach the provider as asked — a guest's runs reached it as
`o1-pro` and `gpt-4.5-preview` (issue 33). The rule, by who asks (`chooser_of`, from the run's
authenticated user, which both engines put in the run's config):

- `deployment`: the deployment's own code (a graph invoked in-process, no server and no caller) and
  `developer`: the local developer in dev mode (no auth: every request is theirs) choose freely;
- `user`: a signed-in user chooses among the deployment's own model and fallback chain and the
  patterns of `DOCS_AGENT_ALLOWED_MODELS` (comma-separated, `fnmatch` style: `openai:gpt-4.1*`;
  `*` alone lets users choose any model);
- `guest`: a guest chooses none — the model settings must be left unset (or name exactly the
  deployment's own model and chain, which is what an unset setting means).

A refused choice is never switched silently to another model, billed or not: the run's models
become the `refused:` spec (`refusal_spec`), which `graphs.models.load_chat_model` turns into a model
that answers with the reason (`refusal_text`) and calls nothing. The check is made where the run's
Context is read (`graphs.context.context_of`), so every reader of it — the model call and its
fallbacks, the suggestions, docs_answer's inner run, the turn record — sees the checked choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase
from typing import Any, Literal

from server.identity import DEV_PERMISSION, GUEST_PERMISSION, is_guest_identity
from settings import current
from settings.agent import AgentSettings
from settings.engine import in_server_process

Chooser = Literal["deployment", "developer", "user", "guest"]
FREE_CHOOSERS: frozenset[Chooser] = frozenset({"deployment", "developer"})
REFUSED_PREFIX = "refused:"
# How much of an asked-for spec a refusal repeats (it is the caller's own text, shown to them).
MAX_SHOWN_CHARS = 100


def spec_list(text: str) -> list[str]:
    """`a, b,,c` → ['a', 'b', 'c']: a comma-separated model chain or allow-list."""
    return [s.strip() for s in (text or "").split(",") if s.strip()]


def own_models(settings: AgentSettings) -> list[str]:
    """The deployment's model and its fallback chain, in order."""
    return [settings.default_model, *spec_list(settings.fallback_models)]


def allowed_patterns(settings: AgentSettings) -> list[str]:
    """What a signed-in user may choose: the deployment's own models and DOCS_AGENT_ALLOWED_MODELS."""
    return list(dict.fromkeys([*own_models(settings), *spec_list(settings.allowed_models)]))


def _field(user: Any, name: str) -> Any:
    """`name` of an auth user object (Aegra's User, langgraph-api's ProxyUser) or dict."""
    if isinstance(user, Mapping):
        return user.get(name)
    return getattr(user, name, None)


def chooser_of(config: Mapping[str, Any] | None, env: Mapping[str, str] | None = None) -> Chooser:
    """Who is choosing this run's model, from the run's config.

    langgraph-api puts `langgraph_auth_user_id` and `langgraph_auth_permissions` in the run's
    configurable; Aegra puts its user object under `langgraph_auth_user` (a cron's run there
    carries the identity with no permissions, hence the guest check on the identity too). A run
    without a user is the deployment's own code — unless it runs inside a server, where every
    run has a caller: then it is treated as a signed-in user (never as free to choose).
    """
    configurable = (config or {}).get("configurable") or {}
    user = configurable.get("langgraph_auth_user")
    identity = str(configurable.get("langgraph_auth_user_id") or _field(user, "identity") or "")
    raw = configurable.get("langgraph_auth_permissions") or _field(user, "permissions") or ()
    permissions = (
        {str(p) for p in raw} if isinstance(raw, list | tuple | set | frozenset) else set()
    )
    if not identity:
        return "user" if in_server_process(env) else "deployment"
    if is_guest_identity(identity) or GUEST_PERMISSION in permissions:
        return "guest"
    if DEV_PERMISSION in permissions:
        return "developer"
    return "user"


def current_chooser() -> Chooser:
    """`chooser_of` the config of the graph run this is called in (outside one: no caller)."""
    from langgraph.config import get_config  # noqa: PLC0415 — only inside a run

    try:
        config = get_config()
    except RuntimeError:  # not inside a runnable: the deployment's own code calling a graph part
        config = None
    return chooser_of(config)


def is_refusal(spec: str) -> bool:
    """True for the spec a refused choice is replaced with."""
    return spec.startswith(REFUSED_PREFIX)


def refused_spec(
    model: str, fallbacks: Sequence[str], chooser: Chooser, settings: AgentSettings
) -> str | None:
    """The first model of the run's chain that `chooser` may not use; None when all are allowed."""
    if chooser in FREE_CHOOSERS:
        return None
    asked = [m.strip() for m in (model, *fallbacks)]
    if any(is_refusal(spec) for spec in asked):
        return None  # already the refusal (docs_answer passes its checked Context on)
    if chooser == "guest":
        own = own_models(settings)
        if asked == own:
            return None
        differing = (a for a, o in zip(asked, own, strict=False) if a != o)
        return next(differing, f"fallback_models={','.join(asked[1:])}")
    patterns = allowed_patterns(settings)
    return next((a for a in asked if not any(fnmatchcase(a, p) for p in patterns)), None)


def shown(text: str) -> str:
    """A caller's text as a refusal repeats it: printable, no commas (it is a chain), cut short."""
    clean = "".join(ch if ch.isprintable() and ch != "," else " " for ch in text)
    return clean if len(clean) <= MAX_SHOWN_CHARS else clean[: MAX_SHOWN_CHARS - 1] + "…"


def refusal_spec(chooser: Chooser, asked: str) -> str:
    """`refused:<chooser>:<asked>`: the model spec a refused choice becomes."""
    return f"{REFUSED_PREFIX}{chooser}:{shown(asked)}"


def refusal_text(spec: str, settings: AgentSettings | None = None) -> str:
    """What the run answers for a refused choice: which model, why, and what to do instead."""
    settings = settings or current().agent
    chooser, _, asked = spec[len(REFUSED_PREFIX) :].partition(":")
    if chooser == "guest":
        return (
            f"Sorry — guests cannot choose the model, so this question was not sent to any model "
            f"(the run asked for {asked!r}). Ask again without the `model` and `fallback_models` "
            "settings: this assistant's own model answers guests."
        )
    choices = ", ".join(allowed_patterns(settings))
    return (
        f"Sorry — {asked!r} is not a model this deployment offers, so this question was not sent "
        f"to any model. Models you may choose: {choices}. Ask again with one of them, or without "
        "the `model` and `fallback_models` settings to use the default. (Whoever runs this "
        "assistant can offer more with DOCS_AGENT_ALLOWED_MODELS.)"
    )
