"""Moved to testing/markup.py (the benches use it too); kept for branches that import it here."""

from testing.markup import LEFTOVER_RE, leftovers

__all__ = ["LEFTOVER_RE", "leftovers"]
