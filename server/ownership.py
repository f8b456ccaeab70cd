"""What a caller may touch: every thread, run, cron, assistant and store item is its owner's.

Handlers of server/auth.py's `auth` object (registered there). Threads, runs and crons are
stamped with `metadata.user_id` (a client value is overwritten) and filtered by it, so another
user's thread is a 404; assistants are the packaged graphs plus the caller's own; the store is
confined to `("memories", <user>)`, and the answers report's namespace to its rules
(server/report_access.py). The per-user limits (server/limits.py) and guests' allowances
(server/guest.py) are checked here too, since these handlers see every write before the engine
acts. Dev mode's one identity (`DEV_PERMISSION`) passes everything but the size caps.
"""

from __future__ import annotations

from typing import Any, cast

from langgraph_sdk import Auth

from server import guest, limits, report_access
from server.identity import (
    DEV_PERMISSION,
    MEMORY_NAMESPACE,
    OWNER_KEY,
    is_guest_identity,
    namespace_label,
)


def _is_dev(ctx: Auth.types.AuthContext) -> bool:
    return DEV_PERMISSION in (ctx.permissions or [])


def stamp_owner(value: Any, identity: str) -> None:
    """Overwrite `metadata.user_id` on a create/update payload with the authenticated owner."""
    if not isinstance(value, dict):
        return
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
        value["metadata"] = metadata
    metadata[OWNER_KEY] = identity


