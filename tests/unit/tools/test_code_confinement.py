"""Code tools confine by what a path is, whatever the arguments: a hostile user can write any tool
call into their own thread, so secrets, server state, hidden and binary files must be out of reach of
`read_code_file`, `search_code` (ripgrep and the Python fallback) and `list_directory`."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tools.code import create_code_tools
from tools.codebase import search as code_search
from tools.codebase.roots import CodeRoot, PathError, refusal, resolve_path

MARKER = "CANARY-7d1f0c"


@pytest.fixture
def victim(tmp_path: Path) -> CodeRoot:
    """A project root as a deployment has it: code next to `.env`, `.git`, server state, keys."""
    root = tmp_path / "app"
    files = {
        "app.py": "def handler():\n    return 'ok'\n",
        ".env": f"AUTH_TOKENS=tok:alice\nOPENAI_API_KEY={MARKER}\n",
        ".env.production": f"SECRET={MARKER}\n",
        ".git/config": f"[remote]\n  url = https://{MARKER}@example.com/x.git\n",
        ".langgraph_api/.langgraph_checkpoint.1.pckl": f"user said {MARKER}\n",
        ".langgraph_api/store.json": f'{{"memo": "{MARKER}"}}\n',
        "deploy/server.pem": f"-----BEGIN PRIVATE KEY-----\n{MARKER}\n",
        "deploy/id_ed25519": f"{MARKER}\n",
        "deploy/prod.env": f"KEY={MARKER}\n",
        "state/threads.pckl": f"{MARKER}\n",
        "state/index.sqlite": f"{MARKER}\n",
        "sub/.hidden/notes.py": f"# {MARKER}\n",
        ".venv/lib/site.py": f"# {MARKER}\n",
        "node_modules/pkg/index.js": f"// {MARKER}\n",
        "__pycache__/app.cpython-311.pyc": f"{MARKER}\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "blob.dat").write_bytes(b"\x00\x01" + MARKER.encode() + b"\x00")
    (root / "link.txt").symlink_to(root / ".env")
    (root / "linkdir").symlink_to(root / ".git", target_is_directory=True)
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{MARKER}\n")
    (root / "out.txt").symlink_to(outside)
    return CodeRoot("app", root.resolve())


ATTACK_PATHS = [
    "app/.env",
    ".env",
    "app/.env.production",
    "app/.git/config",
    ".git/config",
    "app/.langgraph_api/.langgraph_checkpoint.1.pckl",
    "app/.langgraph_api/store.json",
    "app/.langgraph_api",
    "app/deploy/server.pem",
    "app/deploy/id_ed25519",
    "app/deploy/prod.env",
    "app/state/threads.pckl",
    "app/state/index.sqlite",
    "app/sub/.hidden/notes.py",
    "app/sub/.hidden",
    "app/.venv/lib/site.py",
    "app/node_modules/pkg/index.js",
    "app/__pycache__/app.cpython-311.pyc",
    "app/blob.dat",
    "app/link.txt",
    "app/linkdir/config",
    "app/out.txt",
    "app/../outside.txt",
    "app/sub/../.env",
    "./app/.env",
    "app//.env",
    "app/./.git/config",
    "app\\.env",
]


def tools(root: CodeRoot) -> dict:
    return {t.name: t for t in create_code_tools([root], 10.0)}


def absolute(root: CodeRoot, rel: str) -> str:
    return str(root.path / rel.removeprefix("app/"))


def test_refusal_names_the_reason(victim: CodeRoot) -> None:
    assert refusal(victim, victim.path / "app.py") is None
    assert "hidden" in (refusal(victim, victim.path / ".env") or "")
    assert "credential" in (refusal(victim, victim.path / "deploy" / "server.pem") or "")
    assert "binary" in (refusal(victim, victim.path / "blob.dat") or "")
    assert "environments" in (refusal(victim, victim.path / "node_modules" / "pkg") or "")
    assert "outside" in (refusal(victim, victim.path.parent / "outside.txt") or "")


@pytest.mark.parametrize("path", ATTACK_PATHS)
def test_resolve_refuses_every_attack_path(victim: CodeRoot, path: str) -> None:
    with pytest.raises(PathError):
        resolve_path([victim], path)
    with pytest.raises(PathError):
        resolve_path([victim], absolute(victim, path))


@pytest.mark.parametrize("use_rg", [True, False])
def test_no_tool_call_reveals_a_secret(
    victim: CodeRoot, use_rg: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if use_rg and not code_search.rg_available():
        pytest.skip("ripgrep not installed")
    monkeypatch.setattr(code_search, "rg_available", lambda: use_rg)
    t = tools(victim)
    calls: list[tuple[str, dict]] = []
    for path in ATTACK_PATHS:
        for p in (path, absolute(victim, path)):
            calls.append(("read_code_file", {"file_path": p}))
            calls.append(("search_code", {"pattern": "CANARY|TOKENS|SECRET", "path": p}))
            calls.append(("list_directory", {"path": p, "max_depth": 4}))
    for pattern, path in itertools.product(
        ["CANARY", "canary-7d1f0c", r"\w+-7d1f0c", "AUTH_TOKENS", "."], [None, "app", "app/state"]
    ):
        calls.append(("search_code", {"pattern": pattern, "path": path}))
    calls.append(("list_directory", {"path": "app", "max_depth": 4}))
    leaked = []
    for name, args in calls:
        out = t[name].invoke({**args, "feedback_to_user": ""})
        if MARKER in str(out):  # patterns are echoed, so none contains the exact marker
            leaked.append((name, args))
    assert len(calls) >= 150
    assert not leaked, leaked
    # The same tools still serve the code itself.
    listing = t["list_directory"].invoke({"path": "app", "max_depth": 4, "feedback_to_user": ""})
    assert "app.py" in listing and ".env" not in listing and "server.pem" not in listing
    assert "return 'ok'" in t["read_code_file"].invoke(
        {"file_path": "app/app.py", "feedback_to_user": ""}
    )
    found = t["search_code"].invoke(
        {"pattern": "def handler", "path": None, "feedback_to_user": ""}
    )
    assert "app/app.py:1" in found


def test_refused_read_says_why(victim: CodeRoot) -> None:
    out = tools(victim)["read_code_file"].invoke({"file_path": "app/.env", "feedback_to_user": ""})
    assert out.startswith("Refused") and "hidden" in out
    out = tools(victim)["read_code_file"].invoke(
        {"file_path": "app/blob.dat", "feedback_to_user": ""}
    )
    assert out.startswith("Refused") and "binary" in out
