"""Serve the graphs on Aegra (PostgreSQL + Redis), against given databases or throw-away local ones.

    python -m commands.local_stack             # `make aegra`: DATABASE_URL/REDIS_URL if set, else local ones
    python -m commands.local_stack --local     # always start a temporary PostgreSQL and Redis

The same helpers start the temporary PostgreSQL and Redis of the Aegra e2e suite and benches, so a
try-out, the tests and the benches run the engine the same way. PostgreSQL runs as the `postgres`
user when started by root (initdb refuses root); data lives in a temp folder that is removed at exit.
Only the standard library (and the stdlib-only server/identity.py and settings/): this module runs in
the project's own environment and launches Aegra from its separate Python 3.12 environment
(`make aegra-install` → `.venv-aegra`, or `DOCS_AGENT_AEGRA_VENV`). Its settings (settings/stack.py)
are read as Aegra reads them: the environment wins over `.env` (settings/dotenv.py).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from server.identity import MEMORY_NAMESPACE, NAMESPACE_LABEL_FIELD
from settings import Settings
from settings.dotenv import effective_env, env_file

REPO_ROOT = Path(__file__).resolve().parents[1]


def aegra_settings() -> Settings:
    """The settings as Aegra reads them: the environment, then `.env` where it is silent."""
    return Settings(effective_env(os.environ, env_file(), file_wins=False))


SETTINGS = aegra_settings()
AEGRA_VENV = SETTINGS.stack.aegra_venv
AEGRA_BIN = AEGRA_VENV / "bin" / "aegra"
DATABASE = "docs_agent"


class StackError(RuntimeError):
    """A service could not be found or did not start; the message says which and why."""


def stop_process(proc: subprocess.Popen[bytes], timeout: float) -> int:
    """SIGTERM, then SIGKILL after `timeout` seconds; the exit status."""
    proc.terminate()
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def stop_group(proc: subprocess.Popen[bytes], timeout: float) -> int:
    """SIGTERM to the process group `proc` leads, SIGKILL after `timeout`; `proc`'s exit status.

    `aegra serve` runs uvicorn as a child process: a signal to `aegra` alone leaves uvicorn
    serving, so Aegra is started in its own session and stopped as a group.
    """

    def signal_group(sig: int) -> None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass

    signal_group(signal.SIGTERM)
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        signal_group(signal.SIGKILL)
        return proc.wait()
    signal_group(signal.SIGKILL)  # a child that outlived its parent's exit
    return status


def _free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_bin(name: str) -> str | None:
    """A PostgreSQL program: Debian's /usr/lib/postgresql/<newest>/bin first, else PATH.

    Debian's /usr/bin wrappers need a cluster configuration; the versioned binaries do not.
    """
    versioned = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
        reverse=True,
    )
    return versioned[0] if versioned else shutil.which(name)


def missing_services() -> list[str]:
    """What this machine lacks to run the local stack (empty when everything is there)."""
    missing = [name for name in ("initdb", "pg_ctl") if postgres_bin(name) is None]
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        missing.append("runuser")
    if not AEGRA_BIN.exists():
        missing.append(f"{AEGRA_BIN} (make aegra-install)")
    return missing


def _as_postgres(cmd: list[str]) -> list[str]:
    """Run as the `postgres` user when root: initdb and postgres refuse to run as root."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def local_postgres() -> Iterator[str]:
    """A throw-away PostgreSQL on a free loopback port; yields its DATABASE_URL.

    fsync is off: the data is thrown away anyway, and tests then do not wait on the disk.
    """
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise StackError("PostgreSQL is not installed (initdb/pg_ctl): apt-get install postgresql")
    # Under /tmp itself, not pytest's 0700 tmp folders: the postgres user must reach it.
    root = Path(tempfile.mkdtemp(prefix="docs-agent-pg-"))
    data = root / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(data, "postgres")
    port = _free_port()
    log = root / "postgres.log"
    try:
        _check(
            _as_postgres(
                [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N"]
            ),
            "initdb",
        )
        options = f"-h 127.0.0.1 -p {port} -k {root} -F"
        _check(
            _as_postgres([pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"]),
            "pg_ctl start",
            log,
        )
        yield create_database(f"postgresql://postgres@127.0.0.1:{port}/postgres", DATABASE)
    finally:
        subprocess.run(
            _as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)


def create_database(url: str, name: str) -> str:
    """Create database `name` on the server of `url` (trust auth); return the URL of the new one."""
    createdb = postgres_bin("createdb")
    if not createdb:
        raise StackError("createdb not found (PostgreSQL client tools)")
    server, _, _ = url.rpartition("/")
    host_port = server.rsplit("@", 1)[-1]
    host, _, port = host_port.partition(":")
    _check([createdb, "-h", host, "-p", port or "5432", "-U", "postgres", name], "createdb")
    return f"{server}/{name}"


def psql(url: str, sql: str) -> str:
    """One SQL statement through `psql` (unaligned, tuples only): tests look into Aegra's tables."""
    client = postgres_bin("psql")
    if not client:
        raise StackError("psql not found (PostgreSQL client tools)")
    done = subprocess.run(
        [client, url, "-At", "-c", sql], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise StackError(f"psql failed: {done.stderr[-2000:]}")
    return done.stdout.strip()


@contextmanager
def local_redis() -> Iterator[str]:
    """A throw-away Redis (no persistence) on a free loopback port; yields its REDIS_URL."""
    server = shutil.which("redis-server")
    if not server:
        raise StackError("redis-server is not installed: apt-get install redis-server")
    root = Path(tempfile.mkdtemp(prefix="docs-agent-redis-"))
    port = _free_port()
    cmd = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(
        [*cmd, "--dir", str(root)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        while not _redis_ping(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise StackError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop_process(proc, timeout=10)
        shutil.rmtree(root, ignore_errors=True)


def _redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _check(cmd: list[str], what: str, log: Path | None = None) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
        raise StackError(f"{what} failed ({done.returncode}): {done.stderr[-2000:]}{tail}")


def aegra_env(
    database_url: str, redis_url: str, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Environment of one Aegra process: `base` (default: ours) plus the databases and Redis as broker."""
    env = dict(os.environ if base is None else base)
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        REDIS_BROKER_ENABLED="true",
        LANGSMITH_TRACING="false",
        PYTHONUNBUFFERED="1",
    )
    return env


@dataclass
class AegraProcess:
    """A running `aegra serve`: its URL and process (tests kill it with SIGKILL)."""

    url: str
    proc: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL the whole process group: no graceful shutdown, as in a crash."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM (graceful: running jobs are drained), SIGKILL after 20 s."""
        if self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            self.kill()


def start_aegra(
    config: Path,
    env: Mapping[str, str],
    log: Path,
    port: int | None = None,
    host: str = "127.0.0.1",
) -> AegraProcess:
    """`aegra serve -c config`, ready when `GET /health` answers 200 (migrations done, graphs loaded)."""
    if not AEGRA_BIN.exists():
        raise StackError(f"Aegra is not installed at {AEGRA_BIN}: run `make aegra-install`")
    port = port or _free_port()
    cmd = [str(AEGRA_BIN), "serve", "-c", str(config), "--host", host, "--port", str(port)]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=config.parent,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    server = AegraProcess(url, proc, log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise StackError(f"aegra exited early:\n{log.read_text(errors='replace')[-4000:]}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as r:
                if r.status == 200:
                    return server
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    server.kill()
    raise StackError(f"aegra did not become healthy:\n{log.read_text(errors='replace')[-4000:]}")


@contextmanager
def aegra(
    config: Path, env: Mapping[str, str], log: Path, port: int | None = None
) -> Iterator[AegraProcess]:
    """`start_aegra` as a context manager that stops the server at exit."""
    server = start_aegra(config, env, log, port)
    try:
        yield server
    finally:
        server.stop()


def aegra_config(langgraph_json: Path = REPO_ROOT / "langgraph.json") -> dict[str, object]:
    """The Aegra config: `langgraph.json` (graphs as plain paths) plus a store scope for memories.

    Aegra's store API buries every namespace under `("users", <identity>)` unless a scope says
    otherwise; `{"memories": ["namespace_label"]}` makes `/store/items` address
    `("memories", <user's label>)`, where the graph's memory tools keep a user's memories. `langgraph dev` never reads this file.
    """
    config = json.loads(langgraph_json.read_text())
    # Aegra takes a graph as a "file.py:attr" string; langgraph.json may give {"path", "description"}
    # (the description is what LangGraph Server shows), so keep just the path here.
    config["graphs"] = {
        name: spec["path"] if isinstance(spec, dict) else spec
        for name, spec in dict(config.get("graphs") or {}).items()
    }
    store = dict(config.get("store") or {})
    # Scoped by the identity's namespace label (server/identity.py), not the raw identity: the
    # label is what the memory tools use, and a dotted id (an e-mail) is not a valid label.
    store["scopes"] = {
        MEMORY_NAMESPACE: [NAMESPACE_LABEL_FIELD],
        "answers_report": ["report_scope"],
    }
    config["store"] = store
    return dict(config)


def _serve(args: argparse.Namespace) -> int:
    database_url = "" if args.local else SETTINGS.stack.database_url
    redis_url = "" if args.local else SETTINGS.stack.redis_url
    config = REPO_ROOT / "aegra.json"
    with _maybe(local_postgres, database_url) as db, _maybe(local_redis, redis_url) as redis:
        env = aegra_env(db, redis)
        print(f"Aegra on http://{args.host}:{args.port}  (PostgreSQL {db}, Redis {redis})")
        print(
            "Ctrl-C stops it"
            + (
                " and removes the local databases."
                if args.local or not (database_url and redis_url)
                else "."
            )
        )
        cmd = [
            str(AEGRA_BIN),
            "serve",
            "-c",
            str(config),
            "--host",
            args.host,
            "--port",
            str(args.port),
        ]
        # Its own session: Ctrl-C reaches only this process, which then stops Aegra's whole group.
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, start_new_session=True)
        try:
            return proc.wait()
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see main): stop Aegra, then the databases
            # SIGTERM: uvicorn drains; SIGINT may be ignored in a background job.
            return stop_group(proc, timeout=30)
        finally:
            if proc.poll() is None:
                stop_group(proc, timeout=30)


@contextmanager
def _maybe(start: Callable[[], AbstractContextManager[str]], given: str) -> Iterator[str]:
    """The given URL, or a local service started for the duration."""
    if given:
        yield given
        return
    with start() as url:
        yield url


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def check_auth(env: Mapping[str, str], config_dir: Path = REPO_ROOT) -> str | None:
    """Why Aegra's auth settings would be refused (None when they are fine).

    Runs `python -m commands.check_auth` with the `.env` Aegra reads (next to its config; the
    environment wins there), so the verdict is the server's own. Aegra would start anyway and
    refuse every request; this stops `make aegra` before anything starts.
    """
    cmd = [sys.executable, "-m", "commands.check_auth", "--env-file", str(config_dir / ".env")]
    done = subprocess.run(
        cmd, cwd=REPO_ROOT, env=dict(env), capture_output=True, text=True, check=False
    )
    if done.returncode == 0:
        return None
    return (done.stderr or done.stdout).strip() or f"auth check exited {done.returncode}"


def main(argv: list[str] | None = None) -> int:
    """CLI of `make aegra`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--local", action="store_true", help="start local PostgreSQL and Redis even if URLs are set"
    )
    parser.add_argument("--host", default=SETTINGS.web.host or "127.0.0.1")
    parser.add_argument("--port", type=int, default=int(SETTINGS.web.port or "8123"))
    args = parser.parse_args(argv)
    missing = [m for m in missing_services() if "aegra" in m]
    if missing:
        print(f"missing: {', '.join(missing)}", file=sys.stderr)
        return 2
    refused = check_auth(os.environ)
    if refused:
        print(
            f"error: {refused}\n"
            "Aegra is not started. Set AUTH_TOKENS (or JWT) in the environment or .env, or\n"
            "AUTH_DEV_MODE=true for a local try-out (docs/auth.md).",
            file=sys.stderr,
        )
        return 2
    signal.signal(signal.SIGTERM, _interrupt)  # a service manager's stop cleans up like Ctrl-C
    try:
        return _serve(args)
    except StackError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
