"""Where the knowledge comes from: every source is set by one environment variable.

Defaults make a fresh clone answer questions about itself: `docs/`, `kb/`, and as code roots this
repository plus the installed `langgraph` package.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def _path(value: str) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else (REPO_ROOT / path)


@dataclass(frozen=True)
class SourceSettings:
    """Configuration of the three knowledge sources and the index cache."""

    docs_dir: Path | None
    docs_base_url: str
    docs_strip_prefixes: tuple[str, ...]
    docs_lang: str
    llms_txt_url: str
    kb_dir: Path | None
    kb_url: str
    kb_token: str
    code_roots: tuple[str, ...]
    index_dir: Path
    code_timeout_s: float = 10.0
    # `use` (the multilingual sentence encoder, for questions in other languages) or `off`.
    embeddings: str = "use"
    # The language the docs and KB pages are written in, as the search tools tell the model.
    corpus_language: str = "English"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SourceSettings:
        """Read the `DOCS_AGENT_*` variables; an empty value switches that source off."""
        env = os.environ if env is None else env

        def get(name: str, default: str) -> str:
            return env.get(name, default).strip()

        docs = get("DOCS_AGENT_DOCS_DIR", "docs")
        kb = get("DOCS_AGENT_KB_DIR", "kb")
        return cls(
            docs_dir=_path(docs) if docs else None,
            docs_base_url=get("DOCS_AGENT_DOCS_BASE_URL", ""),
            docs_strip_prefixes=_split(get("DOCS_AGENT_DOCS_STRIP_PREFIXES", "")),
            docs_lang=get("DOCS_AGENT_DOCS_LANG", "python") or "python",
            llms_txt_url=get("DOCS_AGENT_LLMS_TXT_URL", ""),
            kb_dir=_path(kb) if kb else None,
            kb_url=get("DOCS_AGENT_KB_URL", ""),
            kb_token=get("DOCS_AGENT_KB_TOKEN", ""),
            code_roots=_split(get("DOCS_AGENT_CODE_ROOTS", "docs-agent=.,langgraph")),
            index_dir=_path(get("DOCS_AGENT_INDEX_DIR", ".docs_agent_cache")),
            code_timeout_s=float(get("DOCS_AGENT_CODE_TIMEOUT_S", "10") or 10),
            embeddings=get("DOCS_AGENT_EMBEDDINGS", "use") or "use",
            corpus_language=get("DOCS_AGENT_CORPUS_LANGUAGE", "English") or "English",
        )
