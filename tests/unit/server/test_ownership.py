"""server/ownership.py: every thread, run, cron, assistant and store item is its owner's."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from langgraph_sdk import Auth

from server import ownership as O
from server.credentials import DEV_IDENTITY, resolve_user
from tests.unit.server.auth_cases import (
    JWT_ENV,
    cfg,
    ctx,
    hs256,
)


async def test_owner_stamped_and_filtered() -> None:
    value: dict[str, Any] = {"metadata": {"user_id": "mallory", "topic": "x"}}
    assert await O.owner_only(ctx("alice", "threads", "create"), value) == {"user_id": "alice"}
    assert value["metadata"] == {"user_id": "alice", "topic": "x"}
    for action in ("read", "update", "delete", "search", "create_run"):
        v: dict[str, Any] = {"metadata": None}
        assert await O.owner_only(ctx("bob", "threads", action), v) == {"user_id": "bob"}
    run: dict[str, Any] = {}
    await O.owner_only(ctx("bob", "threads", "create_run"), run)
    assert run["metadata"]["user_id"] == "bob"
    # Dev mode: nothing stamped, nothing filtered.
    # Existence probes: do_nothing is refused whatever the id, so no id's owner shows.
    for tid in ("00000000-0000-0000-0000-000000000001", None):
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await O.owner_only(
                ctx("bob", "threads", "create"), {"thread_id": tid, "if_exists": "do_nothing"}
            )
        assert exc.value.status_code == 422
    assert await O.owner_only(
        ctx("bob", "threads", "create"), {"thread_id": "x", "if_exists": "raise"}
    ) == {"user_id": "bob"}
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await O.owner_only(
            ctx("bob", "threads", "create_run"), {"thread_id": "x", "if_not_exists": "create"}
        )
    assert exc.value.status_code == 422
    # Stateless runs (the server picks a temporary thread) keep working.
    stateless = {"thread_id": None, "if_not_exists": "create"}
    assert await O.owner_only(ctx("bob", "threads", "create_run"), stateless) == {"user_id": "bob"}
    dev_value = {"metadata": {"user_id": "mallory"}}
    assert await O.owner_only(ctx(DEV_IDENTITY, "threads", "create", dev=True), dev_value) is None
    assert dev_value["metadata"]["user_id"] == "mallory"


async def test_assistants_packaged_and_own_only_writes_owner_scoped() -> None:
    for action in ("read", "search"):
        assert await O.assistants(ctx("bob", "assistants", action), {}) == {
            "$or": [{"user_id": "bob"}, {"created_by": "system"}]
        }
    assert await O.assistants(ctx("bob", "assistants", "read", dev=True), {}) is None
    assert await O.assistants(ctx("bob", "assistants", "update"), {"metadata": {}}) == {
        "user_id": "bob"
    }
    assert await O.assistants(ctx("bob", "assistants", "delete"), {}) == {"user_id": "bob"}


async def test_store_confined_to_own_namespace() -> None:
    for action in ("put", "get", "delete"):
        v: dict[str, Any] = {"namespace": ("memories", "alice"), "key": "k"}
        await O.store(ctx("alice", "store", action), v)
        assert v["namespace"] == ("memories", "alice")
        for ns in (("memories", "bob"), ("memories",), (), ("other", "alice")):
            with pytest.raises(Auth.exceptions.HTTPException) as exc:
                await O.store(ctx("alice", "store", action), {"namespace": ns, "key": "k"})
            assert exc.value.status_code == 403
    for prefix in ((), ("memories",), None):
        v = {"namespace": prefix}
        await O.store(ctx("alice", "store", "search"), v)
        assert v["namespace"] == ("memories", "alice")
    with pytest.raises(Auth.exceptions.HTTPException):
        await O.store(ctx("alice", "store", "list_namespaces"), {"namespace": ("memories", "bob")})
    # Aegra's search payload names the prefix `namespace_prefix`: the same rule applies.
    with pytest.raises(Auth.exceptions.HTTPException):
        await O.store(ctx("alice", "store", "search"), {"namespace_prefix": ("memories", "bob")})
    aegra = {"namespace_prefix": ("memories",)}
    await O.store(ctx("alice", "store", "search"), aegra)
    assert aegra["namespace_prefix"] == ("memories", "alice")


async def test_dotted_ids_get_their_own_store_namespace() -> None:
    from server.identity import memory_namespace, namespace_label

    ids = [
        "carol@example.com",
        "carol@example%2Ecom",
        "carol@example%252Ecom",
        "a.b",
        "a%2Eb",
        "alice",
    ]
    labels = [namespace_label(i) for i in ids]
    assert len(set(labels)) == len(ids) and all("." not in label for label in labels)
    assert namespace_label("alice") == "alice" and namespace_label("bob-1_x@y") == "bob-1_x@y"
    user = await resolve_user("Bearer " + hs256(sub="carol@example.com"), cfg(**JWT_ENV))
    assert user["namespace_label"] == "carol@example%2Ecom"
    own = memory_namespace("carol@example.com")
    v: dict[str, Any] = {"namespace": own, "key": "k"}
    await O.store(ctx("carol@example.com", "store", "put"), v)
    assert v["namespace"] == own
    search: dict[str, Any] = {"namespace_prefix": ("memories",)}
    await O.store(ctx("carol@example.com", "store", "search"), search)
    assert search["namespace_prefix"] == own
    with pytest.raises(Auth.exceptions.HTTPException):  # the raw dotted id is not a way around
        await O.store(
            ctx("carol@example.com", "store", "get"),
            {"namespace": ("memories", "carol@example"), "key": "k"},
        )


async def test_assistant_create_with_a_chosen_id_confirms_nothing() -> None:
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await O.assistants(
            ctx("bob", "assistants", "create"), {"assistant_id": "x", "if_exists": "do_nothing"}
        )
    assert exc.value.status_code == 422 and "assistant" in str(exc.value.detail)
    value: dict[str, Any] = {"assistant_id": "x", "metadata": {"user_id": "mallory"}}
    guard = await O.assistants(ctx("bob", "assistants", "create"), value)
    assert guard == {"user_id": "bob", O.CREATE_GUARD_KEY: mock.ANY}
    assert value["metadata"] == {"user_id": "bob"}  # the guard is a filter, never stored


async def test_a_values_filter_is_refused_with_the_way_that_works() -> None:
    # langgraph dev answered 500 (Aegra ignores the filter): 422 on every engine, dev mode too.
    for who, dev in (("alice", False), (DEV_IDENTITY, True)):
        value: dict[str, Any] = {"metadata": {}, "values": {"messages": []}, "limit": 10}
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            await O.owner_only(ctx(who, "threads", "search", dev=dev), value)
        assert exc.value.status_code == 422 and "metadata" in str(exc.value.detail)
    for harmless in ({"values": {}}, {"values": None}, {}):
        assert await O.owner_only(ctx("alice", "threads", "search"), harmless) == {
            "user_id": "alice"
        }


async def test_guests_schedule_no_crons_and_users_still_do() -> None:
    with pytest.raises(Auth.exceptions.HTTPException) as exc:
        await O.owner_only(ctx("guest:AbCdEf123", "crons", "create"), {"schedule": "* * * * *"})
    assert exc.value.status_code == 403 and "Guests cannot schedule" in str(exc.value.detail)
    value: dict[str, Any] = {"schedule": "* * * * *"}
    assert await O.owner_only(ctx("alice", "crons", "create"), value) == {"user_id": "alice"}
    assert value["metadata"]["user_id"] == "alice"
    # A guest may still list its (no) crons: only scheduling is refused.
    assert await O.owner_only(ctx("guest:AbCdEf123", "crons", "search"), {}) == {
        "user_id": "guest:AbCdEf123"
    }
