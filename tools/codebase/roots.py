"""Code roots and path confinement: every path a tool touches is resolved and kept inside a root.

A root is configured as `label=path`, a path, or an installed package name (`langgraph`). Paths
shown to the model (and cited) are `<label>/<path inside the root>`.

Tool arguments are attacker-controlled (a signed-in user can write tool calls into their own
thread), so confinement is decided by what a path *is*, never by how the model was asked:
`refusal()` is the one rule every code tool applies to every path it opens, lists or searches —
hidden components, secret and state files, environments and caches, binaries, anything outside a
root. The default root (this repository) then holds the project's code but not its `.env`, `.git`
or the server's `.langgraph_api/` state.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from settings.dotenv import REPO_ROOT

log = logging.getLogger(__name__)

# Directories never searched or listed: environments, caches, VCS data.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        "node_modules",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".langgraph_api",
        ".docs_agent_cache",
        "dist",
        "build",
        ".tox",
        ".idea",
        ".vscode",
        ".gl",
        ".whl",
    }
)


# File names never read or searched, whatever folder they are in: credentials, keys and pickled or
# database state (the dev server's checkpoints are `.pckl`, the search index is SQLite).
SECRET_FILE_PATTERNS = (
    ".env*",
    "*.env",
    ".netrc",
    ".pgpass",
    ".htpasswd",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "*.pckl",
    "*.pkl",
    "*.pickle",
    "*.sqlite",
    "*.sqlite3",
    "*.db",
)


class PathError(ValueError):
    """A path the tools refuse: outside every root, missing, or of the wrong kind."""


@dataclass(frozen=True)
class CodeRoot:
    """One searchable tree."""

    label: str
    path: Path

    def display(self, full: Path) -> str:
        """`label/relative/path` for a file inside this root."""
        rel = full.relative_to(self.path).as_posix()
        return self.label if rel == "." else f"{self.label}/{rel}"


def parse_roots(specs: tuple[str, ...]) -> list[CodeRoot]:
    """Resolve root specs; a spec that names nothing present is skipped with a warning."""
    roots: list[CodeRoot] = []
    for spec in specs:
        label, _, target = spec.partition("=") if "=" in spec else ("", "", spec)
        target = target.strip()
        path = _as_path(target)
        if path is None:
            log.warning("code root %r is neither a folder nor an installed package; skipped", spec)
            continue
        label = label.strip() or (target if _is_package_name(target) else path.name)
        if any(r.label == label for r in roots):
            label = f"{label}-{len(roots)}"
        roots.append(CodeRoot(label, path))
    return roots


def _is_package_name(target: str) -> bool:
    return target.replace("_", "").replace(".", "").isalnum() and not Path(target).is_dir()


def _as_path(target: str) -> Path | None:
    candidate = Path(target).expanduser()
    if not candidate.is_absolute():
        candidate = REPO_ROOT / candidate
    if candidate.is_dir():
        return candidate.resolve()
    if _is_package_name(target):
        try:
            spec = importlib.util.find_spec(target)
        except (ImportError, ValueError):
            return None
        if spec is None:
            return None
        if spec.submodule_search_locations:
            return Path(next(iter(spec.submodule_search_locations))).resolve()
        if spec.origin:
            return Path(spec.origin).resolve().parent
    return None


def is_secret_name(name: str) -> bool:
    """A file name that holds credentials or server state (see SECRET_FILE_PATTERNS)."""
    lowered = name.lower()
    return any(fnmatch.fnmatchcase(lowered, pattern) for pattern in SECRET_FILE_PATTERNS)


def refused_component(root: CodeRoot, real: Path) -> str | None:
    """Why `real` (already resolved) may not be touched, judged by name alone; None when allowed.

    Cheap enough to run on every search result: it reads nothing from disk.
    """
    if not real.is_relative_to(root.path):
        return "it is outside the code roots"
    parts = real.relative_to(root.path).parts
    for i, part in enumerate(parts):
        if part.startswith("."):
            return "hidden files and folders are not readable"
        if part in SKIP_DIRS:
            return "environments, caches and build output are not readable"
        if i == len(parts) - 1 and is_secret_name(part):
            return "credential and state files are not readable"
    return None


def refusal(root: CodeRoot, real: Path) -> str | None:
    """The one confinement rule for every code tool; None when `real` may be opened, else why not.

    `real` must be the resolved path (symlinks followed), so a link is judged by its target.
    Files must also be text: binary files (the dev server's pickles, images, archives) are refused.
    """
    reason = refused_component(root, real)
    if reason is None and real.is_file() and is_binary(real):
        reason = "binary files are not readable"
    return reason


def resolve_path(
    roots: list[CodeRoot], raw: str | None, want: str = "any"
) -> tuple[CodeRoot, Path]:
    """Map a user/model-given path to (root, absolute path) inside that root, or raise PathError.

    Accepts `label/sub/path`, a path relative to any root, or an absolute path under a root.
    Symlinks are resolved first, so one pointing out of the root is refused like `..` is.
    """
    if not roots:
        raise PathError("No code roots are configured.")
    text = (raw or "").strip().replace("\\", "/")
    if "\x00" in text:
        raise PathError("The path contains a NUL character.")
    candidates: list[tuple[CodeRoot, Path]] = []
    if not text or text in {".", "/"}:
        raise PathError("Give a path inside a root: " + ", ".join(r.label for r in roots))
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        p = Path(text)
        candidates = [(r, p) for r in roots]
    else:
        head, _, rest = text.partition("/")
        for r in roots:
            if head == r.label:
                candidates.append((r, r.path / rest if rest else r.path))
        for r in roots:
            candidates.append((r, r.path / text))
    refused = False
    for root, p in candidates:
        try:
            real = Path(os.path.realpath(p))
        except (OSError, ValueError):
            continue
        if not real.is_relative_to(root.path):
            refused = True
            continue
        if not real.exists():
            continue
        reason = refusal(root, real)
        if reason is not None:
            raise PathError(f"Refused: {text!r} — {reason}.")
        if want == "file" and not real.is_file():
            raise PathError(f"{text!r} is a directory, not a file: use list_directory.")
        if want == "dir" and not real.is_dir():
            raise PathError(f"{text!r} is a file, not a directory: use read_code_file.")
        return root, real
    if refused:
        raise PathError(
            f"Refused: {text!r} points outside the code roots ({', '.join(r.label for r in roots)})."
        )
    raise PathError(
        f"No such path: {text!r}. Paths look like '<root>/<path>' with roots: "
        + ", ".join(r.label for r in roots)
        + ". Use list_directory or search_code to find files."
    )


def is_binary(path: Path) -> bool:
    """A file with a NUL byte in its first 8 KiB is treated as binary (as ripgrep does)."""
    try:
        with path.open("rb") as fh:
            return b"\x00" in fh.read(8192)
    except OSError:
        return True


def walk_files(root: CodeRoot, base: Path) -> list[Path]:
    """Files under `base` (or `base` itself) that `refusal` allows, sorted.

    Symlinks are skipped as ripgrep skips them (no --follow): one may point out of the root.
    """
    if base.is_file():
        return [base] if refusal(root, base) is None else []
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            full = Path(dirpath) / name
            if not full.is_symlink() and refused_component(root, full) is None:
                out.append(full)
    return out


def ripgrep_excludes() -> list[str]:
    """The `--glob` arguments that make ripgrep skip what `refusal` refuses by name, at any depth.

    ripgrep already skips hidden files, binaries and symlinks while walking; these globs add the
    environments, caches and secret names. Explicit paths never reach ripgrep unchecked:
    `resolve_path` applies `refusal` to them first.
    """
    globs: list[str] = []
    for d in sorted(SKIP_DIRS):
        globs += ["--glob", f"!{d}"]
    for pattern in SECRET_FILE_PATTERNS:
        globs += ["--iglob", f"!{pattern}"]
    return globs
