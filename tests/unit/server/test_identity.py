"""server/identity.py: one store namespace label per user id, and the guest identity space."""

from __future__ import annotations

from server.identity import (
    GUEST_IDENTITY_PREFIX,
    MEMORY_NAMESPACE,
    is_guest_identity,
    memory_namespace,
    namespace_label,
)


def test_labels_are_one_to_one_and_free_of_the_stores_separators() -> None:
    ids = ["alice", "a.b", "a%2Eb", "a%252Eb", "nul\x00id", "carol@example.com", "%", "."]
    labels = [namespace_label(i) for i in ids]
    assert len(set(labels)) == len(ids)
    assert all("." not in label and "\x00" not in label for label in labels)
    assert namespace_label("alice") == "alice"  # an id without them keeps its memories in place
    assert namespace_label("a.b") == "a%2Eb" and namespace_label("a%2Eb") == "a%252Eb"
    assert memory_namespace("a.b") == (MEMORY_NAMESPACE, "a%2Eb")


def test_the_guest_space_is_the_prefix_only() -> None:
    assert is_guest_identity(GUEST_IDENTITY_PREFIX + "x1") and is_guest_identity("guest:")
    for other in ("Guest:x", "guests:x", "guest-x", "alice", " guest:x"):
        assert not is_guest_identity(other)
