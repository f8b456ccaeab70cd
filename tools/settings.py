"""Where the knowledge comes from: every source is set by one environment variable.

Defaults make a fresh clone answer questions about itself: `docs/`, `kb/`, and as code roots this
repository plus the installed `langgraph` package.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def generator_choices() -> tuple[str, ...]:
    """`auto` and every generator the registry lists (tools/sources/registry.py): one list."""
    from tools.sources.registry import generator_names  # on use: importing settings stays light

    return ("auto", *generator_names())


def slug_choices() -> tuple[str, ...]:
    """`auto` and every slug rule (tools/sources/slugs.py, with those the generators add)."""
    import tools.sources.registry  # noqa: F401 - the generators add their own rules on import
    from tools.sources.slugs import SLUG_RULES

    return ("auto", *SLUG_RULES)


# The values the other docs-site settings take (tools/sources/site.py, tools/sources/slugs.py).
URL_STYLE_CHOICES = ("auto", "plain", "directory", "html", "index-slash")


def _choice(value: str, choices: tuple[str, ...], name: str) -> str:
    """A setting that takes one of a closed set of values; anything else fails loudly, by name."""
    value = (value or choices[0]).lower()
    if value not in choices:
        raise ValueError(f"DOCS_AGENT_DOCS_{name}={value!r}: use one of {', '.join(choices)}")
    return value


def _web_url(value: str, name: str) -> str:
    """An `http(s)://` address a reader's browser opens; anything else fails loudly, by name."""
    value = value.strip()
    if value and not value.lower().startswith(("https://", "http://")):
        raise ValueError(f"{name}={value!r}: give an http(s):// address")
    return value


def _code_urls(value: str) -> tuple[tuple[str, str], ...]:
    """`label=URL` pairs (comma-separated) of `DOCS_AGENT_CODE_URLS`, in the order given."""
    pairs: list[tuple[str, str]] = []
    for part in _split(value):
        label, sep, url = part.partition("=")
        if not sep or not label.strip():
            raise ValueError(
                f"DOCS_AGENT_CODE_URLS: {part!r} is not label=URL "
                "(e.g. docs-agent=https://github.com/org/repo/blob/main)"
            )
        pairs.append((label.strip(), _web_url(url, f"DOCS_AGENT_CODE_URLS[{label.strip()}]")))
    return tuple(pairs)


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
    live: LiveSourceSettings = field(default_factory=lambda: LiveSourceSettings())
    # The docs site (tools/sources/registry.py, docs/sources.md): `auto` values are detected.
    docs_generator: str = "auto"
    docs_url_style: str = "auto"
    docs_slug: str = "auto"
    docs_nav: str = "auto"
    docs_notebooks: str = "auto"
    docs_include: tuple[str, ...] = ()
    docs_exclude: tuple[str, ...] = ()
    # The site's language read (`auto`: its default locale; `all`; or a locale's key / language).
    docs_locale: str = "auto"
    # `hide`: release notes pages answer only questions about a release; `keep`: like any page.
    docs_release_notes: str = "hide"
    # Where a reader opens a cited KB article that has no web address of its own: a help-center
    # URL the article id is put into (`{id}`, else appended after a `/`); "" = the server's viewer.
    kb_base_url: str = ""
    # Where a reader opens cited code: per code-root label, the repository's file URL prefix
    # (`label=https://github.com/org/repo/blob/main`); roots without one open in the server's viewer.
    code_urls: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SourceSettings:
        """Read the `DOCS_AGENT_*` variables; an empty value switches that source off."""
        env = configured_env() if env is None else env

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
            live=LiveSourceSettings.from_env(env),
            docs_generator=_choice(
                get("DOCS_AGENT_DOCS_GENERATOR", "auto"), generator_choices(), "GENERATOR"
            ),
            docs_url_style=_choice(
                get("DOCS_AGENT_DOCS_URL_STYLE", "auto"), URL_STYLE_CHOICES, "URL_STYLE"
            ),
            docs_slug=_choice(get("DOCS_AGENT_DOCS_SLUG", "auto"), slug_choices(), "SLUG"),
            docs_nav=_choice(get("DOCS_AGENT_DOCS_NAV", "auto"), ("auto", "off"), "NAV"),
            docs_notebooks=_choice(
                get("DOCS_AGENT_DOCS_NOTEBOOKS", "auto"), ("auto", "on", "off"), "NOTEBOOKS"
            ),
            docs_include=_split(get("DOCS_AGENT_DOCS_INCLUDE", "")),
            docs_exclude=_split(get("DOCS_AGENT_DOCS_EXCLUDE", "")),
            docs_locale=get("DOCS_AGENT_DOCS_LOCALE", "auto") or "auto",
            docs_release_notes=_choice(
                get("DOCS_AGENT_DOCS_RELEASE_NOTES", "hide"), ("hide", "keep"), "RELEASE_NOTES"
            ),
            kb_base_url=_web_url(get("DOCS_AGENT_KB_BASE_URL", ""), "DOCS_AGENT_KB_BASE_URL"),
            code_urls=_code_urls(get("DOCS_AGENT_CODE_URLS", "")),
        )


