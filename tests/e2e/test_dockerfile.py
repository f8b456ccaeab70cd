"""`langgraph dockerfile` (offline): the production image carries our graphs, auth and TTL settings."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from testing.servers import LANGGRAPH, REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def test_dockerfile_has_graphs_auth_and_ttls(tmp_path: Path) -> None:
    out = tmp_path / "Dockerfile"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(LANGGRAPH_CLI_NO_ANALYTICS="1", AUTH_TOKENS="must-not-leak:alice")
    subprocess.run(
        [str(LANGGRAPH), "dockerfile", "-c", str(REPO_ROOT / "langgraph.json"), str(out)],
        cwd=REPO_ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=90,
    )
    text = out.read_text()
    envs = {}
    for line in text.splitlines():
        if line.startswith("ENV ") and "='" in line:
            name, _, value = line[4:].partition("=")
            envs[name] = json.loads(value.strip("'"))
    config = json.loads((REPO_ROOT / "langgraph.json").read_text())

    assert (
        set(envs["LANGSERVE_GRAPHS"]) == set(config["graphs"])
        and "docs_agent" in envs["LANGSERVE_GRAPHS"]
    )
    graphs = envs["LANGSERVE_GRAPHS"]
    # A graph is {"path", "description"}: the path is rewritten into the image, the description kept.
    assert all(spec["path"].startswith("/deps/") for spec in graphs.values())
    assert all(
        spec["description"] == config["graphs"][n]["description"] for n, spec in graphs.items()
    )
    assert envs["LANGGRAPH_AUTH"]["path"].endswith("/server/auth.py:auth")
    assert envs["LANGGRAPH_AUTH"]["disable_studio_auth"] is True
    assert envs["LANGGRAPH_CHECKPOINTER"]["ttl"] == config["checkpointer"]["ttl"]
    assert envs["LANGGRAPH_CHECKPOINTER"]["ttl"]["default_ttl"] == 10080  # 7 days, in minutes
    assert envs["LANGGRAPH_STORE"]["ttl"] == config["store"]["ttl"]
    # Secrets come from the deployment's environment, never baked into the image.
    assert "must-not-leak" not in text and "AUTH_TOKENS" not in text
