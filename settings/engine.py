"""Which engine runs this process: `langgraph dev`, LangGraph Server, Aegra, or none (a script).

Several rules depend on it (dev mode starts unasked only under `langgraph dev`; the run limit
reads the engine's own run records; a run without a caller is the deployment's own code only
outside a server), so it is decided here, once, the same way for all of them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Literal

Engine = Literal["inmem", "aegra", "platform", "none"]
RUNTIME_EDITION = "LANGGRAPH_RUNTIME_EDITION"


def is_local_dev_server(env: Mapping[str, str] | None = None) -> bool:
    """True only under `langgraph dev`: its CLI sets LANGGRAPH_RUNTIME_EDITION=inmem explicitly.

    Platform images set `postgres`; Aegra and other servers set nothing, so they are not dev.
    """
    env = os.environ if env is None else env
    return env.get(RUNTIME_EDITION) == "inmem"


def engine(env: Mapping[str, str] | None = None) -> Engine:
    """The engine this process runs in (`none` for tests and scripts that import the graphs).

    `platform` is a LangGraph Server other than `langgraph dev` (its images set the edition).
    """
    env = os.environ if env is None else env
    edition = env.get(RUNTIME_EDITION)
    if edition == "inmem":
        return "inmem"
    if "aegra_api" in sys.modules:
        return "aegra"
    if edition:
        return "platform"
    return "none"


def in_server_process(env: Mapping[str, str] | None = None) -> bool:
    """True inside `langgraph dev`/LangGraph Server (they set the runtime edition) or Aegra."""
    env = os.environ if env is None else env
    return bool(env.get(RUNTIME_EDITION)) or "aegra_api" in sys.modules
