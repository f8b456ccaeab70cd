"""VitePress sites: the goldens built by VitePress 1.6.4, then its rules one by one.

The goldens (tests/fixtures/generators/vitepress) are read as a user points the project at them
(the docs folder and the site's address); every page, URL, anchor, block, snippet and rendered
text VitePress built must come out the same. The cases below pin each rule on a small site.
"""

from __future__ import annotations

import logging
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
from tools.sources.generators.vitepress.rewrites import Rewrite, rewritten
from tools.sources.generators.vitepress.slug import vitepress_slug
from tools.sources.generators.vitepress.syntax import PageValues, evaluate
from tools.sources.readers import read_page
from tools.sources.registry import SiteOptions, detect_site

PROJECTS = ("vite", "vitepress")


@pytest.mark.parametrize("project", PROJECTS)
@pytest.mark.parametrize("locale", ["auto", "all"])
def test_golden_pages_urls_titles_and_anchors(tmp_path: Path, project: str, locale: str) -> None:
    facts = golden("vitepress", project)
    base = "https://docs.example" + facts["site"]["base"]
    read = read_site(source("vitepress", project), tmp_path, base, locale)
    wanted = {p["source"]: p for p in facts["pages"] if locale == "all" or p["locale"] == ""}
    assert sorted(read.pages) == sorted(wanted)
    for rel, page in wanted.items():
        assert read.url_path(rel) == page["url"], rel
        assert page_anchors(read.page(rel)) == {h["id"] for h in page["headings"] if h["id"]}, rel
        if page["headings"][0]["id"]:  # a page with an h1 (home pages draw a hero instead)
            assert read.page(rel).title == page["h1"]
        else:
            assert read.page(rel).title in page["h1"]
    for entry in facts["not_pages"]:
        assert entry["source"] not in read.pages


@pytest.mark.parametrize("project", PROJECTS)
def test_golden_blocks_snippets_and_rendered_text(tmp_path: Path, project: str) -> None:
    facts = golden("vitepress", project)
    read = read_site(source("vitepress", project), tmp_path, "https://docs.example", "all")
    check_blocks(read, facts, skip_kinds=("toc",))  # `[[toc]]` lists the page's own headings
    check_snippets(read, facts)
    check_rendered(read, facts)
    for rel, (_, page) in read.pages.items():
        for marker in ("[[toc]]", ":::", "<<<", "[!NOTE]", "@include"):
            assert marker not in page.body, (rel, marker)


def test_golden_home_page_shows_its_hero_and_features(tmp_path: Path) -> None:
    read = read_site(source("vitepress", "vite"), tmp_path, "https://vite.dev")
    home = read.page("index.md")
    assert home.title == "Vite"
    assert "Next Generation Frontend Tooling" in home.body
    assert "**Instant Server Start**: On demand file serving" in home.body
    assert page_anchors(home) == set()  # the hero and feature cards have no ids


def test_the_config_names_the_site_address_through_its_sitemap(tmp_path: Path) -> None:
    (tmp_path / ".vitepress").mkdir()
    (tmp_path / ".vitepress" / "config.mts").write_text(
        "const siteUrl = 'https://docs.example.dev'\n"
        "export default defineConfig({ base: '/v2/', sitemap: { hostname: siteUrl } })\n"
    )
    (tmp_path / "guide.md").write_text("# Guide\n")
    site = detect_site(tmp_path)
    assert site.generator == "vitepress"
    assert site.url_for("guide.md") == "https://docs.example.dev/v2/guide.html"


def test_slug_rule_follows_vitepress() -> None:
    assert vitepress_slug("build.target") == "build-target"
    assert vitepress_slug("2.x Migration Notes") == "_2-x-migration-notes"
    assert vitepress_slug("Über uns & mehr — Äpfel?") == "uber-uns-mehr-—-apfel"
    assert vitepress_slug("`foo`bar") == "foobar"  # code counts without its backticks
    assert vitepress_slug("什么是 VitePress？") == "什么是-vitepress"


