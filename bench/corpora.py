"""What the benches run on: a corpus described by its folder, not by one project's constants.

A description (`Corpus`) is derived from the folder: `docs/` and `kb/`, the site generator (as the
project's own site profile detects it, `tools.sources.registry`; the profile also reads the site's
base URL where its config names one), each page's real URL from `docs/MANIFEST.jsonl`, and the eval
files. `bench/corpora.toml` adds only what a folder cannot say (the Mintlify site's
address, a versioned site's path, the code roots); its entries are data, the code has no branch
per corpus. The benches open the sources through the same settings the server reads
(`Corpus.env` → `SourceSettings`), so whatever the project learns about formats and URLs, the
benches measure it as a user would get it.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import REPO_ROOT
from tools.sources.registry import detect_generator as site_generator

DESCRIPTIONS = Path(__file__).with_name("corpora.toml")
# Suffixes that are not pages of any generator: assets and the site's own build files.
_NOT_PAGES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".css", ".js", ".json", ".jsonl", ".txt"}


@dataclass(frozen=True)
class Corpus:
    """One corpus as the benches see it: where its pages are, how they are addressed, its questions."""

    name: str
    folder: Path
    docs_dir: Path
    kb_dir: Path | None
    generator: str
    base_url: str
    strip_prefixes: tuple[str, ...] = ()
    code_roots: str = ""
    questions: Path | None = None
    multilingual: Path | None = None
    env_overrides: Mapping[str, str] = field(default_factory=dict)

    def env(self, index_dir: Path, embeddings: str = "off") -> dict[str, str]:
        """The `DOCS_AGENT_*` settings that point the project at this corpus, as a user sets them."""
        env = {
            "DOCS_AGENT_DOCS_DIR": str(self.docs_dir),
            "DOCS_AGENT_KB_DIR": str(self.kb_dir) if self.kb_dir else "",
            "DOCS_AGENT_DOCS_BASE_URL": self.base_url,
            "DOCS_AGENT_DOCS_STRIP_PREFIXES": ",".join(self.strip_prefixes),
            "DOCS_AGENT_CODE_ROOTS": self.code_roots,
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
            "DOCS_AGENT_EMBEDDINGS": embeddings,
        }
        env.update(self.env_overrides)
        return env

    def manifest(self) -> list[dict[str, Any]]:
        """Each page's manifest line, `path` made corpus-relative (`docs/...`, `kb/...`).

        Manifests name paths relative to their own folder or to the corpus; both are read.
        """
        out: list[dict[str, Any]] = []
        for sub in (self.docs_dir, self.kb_dir):
            if sub is None or not (sub / "MANIFEST.jsonl").is_file():
                continue
            for line in (sub / "MANIFEST.jsonl").read_text("utf-8").splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                path = _corpus_relative(self.folder, sub, row["path"])
                if path is not None:
                    out.append({**row, "path": path})
        return out

    def page_files(self) -> list[tuple[str, Path]]:
        """(corpus-relative path, file) of every page: the manifests' pages, else files by suffix."""
        listed = [(row["path"], self.folder / row["path"]) for row in self.manifest()]
        if listed:
            return listed
        return [(p.relative_to(self.folder).as_posix(), p) for p in self._files()]

    def formats(self) -> Counter[str]:
        """How many files of each suffix the docs and KB folders hold (what a reader must take)."""
        return Counter(p.suffix.lower() or p.name for p in self._files())

    def _files(self) -> Iterator[Path]:
        for sub in (self.docs_dir, self.kb_dir):
            if sub is None:
                continue
            for p in sorted(sub.rglob("*")):
                parts = p.relative_to(sub).parts
                if (
                    p.is_file()
                    and p.suffix.lower() not in _NOT_PAGES
                    and not any(x.startswith((".", "_")) for x in parts)
                    and p.name not in {"conf.py", "Makefile", "LICENSE"}
                ):
                    yield p


def _corpus_relative(folder: Path, sub: Path, path: str) -> str | None:
    for base in (sub, folder):
        if (base / path).is_file():
            return (base / path).relative_to(folder).as_posix()
    return None


def detect_generator(folder: Path) -> str:
    """The site generator of the corpus's docs, as the project's own site profile detects it."""
    docs = folder / "docs"
    return site_generator(docs if docs.is_dir() else folder)[0]


def describe(folder: Path, name: str = "", **overrides: Any) -> Corpus:
    """The description of a corpus folder, with `overrides` (`bench/corpora.toml` fields) on top."""
    folder = folder.resolve()
    generator = detect_generator(folder)
    eval_dir = folder / "eval"
    questions = overrides.get("questions")
    multilingual = overrides.get("multilingual")
    kb = folder / "kb"
    return Corpus(
        name=name or folder.name,
        folder=folder,
        docs_dir=folder / "docs",
        kb_dir=kb if kb.is_dir() else None,
        generator=overrides.get("generator", generator),
        # "" leaves the address to the site's own config (`site_url`, `html_baseurl`), as for a user.
        base_url=overrides.get("base_url", ""),
        strip_prefixes=tuple(overrides.get("strip_prefixes", ())),
        code_roots=overrides.get("code_roots", ""),
        questions=_existing(folder, questions, eval_dir / "dev.jsonl"),
        multilingual=_existing(folder, multilingual, eval_dir / "dev_multilingual.jsonl"),
        env_overrides={k: str(v) for k, v in overrides.get("env", {}).items()},
    )


def _existing(folder: Path, given: str | None, default: Path) -> Path | None:
    path = (folder / given) if given else default
    return path if path.is_file() else None


def load(names: str = "", descriptions: Path = DESCRIPTIONS) -> list[Corpus]:
    """The described corpora whose folders exist (all, or the comma-separated `names`)."""
    table = tomllib.loads(descriptions.read_text("utf-8")).get("corpus", {})
    wanted = [n for n in names.split(",") if n] or list(table)
    unknown = [n for n in wanted if n not in table]
    if unknown:
        raise SystemExit(f"no corpus named {', '.join(unknown)} in {descriptions}")
    out = []
    for name in wanted:
        entry = dict(table[name])
        folder = Path(entry.pop("folder"))
        folder = folder if folder.is_absolute() else REPO_ROOT / folder
        if folder.is_dir():
            out.append(describe(folder, name, **entry))
    return out


def resolve(ref: str | Path) -> Corpus:
    """A corpus by its name in `bench/corpora.toml`, or by folder (described, overrides applied
    when the folder is one the file describes)."""
    table = tomllib.loads(DESCRIPTIONS.read_text("utf-8")).get("corpus", {})
    if str(ref) in table:
        return load(str(ref))[0]
    folder = Path(ref).resolve()
    for name, entry in table.items():
        given = Path(entry["folder"])
        if (given if given.is_absolute() else REPO_ROOT / given).resolve() == folder:
            overrides = {k: v for k, v in entry.items() if k != "folder"}
            return describe(folder, name, **overrides)
    return describe(folder)


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The eval questions, one JSON object per line."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
