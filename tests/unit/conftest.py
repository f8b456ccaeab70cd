"""Unit tests run with sockets disabled (pytest-socket): no network, no servers."""

from __future__ import annotations

import pytest
from pytest_socket import disable_socket


@pytest.fixture(autouse=True)
def _no_sockets() -> None:
    disable_socket(allow_unix_socket=True)
