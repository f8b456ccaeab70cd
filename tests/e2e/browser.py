"""Moved to testing/browser.py (the benches use it too); kept for branches that import it from here."""

from testing.browser import *  # noqa: F403
