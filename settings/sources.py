"""The sources section: where the knowledge comes from; every source is set by one variable.

Defaults make a fresh clone answer questions about itself: `docs/`, `kb/`, and as code roots this
repository plus the installed `langgraph` package. An empty value switches a source off. The
closed choices (URL style, navigation, notebooks, release notes, embeddings) are checked here;
the generator and slug names depend on the generators the project has, so tools/docs.py checks
those against its registry (tools/sources/registry.py) where they are used. The live sources'
numbers are lenient, as they always were: a value that does not parse keeps the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from settings.dotenv import configured_env, resolve_path
from settings.values import FALSE_WORDS, TRUE_WORDS, Reader, SettingError, split_list

# The values the docs-site settings take (tools/sources/site.py, tools/sources/slugs.py).
URL_STYLE_CHOICES = ("auto", "plain", "directory", "html", "index-slash")
# The sentence encoder's own name also selects it (tools/search/embeddings.py).
EMBEDDINGS_ON = frozenset({"use", "use-multilingual-v3"})


def web_url(value: str, name: str) -> str:
    """An `http(s)://` address a reader's browser opens; anything else fails loudly, by name."""
    value = value.strip()
    if value and not value.lower().startswith(("https://", "http://")):
        raise SettingError(f"{name}={value!r}: give an http(s):// address")
    return value


def code_urls(value: str) -> tuple[tuple[str, str], ...]:
    """`label=URL` pairs (comma-separated) of `DOCS_AGENT_CODE_URLS`, in the order given."""
    pairs: list[tuple[str, str]] = []
    for part in split_list(value):
        label, sep, url = part.partition("=")
        if not sep or not label.strip():
            raise SettingError(
                f"DOCS_AGENT_CODE_URLS: {part!r} is not label=URL "
                "(e.g. docs-agent=https://github.com/org/repo/blob/main)"
            )
        pairs.append((label.strip(), web_url(url, f"DOCS_AGENT_CODE_URLS[{label.strip()}]")))
    return tuple(pairs)


def embeddings(reader: Reader) -> str:
    """`DOCS_AGENT_EMBEDDINGS`: `use` (default, or any true flag) or `off` (any false flag, `none`)."""
    name = "DOCS_AGENT_EMBEDDINGS"
    value = reader.text(name, "use").lower()
    if value in EMBEDDINGS_ON or value in TRUE_WORDS:
        return "use"
    if value in FALSE_WORDS or value == "none":
        return "off"
    raise SettingError(f"{name}={value!r}: expected 'use' or 'off'")


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
        return cls.read(Reader(env))

    @classmethod
    def read(cls, reader: Reader) -> LiveSourceSettings:
        """The live sources' variables, through `reader` (lenient numbers, then bounded)."""

        def number(name: str, default: float) -> float:
            return reader.number(name, default, lenient=True)

        return cls(
            refresh_s=max(0.0, number("DOCS_AGENT_REFRESH_S", 3600.0)),
            timeout_s=max(0.1, number("DOCS_AGENT_SOURCE_TIMEOUT_S", 10.0)),
            retries=max(0, int(number("DOCS_AGENT_SOURCE_RETRIES", 1))),
            retry_after_max_s=max(0.0, number("DOCS_AGENT_RETRY_AFTER_MAX_S", 10.0)),
            max_pages=max(1, int(number("DOCS_AGENT_LLMS_MAX_PAGES", 5_000))),
            max_page_bytes=max(1, int(number("DOCS_AGENT_LLMS_MAX_PAGE_BYTES", 2_000_000))),
            max_drop=min(1.0, max(0.0, number("DOCS_AGENT_LLMS_MAX_DROP", 0.5))),
            confirm_refreshes=max(1, int(number("DOCS_AGENT_CONFIRM_REFRESHES", 2))),
            kb_email=reader.text("DOCS_AGENT_KB_EMAIL"),
            kb_locale=reader.text("DOCS_AGENT_KB_LOCALE"),
        )


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
    # A server builds the indexes in a background thread as it starts (tools/build_index.py).
    warm_up: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SourceSettings:
        """Read the `DOCS_AGENT_*` variables (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> SourceSettings:
        """Every variable of the section, through `reader`; an empty value switches a source off."""

        def get(name: str, default: str) -> str:
            raw = reader.raw(name)
            return (default if raw is None else raw).strip()

        def docs_choice(name: str, choices: tuple[str, ...]) -> str:
            return reader.choice(f"DOCS_AGENT_DOCS_{name}", choices)

        docs = get("DOCS_AGENT_DOCS_DIR", "docs")
        kb = get("DOCS_AGENT_KB_DIR", "kb")
        return cls(
            docs_dir=resolve_path(docs) if docs else None,
            docs_base_url=get("DOCS_AGENT_DOCS_BASE_URL", ""),
            docs_strip_prefixes=reader.words("DOCS_AGENT_DOCS_STRIP_PREFIXES"),
            docs_lang=reader.text("DOCS_AGENT_DOCS_LANG", "python"),
            llms_txt_url=get("DOCS_AGENT_LLMS_TXT_URL", ""),
            kb_dir=resolve_path(kb) if kb else None,
            kb_url=get("DOCS_AGENT_KB_URL", ""),
            kb_token=get("DOCS_AGENT_KB_TOKEN", ""),
            code_roots=split_list(get("DOCS_AGENT_CODE_ROOTS", "docs-agent=.,langgraph")),
            index_dir=resolve_path(reader.text("DOCS_AGENT_INDEX_DIR", ".docs_agent_cache")),
            code_timeout_s=reader.number("DOCS_AGENT_CODE_TIMEOUT_S", 10.0),
            embeddings=embeddings(reader),
            corpus_language=reader.text("DOCS_AGENT_CORPUS_LANGUAGE", "English"),
            live=LiveSourceSettings.read(reader),
            docs_generator=reader.text("DOCS_AGENT_DOCS_GENERATOR", "auto").lower(),
            docs_url_style=docs_choice("URL_STYLE", URL_STYLE_CHOICES),
            docs_slug=reader.text("DOCS_AGENT_DOCS_SLUG", "auto").lower(),
            docs_nav=docs_choice("NAV", ("auto", "off")),
            docs_notebooks=docs_choice("NOTEBOOKS", ("auto", "on", "off")),
            docs_include=reader.words("DOCS_AGENT_DOCS_INCLUDE"),
            docs_exclude=reader.words("DOCS_AGENT_DOCS_EXCLUDE"),
            docs_locale=get("DOCS_AGENT_DOCS_LOCALE", "auto") or "auto",
            docs_release_notes=docs_choice("RELEASE_NOTES", ("hide", "keep")),
            kb_base_url=web_url(get("DOCS_AGENT_KB_BASE_URL", ""), "DOCS_AGENT_KB_BASE_URL"),
            code_urls=code_urls(get("DOCS_AGENT_CODE_URLS", "")),
            warm_up=reader.flag("DOCS_AGENT_WARM_UP", True),
        )
