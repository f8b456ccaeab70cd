"""Starlight sites: the goldens built by Astro 5.18 + Starlight 0.37, then its rules one by one.

The goldens (tests/fixtures/generators/starlight) are read as a user points the project at them
(the Astro project, or its `src/content/docs` folder); every page, URL, anchor, block and snippet
Starlight built must come out the same, and its locale fallback pages are no pages at all.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.unit.tools.sources.generators.source_goldens import (
    check_blocks,
    check_rendered,
    check_snippets,
    golden,
    page_anchors,
    read_site,
    source,
)
from tools.sources.generators.starlight.rules import default_slug
from tools.sources.readers import read_page
from tools.sources.registry import detect_site

PROJECTS = ("starlight", "basics")
CONTENT = "src/content/docs/"


@pytest.mark.parametrize("project", PROJECTS)
@pytest.mark.parametrize("locale", ["auto", "all"])
def test_golden_pages_urls_titles_and_anchors(tmp_path: Path, project: str, locale: str) -> None:
    facts = golden("starlight", project)
    read = read_site(source("starlight", project), tmp_path, "", locale)  # the config's `site`
    wanted = {p["source"]: p for p in facts["pages"] if locale == "all" or p["locale"] == ""}
    assert sorted(read.pages) == sorted(wanted)
    for rel, page in wanted.items():
        assert read.url_path(rel) == page["url"], rel
        assert page_anchors(read.page(rel)) == {h["id"] for h in page["headings"] if h["id"]}, rel
        assert read.page(rel).title == page["title"].split(" | ")[0], rel
    for entry in facts["not_pages"]:
        assert entry["source"] not in read.pages
    fallbacks = [g["url"] for g in facts["generated"] if g.get("copy_of")]
    served = {read.url_path(rel) for rel in read.pages}
    assert not served & set(fallbacks)  # a locale's fallback copy is no page


@pytest.mark.parametrize("project", PROJECTS)
def test_golden_blocks_snippets_and_rendered_text(tmp_path: Path, project: str) -> None:
    facts = golden("starlight", project)
    read = read_site(source("starlight", project), tmp_path, "", "all")
    check_blocks(read, facts)
    check_snippets(read, facts)
    check_rendered(read, facts)
    for rel, (_, page) in read.pages.items():
        for marker in (":::", "<Aside", "<LinkCard", "<Tabs", "import "):
            assert marker not in page.body, (rel, marker)


def test_golden_link_card_keeps_its_link(tmp_path: Path) -> None:
    read = read_site(source("starlight", "basics"), tmp_path)
    body = read.page(CONTENT + "index.mdx").body
    assert "[Read the docs](https://starlight.astro.build/)" in body


def test_the_content_folder_given_is_read_as_its_project(tmp_path: Path) -> None:
    facts = golden("starlight", "starlight")
    content = source("starlight", "starlight") / CONTENT
    read = read_site(content, tmp_path)
    wanted = {p["source"][len(CONTENT) :]: p["url"] for p in facts["pages"] if p["locale"] == ""}
    assert {rel: read.url_path(rel) for rel in read.pages} == wanted
    assert read.pages["getting-started.mdx"][0] == "https://starlight.astro.build/getting-started/"


def project_of(root: Path, config: str, files: dict[str, str]) -> Path:
    """An Astro project with Starlight: its config and content files (the project is returned)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "astro.config.mjs").write_text(
        "import starlight from '@astrojs/starlight';\n" + textwrap.dedent(config), "utf-8"
    )
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), "utf-8")
    return root


def page(title: str, extra: str = "", body: str = "") -> str:
    return f"---\ntitle: {title}\n{extra}---\n\n{body}"


@pytest.mark.parametrize(
    ("options", "url"),
    [
        ("trailingSlash: 'always',", "https://x.dev/docs/guides/setup/"),
        ("trailingSlash: 'never',", "https://x.dev/docs/guides/setup"),
        ("build: { format: 'file' },", "https://x.dev/docs/guides/setup"),
        ("", "https://x.dev/docs/guides/setup/"),
    ],
)
def test_addresses_follow_trailing_slash_and_build_format(
    tmp_path: Path, options: str, url: str
) -> None:
    root = project_of(
        tmp_path,
        f"export default defineConfig({{ site: 'https://x.dev', base: '/docs', {options} "
        "integrations: [starlight({ title: 'X' })] });\n",
        {CONTENT + "guides/Setup.md": page("Setup")},
    )
    read = read_site(root, tmp_path / "index")
    assert read.pages[CONTENT + "guides/Setup.md"][0] == url


def test_drafts_partials_and_404_are_not_pages_and_slugs_are_astros(tmp_path: Path) -> None:
    root = project_of(
        tmp_path,
        "export default { site: 'https://x.dev', integrations: [starlight({ title: 'X' })] };\n",
        {
            CONTENT + "index.mdx": page("Home"),
            CONTENT + "404.md": page("404"),
            CONTENT + "guides/_part.mdx": "A part.\n",
            CONTENT + "guides/draft.md": page("Draft", "draft: true\n"),
            CONTENT + "guides/Read Me First.md": page("First"),
            CONTENT + "guides/moved.md": page("Moved", "slug: elsewhere/moved\n"),
            "README.md": "# The project's readme\n",
        },
    )
    read = read_site(root, tmp_path / "index")
    assert {rel: url for rel, (url, _) in read.pages.items()} == {
        CONTENT + "index.mdx": "https://x.dev/",
        CONTENT + "guides/Read Me First.md": "https://x.dev/guides/read-me-first/",
        CONTENT + "guides/moved.md": "https://x.dev/elsewhere/moved/",
    }
    assert default_slug("Guides/API Reference.mdx") == "guides/api-reference"