# --- Live sources: an llms.txt site and a help-center API (docs/sources.md, "Live sources") ----


@dataclass(frozen=True)
class LiveSourceSettings:
    """How the HTTP sources are fetched, refreshed, and kept safe from an upstream's mistakes."""

    # Seconds between scheduled refreshes of an llms.txt site and a help center; 0: never.
    refresh_s: float = 3600.0
    # One request's time limit, and how many times a 429/503 is retried (after its Retry-After,
    # waited for only when it is at most `retry_after_max_s`).
    timeout_s: float = 10.0
    retries: int = 1
    retry_after_max_s: float = 10.0
    # Caps of an llms.txt site: pages listed, bytes of one page (both announced when reached).
    max_pages: int = 5_000
    max_page_bytes: int = 2_000_000
    # A refresh that would drop more than this share of the cached pages is held back, and a
    # page that answers 404 is kept, until the same is seen on `confirm_refreshes` refreshes.
    max_drop: float = 0.5
    confirm_refreshes: int = 2
    # Help center: with an email the token is a Zendesk API token (Basic `email/token:TOKEN`),
    # without one an OAuth bearer token; the default locale ("" = the help center's own).
    kb_email: str = ""
    kb_locale: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LiveSourceSettings:
        """Read the `DOCS_AGENT_*` variables of the live sources (defaults above when unset)."""

        def number(name: str, default: float) -> float:
            try:
                return float(env.get(name, "").strip() or default)
            except ValueError:
                return default

        return cls(
            refresh_s=max(0.0, number("DOCS_AGENT_REFRESH_S", 3600.0)),
            timeout_s=max(0.1, number("DOCS_AGENT_SOURCE_TIMEOUT_S", 10.0)),
            retries=max(0, int(number("DOCS_AGENT_SOURCE_RETRIES", 1))),
            retry_after_max_s=max(0.0, number("DOCS_AGENT_RETRY_AFTER_MAX_S", 10.0)),
            max_pages=max(1, int(number("DOCS_AGENT_LLMS_MAX_PAGES", 5_000))),
            max_page_bytes=max(1, int(number("DOCS_AGENT_LLMS_MAX_PAGE_BYTES", 2_000_000))),
            max_drop=min(1.0, max(0.0, number("DOCS_AGENT_LLMS_MAX_DROP", 0.5))),
            confirm_refreshes=max(1, int(number("DOCS_AGENT_CONFIRM_REFRESHES", 2))),
            kb_email=env.get("DOCS_AGENT_KB_EMAIL", "").strip(),
            kb_locale=env.get("DOCS_AGENT_KB_LOCALE", "").strip(),
        )


SERVER_MODULES = ("langgraph_api", "aegra_api")  # a process that has these loaded is a server


def env_file() -> Path | None:
    """The `.env` every command reads: `DOCS_AGENT_ENV_FILE`, else the repository's (if any)."""
    name = os.environ.get("DOCS_AGENT_ENV_FILE")
    if name is not None:
        return _path(name) if name.strip() else None
    path = REPO_ROOT / ".env"
    return path if path.is_file() else None


def configured_env() -> Mapping[str, str]:
    """The environment as a server sees it: `.env` over the process environment.

    Why: `langgraph dev` loads `.env` (langgraph.json's `env`) with its values winning over the
    shell; `make index`, `--refresh` and the benches must index the same sources, so outside a
    server the same file is read here the same way. Inside a server it was loaded already
    (from the file its config names), so it is not read twice.
    """
    path = env_file()
    if path is None or any(name in sys.modules for name in SERVER_MODULES):
        return os.environ
    from dotenv import dotenv_values

    values = {k: v for k, v in dotenv_values(path).items() if v is not None}
    return {**os.environ, **values}
