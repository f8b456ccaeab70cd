"""The Aegra deploy files stay in step with langgraph.json and the Makefile's pinned version."""

from __future__ import annotations

import json
import re

import yaml

from commands.local_stack import aegra_config
from settings.dotenv import REPO_ROOT


def test_aegra_json_is_langgraph_json_plus_the_store_scopes() -> None:
    committed = json.loads((REPO_ROOT / "aegra.json").read_text())
    assert committed == aegra_config(REPO_ROOT / "langgraph.json")
    assert committed["store"]["scopes"] == {
        "memories": ["namespace_label"],
        "answers_report": ["report_scope"],
    }


def test_compose_serves_aegra_json_after_the_index_on_pinned_aegra() -> None:
    compose = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "index", "aegra"} <= set(services)
    aegra = services["aegra"]
    assert aegra["depends_on"]["index"] == {"condition": "service_completed_successfully"}
    assert aegra["command"][:4] == ["aegra", "serve", "-c", "aegra.json"]
    assert services["index"]["command"][:3] == ["python", "-m", "tools.build_index"]
    assert ".:/app" in aegra["volumes"]
    for svc in ("index", "aegra"):
        assert services[svc]["environment"]["DOCS_AGENT_INDEX_DIR"] == "/index"
    pinned = re.search(r"^AEGRA_VERSION := (\S+)$", (REPO_ROOT / "Makefile").read_text(), re.M)
    assert pinned
    dockerfile = services["index"]["build"]["dockerfile_inline"]
    assert f'"aegra-cli=={pinned[1]}" "aegra-api=={pinned[1]}"' in dockerfile
