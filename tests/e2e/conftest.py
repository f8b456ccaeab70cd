"""E2E fixtures: a real `langgraph dev`, or Aegra on PostgreSQL + Redis, on free loopback ports.

The servers themselves are started by testing/servers.py (the benches use it too); its names are
importable from here as well, for tests that still do.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from commands import local_stack
from testing.servers import (  # noqa: F401 - re-exported for tests that import them from here
    LANGGRAPH,
    REPO_ROOT,
    AegraServices,
    AegraStack,
    aegra_server,
    free_port,
    langgraph_dev,
    offline_env,
    private_config,
)


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One shared offline server for the e2e session."""
    with langgraph_dev(tmp_path_factory.mktemp("dev")) as url:
        yield url


@pytest.fixture(scope="session")
def aegra_services() -> Iterator[AegraServices]:
    """PostgreSQL + Redis for the Aegra suites; a skip naming what is missing when they cannot run.

    `.ci/run` installs all of them, so CI always runs these tests.
    """
    missing = local_stack.missing_services()
    if missing:
        pytest.skip(f"Aegra e2e needs {', '.join(missing)} (.ci/run installs them)")
    with local_stack.local_postgres() as db, local_stack.local_redis() as redis:
        yield AegraServices(db, redis)
