"""Who a user is to the store and the tools: the names server/auth.py and tools/memory.py share.

Only the standard library, and nothing that can fail at import: server/auth.py imports this before
it builds the auth object the engine loads, and a failure there must never leave a server open.
"""

from __future__ import annotations

OWNER_KEY = "user_id"
"""Metadata key stamped with the authenticated owner on threads, runs, crons and assistants."""

MEMORY_NAMESPACE = "memories"
"""First label of every user's memory namespace: `(MEMORY_NAMESPACE, namespace_label(user))`."""

DEV_PERMISSION = "dev_mode"
"""Permission granted in dev mode: the run's declared `metadata.user_id` is trusted as sent."""

AUTHENTICATED_PERMISSION = "authenticated"
"""Permission of a user proven by a token or JWT."""

GUEST_PERMISSION = "guest"
"""Permission of an anonymous reader holding a guest token (server/guest.py)."""

GUEST_IDENTITY_PREFIX = "guest:"
"""Every guest identity starts with this, and no other identity may (server/auth.py refuses a
static-token user or a JWT `sub` that does): a guest is known by its identity alone wherever the
permissions are not kept (a cron's or an Aegra-scheduled run carries only the identity)."""


def is_guest_identity(identity: str) -> bool:
    """True for an identity in the guest namespace (only server/guest.py issues those)."""
    return identity.startswith(GUEST_IDENTITY_PREFIX)


NAMESPACE_LABEL_FIELD = "namespace_label"
"""Field of the authenticated user that holds `namespace_label(identity)`.

Aegra's store API scopes `/store/items` by a user attribute (`aegra.json` → `store.scopes`):
scoping by this field rather than the raw identity puts the HTTP API and the graph's memory tools
in the same namespace, for a dotted id too.
"""

# Characters a store namespace label may not hold (the store splits dotted paths on ".", and
# rejects NUL), plus the escape character itself so that the encoding stays one-to-one.
_ESCAPED = frozenset({"%", ".", "\x00"})


def namespace_label(user_id: str) -> str:
    """`user_id` as one store namespace label: `.`, `%` and NUL percent-encoded, the rest as is.

    One-to-one, so two ids never share a label (`a.b` → `a%2Eb`, `a%2Eb` → `a%252Eb`); an id
    without those characters is its own label, so existing memories stay where they are.
    """
    return "".join(f"%{ord(ch):02X}" if ch in _ESCAPED else ch for ch in user_id)


def memory_namespace(user_id: str) -> tuple[str, str]:
    """The one store namespace a user's memories live in."""
    return (MEMORY_NAMESPACE, namespace_label(user_id))