def test_a_default_locale_in_a_folder_and_the_setting_that_picks_another(tmp_path: Path) -> None:
    root = project_of(
        tmp_path,
        """\
        export default {
          site: 'https://x.dev',
          integrations: [starlight({
            title: 'X',
            defaultLocale: 'en',
            locales: { en: { label: 'English' }, de: { label: 'Deutsch', lang: 'de' } },
          })],
        };
        """,
        {
            CONTENT + "en/intro.md": page("Intro", body=":::note\nRead me.\n:::\n"),
            CONTENT + "de/intro.md": page("Intro", body=":::note\nLies mich.\n:::\n"),
        },
    )
    read = read_site(root, tmp_path / "index")
    assert {rel: url for rel, (url, _) in read.pages.items()} == {
        CONTENT + "en/intro.md": "https://x.dev/en/intro/"
    }
    assert "**Note**" in read.page(CONTENT + "en/intro.md").body
    german = read_site(root, tmp_path / "index-de", locale="de")
    assert list(german.pages) == [CONTENT + "de/intro.md"]
    assert "**Hinweis**" in german.page(CONTENT + "de/intro.md").body  # Starlight's own label


def test_sidebar_orders_the_navigation(tmp_path: Path) -> None:
    root = project_of(
        tmp_path,
        """\
        const sidebar = [
          'start',
          { label: 'Guides', autogenerate: { directory: 'guides' } },
          { label: 'More', items: [{ label: 'Ref', slug: 'reference/api' }, { label: 'Ext', link: 'https://a.b' }] },
        ];
        export default { integrations: [starlight({ title: 'X', sidebar })] };
        """,
        {
            CONTENT + "index.mdx": page("Home"),
            CONTENT + "start.md": page("Start"),
            CONTENT + "guides/b.md": page("B", "sidebar:\n  order: 1\n"),
            CONTENT + "guides/a.md": page("A", "sidebar:\n  order: 2\n"),
            CONTENT + "guides/hidden.md": page("H", "sidebar:\n  hidden: true\n"),
            CONTENT + "reference/api.md": page("API"),
            CONTENT + "other.md": page("Other"),
        },
    )
    site = detect_site(root)
    assert site.nav == ("index.mdx", "start.md", "guides/b.md", "guides/a.md", "reference/api.md")
    assert site.is_page(CONTENT + "other.md")  # on no sidebar, still a page Starlight builds


def test_components_code_imports_and_markdoc(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    root = project_of(
        tmp_path / "docs",
        "export default { integrations: [starlight({ title: 'X' })] };\n",
        {
            CONTENT + "c.mdx": page(
                "Components",
                body=(
                    "import { Code, LinkButton, Badge, Aside } from '@astrojs/starlight/components';\n"
                    "import config from '../../../tsconfig.json?raw';\n"
                    "import secret from '../../../../../outside.txt?raw';\n"
                    "export const snippet = `let a = 1;`;\n\n"
                    '## Options <Badge text="New" />\n\n'
                    '<Code code={config} lang="json" title="tsconfig.json" />\n\n'
                    '<Code code={snippet} lang="js" />\n\n<Code code={secret} lang="txt" />\n\n'
                    '<LinkButton href="/start/">Get started</LinkButton> <Badge text="Beta" />\n\n'
                    "<Aside>Plain note.</Aside>\n"
                ),
            ),
            CONTENT + "m.mdoc": page(
                "Markdoc", body='{% aside type="tip" title="Hint" %}\nUse it.\n{% /aside %}\n'
            ),
            "tsconfig.json": '{ "extends": "astro/tsconfigs/strict" }\n',
        },
    )
    (tmp_path.parent / "outside.txt").write_text("outside the repository\n")
    (root / "astro.config.mjs").write_text(
        "import starlight from '@astrojs/starlight';\nimport markdoc from '@astrojs/markdoc';\n"
        "export default { integrations: [markdoc(), starlight({ title: 'X' })] };\n"
    )
    site = detect_site(root)
    doc = read_page(CONTENT + "c.mdx", (root / CONTENT / "c.mdx").read_bytes(), site, root, "py")
    options = next(s for s in doc.sections if s.anchor == "options")
    assert [b.code for b in options.code_blocks] == [
        '{ "extends": "astro/tsconfigs/strict" }',
        "let a = 1;",
    ]
    assert "**tsconfig.json**" in options.text
    assert "[Get started](/start/) Beta" in options.text and "**Note**" in options.text
    assert "outside the repository" not in doc.body
    mdoc = read_page(CONTENT + "m.mdoc", (root / CONTENT / "m.mdoc").read_bytes(), site, root, "py")
    assert "**Hint**" in mdoc.body and "Use it." in mdoc.body and "{%" not in mdoc.body