async def owner_only(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType | None:
    """Threads, runs, crons (every action): stamp the owner on writes, filter every access by it.

    A global handler rather than per-action ones because per-action handlers leave any action
    they do not name open (measured: read/update/delete/run returned 200 for another user).
    """
    # Size caps always; the per-user run limit with real users (not dev mode's one identity).
    await limits.check_thread_event(ctx, value, limit_runs=not _is_dev(ctx))
    if ctx.resource == "threads" and ctx.action == "search":
        refuse_values_filter(value)  # dev mode too: it is the engine failing, not a permission
    if _is_dev(ctx):
        return None
    if ctx.resource == "crons" and ctx.action == "create":
        refuse_guest_cron(ctx.user.identity)
    if ctx.resource == "threads" and ctx.action in ("create", "create_run"):
        refuse_existence_probe(value)
    if ctx.action == "create_run":
        guest.check_run(ctx.user.identity)  # guests' run limits (no-op for everyone else)
    if ctx.action in ("create", "update", "create_run"):
        stamp_owner(value, ctx.user.identity)
    return {OWNER_KEY: ctx.user.identity}


def refuse_values_filter(value: Any) -> None:
    """422 for a thread search or count filtered by `values`, which no engine here serves.

    langgraph dev (langgraph-runtime-inmem 0.36) answers 500 as soon as the caller has a thread
    without values yet (its containment check reads `None`); Aegra 0.11 has no such field and
    returns the threads unfiltered. Either way the caller would not get what they asked for, so
    the filter is refused with the way that works. An empty filter matches everything and passes.
    """
    if isinstance(value, dict) and value.get("values"):
        raise Auth.exceptions.HTTPException(
            status_code=422,
            detail="Filtering threads by `values` is not supported by this server; filter by "
            "`metadata` (or `status`), then read each thread's state.",
        )


def refuse_guest_cron(identity: str) -> None:
    """403 for a guest's cron: it would keep running, and spending, after the guest has gone.

    A cron runs as its creator with no token to expire: a guest's kept calling the model after the
    guest's token had expired (4 calls in 190 s), on an hourly allowance that renews. Guests are
    one visit's readers, so they schedule nothing; signed-in users' crons are unaffected.
    """
    if is_guest_identity(identity):
        raise Auth.exceptions.HTTPException(
            status_code=403,
            detail="Guests cannot schedule runs (crons): a guest's session is short-lived. Sign in "
            "to schedule runs, or ask your question now.",
        )


def refuse_existence_probe(value: Any, what: str = "thread") -> None:
    """Refuse the two options whose answers tell whether another user holds a thread id.

    `threads.create` with `if_exists="do_nothing"` answers with the thread (yours), 409 (someone
    else's) or a new thread (unused); a run on a chosen id with `if_not_exists="create"` answers
    404 (someone else's) or creates it (unused). The handler cannot see which ids exist, so it
    refuses the options themselves, whatever the id: every taken id then answers a plain 409 on
    create and 404 on a run. Stateless runs (no thread id here) are not affected. The same holds
    for an assistant created with a chosen id (`what="assistant"`): yours 200, another's 409.
    """
    if not isinstance(value, dict):
        return
    if value.get("if_exists") == "do_nothing":
        option = "if_exists='do_nothing'"
        advice = f"create the {what} without it and treat 409 as 'this id is taken'"
    elif value.get("if_not_exists") == "create" and value.get("thread_id") is not None:
        option = "if_not_exists='create'"
        advice = "create the thread first (POST /threads), then run on it"
    else:
        return
    raise Auth.exceptions.HTTPException(
        status_code=422, detail=f"{option} is not accepted with auth on; {advice}."
    )


# A metadata key never stored on an assistant (see `assistants`).
CREATE_GUARD_KEY = "docs_agent_create_guard"
# The deployment's own assistants (one per graph in langgraph.json) are made by the server.
SYSTEM_ASSISTANTS: Auth.types.FilterType = {"created_by": "system"}


async def assistants(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType | None:
    """The packaged graphs and your own assistants; another user's are invisible (404).

    The same filter serves the REST API, the MCP tool list and the A2A agent cards, which all read
    assistants through it. Writes are owner-scoped: the packaged assistants carry no owner, so no
    user can change or delete them.
    """
    if _is_dev(ctx):
        return None
    own: Auth.types.FilterType = {OWNER_KEY: ctx.user.identity}
    if ctx.action in ("read", "search"):
        # `$or` is supported by the server's filter but missing from the SDK's FilterType.
        return cast(Auth.types.FilterType, {"$or": [own, SYSTEM_ASSISTANTS]})
    if ctx.action == "create":
        refuse_existence_probe(value, "assistant")  # Aegra shows the handler `if_exists`
    if ctx.action in ("create", "update"):
        stamp_owner(value, ctx.user.identity)
    if ctx.action == "create":
        # langgraph-api does not show `if_exists` but answers a taken id 409 unless the existing
        # assistant matches this filter (then `do_nothing` returns it: 200 for yours, 409 for
        # another's). A key no assistant carries makes every taken id the same plain 409.
        return {**own, CREATE_GUARD_KEY: "a taken id is always a conflict"}
    return own


def _confine(
    namespace: tuple[str, ...] | None, identity: str, *, prefix_ok: bool
) -> tuple[str, ...]:
    """The namespace narrowed to `("memories", label)`; 403 when it names anything else."""
    own = (MEMORY_NAMESPACE, namespace_label(identity))
    ns = tuple(namespace or ())
    if ns[:2] == own:
        return ns
    if prefix_ok and own[: len(ns)] == ns:
        return own  # a broader search/list prefix is narrowed to the user's own namespace
    raise Auth.exceptions.HTTPException(
        status_code=403, detail="Store access outside your namespace"
    )


async def store(ctx: Auth.types.AuthContext, value: Any) -> None:
    """The store is confined to `("memories", <user>)`: reads, writes, search and listing."""
    limits.check_store_event(ctx, value)  # the value cap
    if _is_dev(ctx):
        return None
    action = str(ctx.action)
    if report_access.in_report_namespace(value.get("namespace") or value.get("namespace_prefix")):
        try:
            report_access.authorize(ctx.user.identity, action, value, report_access.operators())
        except report_access.ReportAccessError as exc:  # 403, or 429 past the vote cap
            headers = {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s else None
            raise Auth.exceptions.HTTPException(
                status_code=exc.status_code, detail=str(exc), headers=headers
            ) from None
        return None
    # langgraph-api names the searched prefix `namespace`; Aegra names it `namespace_prefix` (and
    # narrows it to the caller itself, with its store scopes), so check whichever is given.
    key = (
        "namespace_prefix"
        if "namespace_prefix" in value and "namespace" not in value
        else "namespace"
    )
    value[key] = _confine(
        value.get(key), ctx.user.identity, prefix_ok=action in ("search", "list_namespaces")
    )
    return None
