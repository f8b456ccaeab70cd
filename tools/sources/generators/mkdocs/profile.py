"""The MkDocs site profile: `site_url`, directory URLs, `nav`, snippets, include extensions, toc slug."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tools.sources.generators.mkdocs.config import (
    extension_options,
    listed_options,
    read_mkdocs_config,
)
from tools.sources.generators.mkdocs.nav import literate_nav, nav_pages
from tools.sources.generators.mkdocs.rules import MkDocsRules
from tools.sources.generators.mkdocs.syntax import MarkdownSyntax
from tools.sources.reading import repository_root
from tools.sources.site import Site

# MkDocs plugins that build `.ipynb` files as pages (tools/sources/notebook.py reads them).
NOTEBOOK_PLUGINS = ("mkdocs-jupyter", "mknotebooks")


def _markdown_syntax(config: dict[str, Any]) -> MarkdownSyntax:
    """What the site's Markdown extensions change in how its pages read (`MarkdownSyntax`).

    `abbr` also comes with Python-Markdown's `extra` and with `pymdownx.extra`.
    """
    keys = extension_options(config, "pymdownx.keys")
    key_map = (keys or {}).get("key_map")
    snippets = extension_options(config, "pymdownx.snippets") or {}
    append = snippets.get("auto_append") or []
    return MarkdownSyntax(
        inlinehilite=extension_options(config, "pymdownx.inlinehilite") is not None,
        keys=keys is not None,
        key_separator=str((keys or {}).get("separator", "+") or ""),
        key_camel_case=(keys or {}).get("camel_case") is True,
        key_map=tuple((str(k), str(v)) for k, v in key_map.items())
        if isinstance(key_map, dict)
        else (),
        emoji=extension_options(config, "pymdownx.emoji") is not None,
        abbr=extension_options(config, "abbr", "extra", "pymdownx.extra") is not None,
        auto_append=tuple(str(a) for a in ([append] if isinstance(append, str) else append)),
    )


def _include_extensions(config: dict[str, Any], project: Path) -> tuple[tuple[str, ...], str]:
    """The include extensions the site lists (`mdx_include`, `include_variants`) and their base folder.

    `mdx_include` and `markdown_include` read `{! file !}` from their `base_path`, by default the
    folder MkDocs runs in (the project's); `markdown_include_variants` reads `{* file *}` the
    same way.
    """
    names: list[str] = []
    base = "."
    for extension in ("mdx_include", "markdown_include.include", "markdown_include"):
        options = listed_options(config, "markdown_extensions", extension)
        if options is not None:
            names.append("mdx_include")
            base = str(options.get("base_path") or base)
            break
    if listed_options(config, "markdown_extensions", "markdown_include_variants") is not None:
        names.append("include_variants")
    return tuple(names), str((project / base).resolve()) if names else ""


def _mkdocs_slug(config: dict[str, Any]) -> str:
    """The toc extension's slug rule: Python-Markdown's default, or its Unicode variant."""
    toc = extension_options(config, "toc") or {}
    named = str(toc.get("slugify") or "")
    return (
        "python-markdown-unicode"
        if "uslugify" in named or "unicode" in named
        else "python-markdown"
    )


def _gitignore_globs(value: Any) -> tuple[str, ...]:
    """MkDocs `exclude_docs` (gitignore lines) as globs relative to the docs folder."""
    lines = value.splitlines() if isinstance(value, str) else list(value or [])
    out: list[str] = []
    for line in lines:
        line = str(line).strip()
        if not line or line.startswith(("#", "!")):
            continue
        out.append(line.lstrip("/"))
    return tuple(out)


def mkdocs_site(root: Path, config_path: Path | None) -> Site:
    """MkDocs: `site_url`, directory URLs (`X/`) unless `use_directory_urls: false`, `nav`, snippets."""
    config = read_mkdocs_config(config_path) if config_path else {}
    project = config_path.parent if config_path else root
    docs_dir = (project / str(config.get("docs_dir") or "docs")).resolve()
    page_dir = ""
    if docs_dir != root and docs_dir.is_relative_to(root):
        page_dir = docs_dir.relative_to(root).as_posix() + "/"
    directory_urls = config.get("use_directory_urls", True) is not False
    nav_entries = list(nav_pages(config.get("nav"))) if config.get("nav") else []
    literate = listed_options(config, "plugins", "literate-nav")
    if literate is not None:
        nav_entries = literate_nav(docs_dir, nav_entries, literate)
    snippets = extension_options(config, "pymdownx.snippets")
    base_paths = (snippets or {}).get("base_path", ["."])
    base_paths = [base_paths] if isinstance(base_paths, str) else list(base_paths or ["."])
    snippet_dirs = tuple(str((project / str(p)).resolve()) for p in base_paths)
    # Snippet folders inside the docs folder hold parts of pages, not pages.
    not_pages = [
        Path(d).relative_to(docs_dir).as_posix() + "/**"
        for d in snippet_dirs
        if Path(d).is_relative_to(docs_dir) and Path(d) != docs_dir
    ]
    theme = config.get("theme")
    if isinstance(theme, dict) and theme.get("custom_dir"):
        custom = (project / str(theme["custom_dir"])).resolve()
        if custom.is_relative_to(docs_dir) and custom != docs_dir:
            not_pages.append(custom.relative_to(docs_dir).as_posix() + "/**")
    exclude = list(_gitignore_globs(config.get("exclude_docs")))
    excluded = listed_options(config, "plugins", "exclude")
    if excluded:
        globs = excluded.get("glob") or []
        exclude.extend(str(g) for g in ([globs] if isinstance(globs, str) else globs))
    # MkDocs never builds dot files, and treats a `templates` folder as theme files.
    not_pages.extend([".*", "templates/**"])
    includes, include_base = _include_extensions(config, project)
    notebooks = any(listed_options(config, "plugins", p) is not None for p in NOTEBOOK_PLUGINS)
    return Site(
        rules=MkDocsRules(
            snippet_dirs=snippet_dirs + (str(docs_dir),),
            files_root=str(repository_root(project.resolve())),
            includes=includes,
            include_base=include_base,
            syntax=_markdown_syntax(config),
        ),
        base_url=str(config.get("site_url") or ""),
        url_style="directory" if directory_urls else "html",
        slug=_mkdocs_slug(config),
        page_dir=page_dir,
        nav=tuple(path for path, _ in nav_entries) if nav_entries else None,
        titles=tuple((path, title) for path, title in nav_entries if title),
        exclude=tuple(exclude),
        not_pages=tuple(not_pages),
        project_root=str(project.resolve()),
        config=str(config_path or ""),
        notebooks=notebooks,
    )
