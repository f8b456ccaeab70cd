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


# The values the docs-site settings take (tools/sources/profiles.py, tools/sources/slugs.py).
GENERATOR_CHOICES = ("auto", "mkdocs", "sphinx", "docusaurus", "mintlify", "html", "markdown")
URL_STYLE_CHOICES = ("auto", "plain", "directory", "html")
SLUG_CHOICES = (
    "auto",
    "mintlify",
    "github",
    "python-markdown",
    "python-markdown-unicode",
    "docutils",
)


def _choice(value: str, choices: tuple[str, ...], name: str) -> str:
    """A setting that takes one of a closed set of values; anything else fails loudly, by name."""
    value = (value or choices[0]).lower()
    if value not in choices:
        raise ValueError(f"DOCS_AGENT_DOCS_{name}={value!r}: use one of {', '.join(choices)}")
    return value


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
    # The docs site (tools/sources/profiles.py, docs/sources.md): `auto` values are detected.
    docs_generator: str = "auto"
    docs_url_style: str = "auto"
    docs_slug: str = "auto"
    docs_nav: str = "auto"
    docs_include: tuple[str, ...] = ()
    docs_exclude: tuple[str, ...] = ()
    # `hide`: release notes pages answer only questions about a release; `keep`: like any page.
    docs_release_notes: str = "hide"

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
            docs_generator=_choice(
                get("DOCS_AGENT_DOCS_GENERATOR", "auto"), GENERATOR_CHOICES, "GENERATOR"
            ),
            docs_url_style=_choice(
                get("DOCS_AGENT_DOCS_URL_STYLE", "auto"), URL_STYLE_CHOICES, "URL_STYLE"
            ),
            docs_slug=_choice(get("DOCS_AGENT_DOCS_SLUG", "auto"), SLUG_CHOICES, "SLUG"),
            docs_nav=_choice(get("DOCS_AGENT_DOCS_NAV", "auto"), ("auto", "off"), "NAV"),
            docs_include=_split(get("DOCS_AGENT_DOCS_INCLUDE", "")),
            docs_exclude=_split(get("DOCS_AGENT_DOCS_EXCLUDE", "")),
            docs_release_notes=_choice(
                get("DOCS_AGENT_DOCS_RELEASE_NOTES", "hide"), ("hide", "keep"), "RELEASE_NOTES"
            ),
        )