@pytest.mark.parametrize(
    ("rules", "page", "served"),
    [
        ((("en/:rest*", ":rest*"),), "en/guide/a.md", "guide/a.md"),
        ((("en/:rest*", ":rest*"),), "zh/guide/a.md", "zh/guide/a.md"),
        ((("packages/:pkg/src/(.*)", ":pkg/index.md"),), "packages/a/src/x.md", "a/index.md"),
        ((("guide/:name.md", "docs/:name.md"),), "Guide/Setup.md", "docs/Setup.md"),
        ((("^old/(.*)", "new/:0"),), "old/a/b.md", "new/a/b.md"),
        ((("a.md", "b.md"), ("a.md", "c.md")), "a.md", "b.md"),  # the first rule wins
    ],
)
def test_rewrites_follow_path_to_regexp(
    rules: tuple[tuple[str, str], ...], page: str, served: str
) -> None:
    assert rewritten(page, tuple(Rewrite.of(a, b) for a, b in rules)) == served


def test_interpolation_renders_what_the_page_says_and_nothing_else() -> None:
    values = PageValues({"title": "Intro", "tags": ["a", "b"]}, {"count": 3})
    assert evaluate(" 1 + 1 ", values) == "2"
    assert evaluate("$frontmatter.title", values) == "Intro"
    assert evaluate("$frontmatter.tags.join(', ')", values) == "a, b"
    assert evaluate("$frontmatter.missing", values) == ""
    assert evaluate("count", values) == "3"
    assert evaluate("'text'", values) == "text"
    assert evaluate("dep.name", values) == ""  # computed in the browser
    assert evaluate("__import__('os').getcwd()", values) == ""  # never run


def site_of(root: Path, config: str, files: dict[str, str]) -> Path:
    """A VitePress project: its config and pages under `root` (the docs folder)."""
    (root / ".vitepress").mkdir(parents=True)
    (root / ".vitepress" / "config.ts").write_text(textwrap.dedent(config), "utf-8")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), "utf-8")
    return root


def test_src_dir_fragments_dynamic_routes_and_404_are_not_pages(tmp_path: Path) -> None:
    root = site_of(
        tmp_path / "docs",
        "export default { srcDir: 'src', cleanUrls: true }\n",
        {
            "src/index.md": "# Home\n\n<!--@include: ./parts/intro.md-->\n",
            "src/parts/intro.md": "Intro text.\n",
            "src/packages/[pkg].md": "# {{ $params.pkg }}\n",
            "src/404.md": "# Not found\n",
            "src/guide/setup.md": "# Setup\n",
            "README.md": "# The repository's readme\n",
        },
    )
    read = read_site(root, tmp_path / "index", "https://x.dev")
    assert sorted(read.pages) == ["src/guide/setup.md", "src/index.md"]
    assert read.pages["src/guide/setup.md"][0] == "https://x.dev/guide/setup"
    assert "Intro text." in read.page("src/index.md").body


def test_includes_take_regions_ranges_and_headings_and_stay_in_the_repository(
    tmp_path: Path,
) -> None:
    (tmp_path / ".git").mkdir()  # the repository: includes may read anywhere in it, not above
    root = site_of(
        tmp_path / "docs",
        "export default {}\n",
        {
            "page.md": (
                "# Page\n\n<!--@include: ./part.md#usage-->\n\n<!--@include: ./part.md{4,4}-->\n\n"
                "<!--@include: ./part.md#setup-steps-->\n\n<!--@include: ../../outside.md-->\n\n"
                "<!--@include: ../.env-->\n"
            ),
            "part.md": (
                "# Part\n\n<!-- #region usage -->\nUse it.\n<!-- #endregion usage -->\n\n"
                "## Setup steps\n\nStep one.\n\n## Other\n\nNot this.\n"
            ),
        },
    )
    (tmp_path.parent / "outside.md").write_text("from outside the repository\n")
    (tmp_path / ".env").write_text("KEY=secret\n")
    site = detect_site(root)
    page = read_page("page.md", (root / "page.md").read_bytes(), site, root, "python")
    body = page.body
    assert "Use it." in body and "Step one." in body
    assert body.count("Use it.") == 2  # line 4 of part.md, by range
    assert "Not this." not in body
    assert "from outside" not in body and "KEY=secret" not in body
    assert str((root / "part.md").resolve()) in page.meta["reads"]


