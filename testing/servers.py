"""A real `langgraph dev`, or Aegra on PostgreSQL + Redis, from the checkout on free loopback ports.

The e2e tests' fixtures (tests/e2e/conftest.py) and the benches start their servers with these, so
a bench measures the server the tests check. Import-safe: nothing here imports pytest.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from commands import local_stack

REPO_ROOT = Path(__file__).resolve().parents[1]
LANGGRAPH = Path(sys.executable).with_name("langgraph")


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def offline_env(tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for a quiet, offline server: no analytics, version check, tracing or keys."""
    # Keys and auth settings of the developer's shell never leak into a test server.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and not k.startswith("AUTH_")
    }
    env.update(
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="true",
        LANGSMITH_TRACING="false",
        DOCS_AGENT_INDEX_DIR=str(tmp / "index"),
        PYTHONUNBUFFERED="1",
    )
    env.pop("DOCS_AGENT_MODEL", None)
    env.pop("OPENAI_BASE_URL", None)
    env.update(extra or {})
    return env


def private_config(workdir: Path, checkout: Path = REPO_ROOT) -> Path:
    """A copy of `checkout`'s langgraph.json with absolute paths, so the server can run from `workdir`.

    The dev server keeps its state in `./.langgraph_api` of its working directory; running each
    test server from its own temp folder keeps concurrent servers (and the developer's) apart.
    """
    config = json.loads((checkout / "langgraph.json").read_text())

    def absolute(spec: str) -> str:
        return str(checkout / spec[2:]) if spec.startswith("./") else spec

    def graph(spec: str | dict[str, str]) -> str | dict[str, str]:
        # A graph is a path, or {"path": ..., "description": ...}.
        return (
            {**spec, "path": absolute(spec["path"])} if isinstance(spec, dict) else absolute(spec)
        )

    config["graphs"] = {name: graph(spec) for name, spec in config["graphs"].items()}
    config["dependencies"] = [
        str(checkout) if d == "." else absolute(d) for d in config["dependencies"]
    ]
    if isinstance(config.get("auth"), dict) and "path" in config["auth"]:
        config["auth"]["path"] = absolute(config["auth"]["path"])
    if isinstance(config.get("http"), dict) and "app" in config["http"]:
        config["http"]["app"] = absolute(config["http"]["app"])
    config["env"] = str(workdir / ".env")
    path = workdir / "langgraph.json"
    path.write_text(json.dumps(config, indent=2))
    return path


@contextmanager
def langgraph_dev(
    tmp: Path,
    extra_env: dict[str, str] | None = None,
    args: list[str] | None = None,
    port: int | None = None,
    graphs: dict[str, str] | None = None,
    checkout: Path = REPO_ROOT,
) -> Iterator[str]:
    """Start `langgraph dev` on the checkout's langgraph.json and yield its URL.

    The working directory is `tmp/server`, so the server's `.langgraph_api/` state stays private;
    starting again with the same `tmp` (and `port`) restarts on the same state. `graphs` adds
    graphs to the config (name -> "path.py:attr"). `checkout`: another checkout of the project
    (a baseline), served by its own `.venv`'s `langgraph`.
    """
    port = port or free_port()
    workdir = tmp / "server"
    workdir.mkdir(parents=True, exist_ok=True)
    log_path = workdir / "server.log"
    config_path = private_config(workdir, checkout)
    if graphs:
        config = json.loads(config_path.read_text())
        config["graphs"].update(graphs)
        config_path.write_text(json.dumps(config, indent=2))
    cmd = [
        str(LANGGRAPH if checkout == REPO_ROOT else checkout / ".venv" / "bin" / "langgraph"),
        "dev",
        "--no-browser",
        "--no-reload",
        "--port",
        str(port),
        "--config",
        str(config_path),
        *(args or []),
    ]
    with log_path.open("ab") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=workdir,
            env=offline_env(tmp, extra_env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"langgraph dev exited early:\n{log_path.read_text()[-4000:]}")
            try:
                if httpx.get(url + "/ok", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            raise RuntimeError(f"langgraph dev did not start:\n{log_path.read_text()[-4000:]}")
        yield url
    finally:
        local_stack.stop_process(proc, timeout=20)


# --- Aegra on PostgreSQL + Redis (docs/deploy.md) ------------------------------------------------


@dataclass
class AegraServices:
    """One throw-away PostgreSQL and Redis for the session; each stack gets its own database."""

    postgres_url: str
    redis_url: str
    _stacks: int = 0

    def new_stack(self) -> tuple[str, str, str]:
        """(DATABASE_URL, REDIS_URL, queue key) of a fresh, private stack."""
        self._stacks += 1
        n = self._stacks
        db = local_stack.create_database(self.postgres_url, f"stack{n}")
        base = self.redis_url.rsplit("/", 1)[0]
        return db, f"{base}/{n % 16}", f"docs-agent-e2e:{n}:jobs"


class AegraStack:
    """Aegra processes on one private database + Redis: start more, kill one, restart."""

    def __init__(
        self,
        tmp: Path,
        services: AegraServices,
        extra_env: dict[str, str] | None = None,
        graphs: dict[str, str] | None = None,
        config_edit: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.workdir = tmp / "aegra"
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.database_url, redis_url, queue = services.new_stack()
        config_path = private_config(self.workdir)
        config = local_stack.aegra_config(config_path)
        config["graphs"].update(graphs or {})  # type: ignore[attr-defined]
        if config_edit:
            config_edit(config)
        self.config = self.workdir / "aegra.json"
        self.config.write_text(json.dumps(config, indent=2))
        extra = {"WORKER_QUEUE_KEY": queue, **(extra_env or {})}
        if not any(k.startswith("AUTH_") for k in extra):
            extra["AUTH_DEV_MODE"] = "true"  # no auth asked for: the explicit dev mode
        self.env = local_stack.aegra_env(self.database_url, redis_url, offline_env(tmp, extra))
        self.processes: list[local_stack.AegraProcess] = []

    def start(self, port: int | None = None) -> local_stack.AegraProcess:
        """One more `aegra serve` on the same database and Redis."""
        n = len(self.processes)
        server = local_stack.start_aegra(
            self.config, self.env, self.workdir / f"server{n}.log", port=port
        )
        self.processes.append(server)
        return server

    def stop(self) -> None:
        """Stop every process of the stack (the databases stay for the session)."""
        for server in self.processes:
            server.stop()


@contextmanager
def aegra_server(
    tmp: Path,
    services: AegraServices,
    extra_env: dict[str, str] | None = None,
    graphs: dict[str, str] | None = None,
) -> Iterator[str]:
    """One Aegra process with this project, like `langgraph_dev`: yields its URL."""
    stack = AegraStack(tmp, services, extra_env, graphs)
    try:
        yield stack.start().url
    finally:
        stack.stop()
