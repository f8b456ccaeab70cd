"""Site generators and page formats docs-agent knows of but may not read: the one table the warnings use.

A folder built with a generator no package here reads is read as plain Markdown, and its
containers, includes, shortcodes and slug rules come out wrong without a word; a folder of pages
in a format no reader takes yields nothing. Both are said loudly, with the route that works
(build the site, point at its output folder: tools/sources/generators/html/). The registry
passes the names of the generators it has (`unread_configs(root, registered)`), so a generator
that has its package is never warned about: adding the package silences its row here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KnownGenerator:
    """A generator recognised by its config files: the name its package would register, how it builds."""

    name: str  # as a package registers it (`DOCS_AGENT_DOCS_GENERATOR`)
    label: str
    configs: tuple[str, ...]  # globs, relative to the docs folder and to the folder above it
    build: str  # the command that builds the site
    output: str  # where the built pages are, relative to the project


KNOWN_GENERATORS: tuple[KnownGenerator, ...] = (
    KnownGenerator("vitepress", "VitePress", (".vitepress/config.*",), "npx vitepress build", ".vitepress/dist/"),
    KnownGenerator("starlight", "Astro Starlight", ("astro.config.*",), "npx astro build", "dist/"),
    KnownGenerator("mdbook", "mdBook", ("book.toml",), "mdbook build", "book/"),
    KnownGenerator("gitbook", "GitBook", (".gitbook.yaml",), "GitBook's Git Sync (hosted)", "the published site"),
    KnownGenerator("hugo", "Hugo", ("hugo.toml", "hugo.yaml", "hugo.json"), "hugo", "public/"),
    KnownGenerator("quarto", "Quarto", ("_quarto.yml", "_quarto.yaml"), "quarto render", "_site/"),
    KnownGenerator("antora", "Antora", ("antora-playbook.yml", "antora.yml"), "npx antora antora-playbook.yml", "build/site/"),
    KnownGenerator("jekyll", "Jekyll", ("_config.yml",), "bundle exec jekyll build", "_site/"),
    KnownGenerator("vuepress", "VuePress", (".vuepress/config.*",), "npx vuepress build", ".vuepress/dist/"),
    KnownGenerator("eleventy", "Eleventy", (".eleventy.js", "eleventy.config.*"), "npx @11ty/eleventy", "_site/"),
    KnownGenerator("docfx", "DocFX", ("docfx.json",), "docfx", "_site/"),
    KnownGenerator("zola", "Zola", ("zola.toml",), "zola build", "public/"),
)  # fmt: skip


def unread_configs(
    root: Path, registered: Collection[str]
) -> Iterator[tuple[KnownGenerator, Path]]:
    """Config files of generators no registered package reads, in the docs folder or the one above."""
    for folder in (root, root.parent):
        for known in KNOWN_GENERATORS:
            if known.name in registered:
                continue
            for pattern in known.configs:
                for path in sorted(folder.glob(pattern)):
                    if path.is_file():
                        yield known, path


def unread_config_note(known: KnownGenerator, config: Path) -> str:
    """The warning for a folder a generator builds that no package here reads."""
    return (
        f"{config} says the site is built with {known.label}, which docs-agent does not read: "
        f"its pages are read as plain Markdown (its own syntax, includes and heading anchors may "
        f"come out wrong); build the site (`{known.build}`) and point DOCS_AGENT_DOCS_DIR at the "
        f"built pages ({known.output}), which are read as the site serves them"
    )


# What builds pages of each format no reader takes, and where to point instead.
FORMAT_ROUTES: dict[str, str] = {
    ".qmd": "Quarto pages: run `quarto render` and point DOCS_AGENT_DOCS_DIR at the output folder (`_site/`)",
    ".rmd": "R Markdown pages: render them (`quarto render` or `rmarkdown::render_site()`) and point at the output folder (`_site/`)",
    ".adoc": "AsciiDoc pages: build the site (Antora: `npx antora antora-playbook.yml`, then its `output.dir`; Asciidoctor: `asciidoctor -R . -D out '**/*.adoc'`) and point at the built pages",
    ".asciidoc": "AsciiDoc pages: build them (`asciidoctor`) and point at the built pages",
    ".ipynb": "notebooks: read where the site builds them (Sphinx nbsphinx / myst-nb, mkdocs-jupyter); DOCS_AGENT_DOCS_NOTEBOOKS=on reads them anyway",
    ".rst": "reStructuredText pages: a Sphinx project is read from its conf.py (in the folder, above it, or named by .readthedocs.yaml)",
    ".org": "Org pages: export them to HTML (`emacs --batch … org-publish`) and point at the output",
    ".textile": "Textile pages: build the site (Jekyll: `bundle exec jekyll build`, then `_site/`) and point at the built pages",
}


def format_route(suffix: str) -> str:
    """How to read pages of a format no reader takes ('' when there is nothing to suggest)."""
    return FORMAT_ROUTES.get(suffix.lower(), "")