def test_snippet_imports_show_the_file_or_its_region_in_its_language(tmp_path: Path) -> None:
    root = site_of(
        tmp_path,
        "export default {}\n",
        {
            "page.md": (
                "# Page\n\n## One\n\n<<< @/code/a.py#main{2 python} [main.py]\n\n"
                "## Two\n\n::: code-group\n\n<<< ./code/b.ts\n\n```sh [shell]\nrun\n```\n\n:::\n"
            ),
            "code/a.py": "import os\n# region main\n    def main():\n        pass\n# endregion main\n",
            "code/b.ts": "export const b = 1\n",
        },
    )
    site = detect_site(root)
    page = read_page("page.md", (root / "page.md").read_bytes(), site, root, "python")
    one, two = page.sections[1], page.sections[2]
    assert one.code_blocks[0].language == "python"
    assert one.code_blocks[0].code == "def main():\n    pass"
    assert "**b.ts**" in two.text and "**shell**" in two.text
    assert [b.code for b in two.code_blocks] == ["export const b = 1", "run"]


def test_locale_setting_picks_a_locale_and_an_unknown_one_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = source("vitepress", "vitepress")
    zh = detect_site(root, SiteOptions(locale="zh-Hans"))
    assert zh.locale == "zh" and zh.is_page("zh/index.md") and not zh.is_page("en/index.md")
    assert detect_site(root, SiteOptions(locale="pt")).is_page("pt/guide/what-is-vitepress.md")
    with caplog.at_level(logging.WARNING):
        fallback = detect_site(root, SiteOptions(locale="klingon"))
    assert fallback.locale == "root" and "klingon" in caplog.text


def test_computed_config_values_fall_back_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = site_of(
        tmp_path,
        """\
        const base = process.env.BASE || '/docs/'
        export default defineConfig({
          base,
          cleanUrls: process.env.CLEAN === '1',
          rewrites: (id) => id.replace(/^en\\//, ''),
          sitemap: { hostname: 'https://x.dev' },
        })
        """,
        {"en/a.md": "# A\n"},
    )
    with caplog.at_level(logging.INFO):
        site = detect_site(root)
    assert site.url_for("en/a.md") == "https://x.dev/docs/en/a.html"
    assert "cleanUrls is computed" in caplog.text and "rewrites is computed" in caplog.text
    assert "its fallback '/docs/' is used" in caplog.text  # a literal fallback is taken, and said


def test_sidebar_orders_the_navigation_without_limiting_pages(tmp_path: Path) -> None:
    root = site_of(
        tmp_path,
        """\
        export default {
          rewrites: { 'en/:rest*': ':rest*' },
          themeConfig: { sidebar: sidebar() },
        }
        function sidebar() {
          return { '/guide/': { base: '/guide/', items: [{ text: 'B', link: 'b' }, { text: 'A', link: 'a' }] } }
        }
        """,
        {
            "en/index.md": "# Home\n",
            "en/guide/a.md": "# A\n",
            "en/guide/b.md": "# B\n",
            "en/x.md": "# X\n",
        },
    )
    site = detect_site(root)
    assert site.nav == ("en/index.md", "en/guide/b.md", "en/guide/a.md")
    assert site.is_page("en/x.md")  # on no sidebar, still a page VitePress builds
