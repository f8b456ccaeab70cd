"""Docusaurus sites on small synthetic projects: config options, routes, imports, ids, markup.

Each case follows what Docusaurus 3 itself does (its loader, its MDX compiler, its config
options), checked against a real build of a project like the one written here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tools.sources.generators.docusaurus.rules import DocusaurusRules
from tools.sources.readers import read_page
from tools.sources.registry import detect_site
from tools.sources.site import Site


def project(tmp_path: Path, config: str, files: dict[str, str]) -> Path:
    """A Docusaurus site folder with its config and docs; the docs folder is returned."""
    (tmp_path / "docusaurus.config.js").write_text(textwrap.dedent(config), "utf-8")
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    (tmp_path / "docs").mkdir(exist_ok=True)
    return tmp_path / "docs"


def read(docs: Path, rel: str, site: Site | None = None):  # noqa: ANN201 — a Page
    site = site or detect_site(docs)
    return read_page(rel, (docs / rel).read_bytes(), site, docs, "python")


CONFIG = "module.exports = { url: 'https://example.com', baseUrl: '/' };\n"


def test_imports_with_js_escapes_several_per_line_and_at_site_are_inlined(
    tmp_path: Path,
) -> None:
    docs = project(
        tmp_path,
        CONFIG,
        {
            "docs/_a.mdx": "## Key Concepts\n\nFrom A.\n",
            "docs/_b.mdx": "## Key Concepts\n\nFrom B.\n",
            "shared/_c.md": "Shared C.\n",
            "docs/_d.md": "Part D.\n",
            "docs/escaped.mdx": "---\ntitle: E\n---\nimport A from './\\_a.mdx';\n\n<A />\n",
            "docs/two.mdx": (
                "---\ntitle: T\n---\n"
                "import A from './_a.mdx'; import B from './_b.mdx';\n"
                "import C from '@site/shared/_c.md'; import\nD from './_d.md';\n\n"
                "<A />\n\n<B />\n\n<C />\n\n<D />\n"
            ),
        },
    )
    escaped = read(docs, "escaped.mdx")
    assert [s.anchor for s in escaped.sections if s.level] == ["key-concepts"]
    assert "From A." in escaped.body
    two = read(docs, "two.mdx")
    # Each imported file is compiled on its own: both headings get the same bare id.
    assert [s.anchor for s in two.sections if s.level] == ["key-concepts", "key-concepts"]
    assert "From A." in two.body and "From B." in two.body and "Shared C." in two.body
    assert "Part D." in two.body and "from" not in two.body  # an import over two lines
    assert "'" not in two.body and "import" not in two.body


def test_an_apostrophe_in_a_jsx_expression_attribute_keeps_the_rest_of_the_page(
    tmp_path: Path,
) -> None:
    docs = project(
        tmp_path,
        CONFIG,
        {
            "docs/frag.mdx": (
                "## Before\n\n<Fig\n  text={<>Check the item's note.</>}\n/>\n\n"
                "Middle text.\n\n## After\n\nEnd text.\n"
            )
        },
    )
    page = read(docs, "frag.mdx")
    assert [(s.anchor, s.text) for s in page.sections] == [
        ("before", "Middle text."),
        ("after", "End text."),
    ]


def test_strings_in_jsx_expressions_still_hide_their_braces() -> None:
    from tools.sources.hidden.strip import strip_hidden

    text = "<div hidden={'}'} data-x={`a ${'b'} }`}>secret</div>\n\nVisible.\n"
    assert strip_hidden(text).strip() == "Visible."


def test_a_head_block_goes_into_the_html_head_not_the_text(tmp_path: Path) -> None:
    docs = project(
        tmp_path,
        CONFIG,
        {
            "docs/head.md": (
                "---\ntitle: Head\n---\n\n<head>\n  <title>SEO title</title>\n"
                '  <meta name="description" content="SEO text" />\n'
                '  <link rel="canonical" href="https://x" />\n</head>\n\nBody text.\n\n'
                "<header>Shown</header>\n"
            )
        },
    )
    page = read(docs, "head.md")
    assert page.body.startswith("Body text.") and "Shown" in page.body  # `<header>` stays
    assert "SEO" not in page.body and "<head>" not in page.body and "canonical" not in page.body


def url(docs: Path, rel: str) -> str:
    return detect_site(docs).url_for(rel, {})


def test_route_base_path_is_the_one_of_the_docs_plugin_of_this_folder(tmp_path: Path) -> None:
    config = """
    module.exports = {
      url: 'https://example.com',
      baseUrl: '/',
      presets: [['@docusaurus/preset-classic', /** @type {import('x').Options} */ ({
        docs: { sidebarPath: require.resolve('./sidebars'), exclude: ['README.md'] },
      })]],
      plugins: [['content-docs', { id: 'architecture', path: 'architecture',
                                   routeBasePath: '/architecture' }]],
    };
    """
    docs = project(tmp_path, config, {"docs/a.md": "# A\n", "architecture/b.md": "# B\n"})
    assert url(docs, "a.md") == "https://example.com/docs/a"
    assert url(tmp_path / "architecture", "b.md") == "https://example.com/architecture/b"
    site = detect_site(docs)
    # The plugin's `exclude` globs start at the docs folder: a nested README.md is a doc.
    assert not site.is_page("README.md") and site.is_page("guide/README.md")


def test_a_computed_option_falls_back_to_the_default_and_says_which_setting_to_use(
    tmp_path: Path, caplog
) -> None:  # noqa: ANN001
    config = """
    const BASE_URL = '/base';
    module.exports = { url: 'https://example.com', baseUrl: `${BASE_URL}/`,
      presets: [['classic', { docs: { routeBasePath: process.env.ROUTE } }]] };
    """
    docs = project(tmp_path, config, {"docs/a.md": "# A\n"})
    with caplog.at_level("WARNING"):
        assert url(docs, "a.md") == "https://example.com/base/docs/a"
    assert "routeBasePath" in caplog.text and "DOCS_AGENT_DOCS_BASE_URL" in caplog.text


def test_an_unknown_name_in_a_template_base_url_is_said_not_read_as_root(
    tmp_path: Path, caplog
) -> None:  # noqa: ANN001
    config = "module.exports = { url: 'https://example.com', baseUrl: `${process.env.B}/` };\n"
    docs = project(tmp_path, config, {"docs/a.md": "# A\n"})
    with caplog.at_level("WARNING"):
        detect_site(docs)
    assert "baseUrl" in caplog.text and "DOCS_AGENT_DOCS_BASE_URL" in caplog.text


def test_with_released_versions_the_current_folder_is_served_at_next(tmp_path: Path) -> None:
    files = {
        "docs/a.md": "# A\n",
        "versions.json": '["2.0", "1.0"]',
        "versioned_docs/version-2.0/a.md": "# A 2\n",
        "versioned_docs/version-1.0/a.md": "# A 1\n",
    }
    docs = project(tmp_path, CONFIG, files)
    assert url(docs, "a.md") == "https://example.com/docs/next/a"
    released = tmp_path / "versioned_docs"
    assert url(released / "version-2.0", "a.md") == "https://example.com/docs/a"
    assert url(released / "version-1.0", "a.md") == "https://example.com/docs/1.0/a"
    current = CONFIG.replace(
        "baseUrl: '/'", "baseUrl: '/', presets: [['classic', {docs: {lastVersion: 'current'}}]]"
    )
    (tmp_path / "docusaurus.config.js").write_text(current, "utf-8")
    assert url(docs, "a.md") == "https://example.com/docs/a"
    assert url(released / "version-2.0", "a.md") == "https://example.com/docs/2.0/a"


VERSIONED = {
    "docs/a.md": "# A\n",
    "versions.json": '["2.0", "1.0"]',
    "versioned_docs/version-2.0/a.md": "# A 2\n",
    "versioned_docs/version-1.0/a.md": "# A 1\n",
}


def docs_config(options: str) -> str:
    """A config whose preset's docs plugin has these options (JavaScript text)."""
    return (
        "module.exports = { url: 'https://example.com', baseUrl: '/',\n"
        f"  presets: [['classic', {{ docs: {{ {options} }} }}]] }};\n"
    )


def test_a_version_path_option_names_the_version_s_route_segment(tmp_path: Path) -> None:
    # As Docusaurus 3.10 loads these sites: `versions.X.path` wins over the default segment,
    # the last version's too; without it `lastVersion: 'current'` serves the docs folder at
    # the docs route; an unversioned site's current version takes its path as well.
    docs = project(
        tmp_path, docs_config("versions: { current: { path: 'dev', label: 'Dev' } }"), VERSIONED
    )
    released = tmp_path / "versioned_docs"
    assert url(docs, "a.md") == "https://example.com/docs/dev/a"
    assert url(released / "version-2.0", "a.md") == "https://example.com/docs/a"
    config = docs_config(
        "lastVersion: 'current', versions: { current: { path: 'dev' }, '1.0': { path: 'old' } }"
    )
    (tmp_path / "docusaurus.config.js").write_text(config, "utf-8")
    assert url(docs, "a.md") == "https://example.com/docs/dev/a"
    assert url(released / "version-2.0", "a.md") == "https://example.com/docs/2.0/a"
    assert url(released / "version-1.0", "a.md") == "https://example.com/docs/old/a"
    config = docs_config("lastVersion: 'current', versions: { current: { label: 'Dev' } }")
    (tmp_path / "docusaurus.config.js").write_text(config, "utf-8")
    assert url(docs, "a.md") == "https://example.com/docs/a"
    (tmp_path / "versions.json").unlink()
    config = docs_config("versions: { current: { path: 'dev' } }")
    (tmp_path / "docusaurus.config.js").write_text(config, "utf-8")
    assert url(docs, "a.md") == "https://example.com/docs/dev/a"


def test_only_included_versions_are_built_and_the_last_one_is_among_them(
    tmp_path: Path, caplog
) -> None:  # noqa: ANN001
    docs = project(tmp_path, docs_config("onlyIncludeVersions: ['current', '1.0']"), VERSIONED)
    released = tmp_path / "versioned_docs"
    assert url(docs, "a.md") == "https://example.com/docs/next/a"
    # The last version is the newest released one kept: 1.0, at the docs route.
    assert url(released / "version-1.0", "a.md") == "https://example.com/docs/a"
    with caplog.at_level("WARNING"):
        left_out = detect_site(released / "version-2.0")
    assert not left_out.is_page("a.md") and "'2.0'" in caplog.text
    assert detect_site(docs).is_page("a.md")
    config = docs_config("includeCurrentVersion: false")
    (tmp_path / "docusaurus.config.js").write_text(config, "utf-8")
    assert not detect_site(docs).is_page("a.md")
    assert detect_site(released / "version-2.0").is_page("a.md")
    config = docs_config("disableVersioning: true")
    (tmp_path / "docusaurus.config.js").write_text(config, "utf-8")
    assert url(docs, "a.md") == "https://example.com/docs/a"


def test_computed_version_options_keep_the_defaults_and_say_so(tmp_path: Path, caplog) -> None:  # noqa: ANN001
    config = docs_config(
        "onlyIncludeVersions: isPreview ? ['current'] : undefined,"
        " versions: { [last]: { path: 'latest' } }"
    )
    docs = project(tmp_path, config, VERSIONED)
    with caplog.at_level("WARNING"):
        assert url(docs, "a.md") == "https://example.com/docs/next/a"
        assert detect_site(tmp_path / "versioned_docs" / "version-1.0").is_page("a.md")
    assert "onlyIncludeVersions" in caplog.text and "every version" in caplog.text
    assert "[last]" in caplog.text


def test_a_spread_of_a_const_object_gives_its_options_and_a_computed_one_is_said(
    tmp_path: Path, caplog
) -> None:  # noqa: ANN001
    config = """
    const common = {
      sidebarPath: false,
      routeBasePath: 'guide',
    };
    const more = { ...common, onlyIncludeVersions: ['current', '2.0'] };
    module.exports = { url: 'https://example.com', baseUrl: '/',
      presets: [['classic', { docs: { ...more, routeBasePath: 'ref' } }]] };
    """
    docs = project(tmp_path, config, VERSIONED)
    released = tmp_path / "versioned_docs"
    # What Docusaurus serves: the later key wins, the spread's other keys hold.
    assert url(docs, "a.md") == "https://example.com/ref/next/a"
    assert url(released / "version-2.0", "a.md") == "https://example.com/ref/a"
    assert not detect_site(released / "version-1.0").is_page("a.md")
    with caplog.at_level("WARNING"):
        detect_site(docs)
    assert "computed" not in caplog.text
    computed = config.replace("...more,", "...require('./docs-options'), ...more,")
    (tmp_path / "docusaurus.config.js").write_text(textwrap.dedent(computed), "utf-8")
    with caplog.at_level("WARNING"):
        assert url(docs, "a.md") == "https://example.com/ref/next/a"
    assert "require('./docs-options')" in caplog.text and "DOCS_AGENT_DOCS_BASE_URL" in caplog.text
    named = config.replace(
        "module.exports", "const docsOptions = { ...more, routeBasePath: 'api' };\nmodule.exports"
    ).replace("{ docs: { ...more, routeBasePath: 'ref' } }", "{ docs: docsOptions }")
    (tmp_path / "docusaurus.config.js").write_text(textwrap.dedent(named), "utf-8")
    assert url(docs, "a.md") == "https://example.com/api/next/a"


def test_number_prefixes_and_category_index_docs_route_as_docusaurus_does(
    tmp_path: Path,
) -> None:
    files = {
        "docs/01 - intro.md": "# I\n",
        "docs/02-guides/03_setup.md": "# S\n",
        "docs/updating/4-0.md": "# U\n",
        "docs/2021-11-notes.md": "# N\n",
        "docs/guide/index.md": "---\nid: intro\n---\n# G\n",
        "docs/releases/releases.md": "---\nid: releases\n---\n# R\n",
        "docs/index.md": "# Home\n",
    }
    docs = project(tmp_path, CONFIG, files)
    site = detect_site(docs)
    urls = {rel.removeprefix("docs/"): site.url_for(rel.removeprefix("docs/"), {}) for rel in files}
    meta = {"guide/index.md": {"id": "intro"}, "releases/releases.md": {"id": "releases"}}
    urls.update({rel: site.url_for(rel, m) for rel, m in meta.items()})
    assert urls == {
        "01 - intro.md": "https://example.com/docs/intro",
        "02-guides/03_setup.md": "https://example.com/docs/guides/setup",
        "updating/4-0.md": "https://example.com/docs/updating/4-0",
        "2021-11-notes.md": "https://example.com/docs/2021-11-notes",
        # Without `trailingSlash`, a category's index doc keeps the `/` of its folder.
        "guide/index.md": "https://example.com/docs/guide/",
        "releases/releases.md": "https://example.com/docs/releases/",
        "index.md": "https://example.com/docs/",
    }
    flat = CONFIG.replace("baseUrl: '/'", "baseUrl: '/', trailingSlash: false")
    (tmp_path / "docusaurus.config.js").write_text(flat, "utf-8")
    assert detect_site(docs).url_for("guide/index.md", {}) == "https://example.com/docs/guide"


def test_an_mdx_comment_id_at_a_heading_end_is_its_anchor(tmp_path: Path) -> None:
    text = (
        "## TypeScript\n\n#### TypeScript {/* #react-typescript */}\n\n"
        "## Setup {/* #setup-id and a note */}\n\n## Plain {/* a note */}\n"
    )
    docs = project(tmp_path, CONFIG, {"docs/ids.mdx": text})
    page = read(docs, "ids.mdx")
    assert [(s.heading, s.anchor) for s in page.sections if s.level] == [
        ("TypeScript", "typescript"),
        ("TypeScript", "react-typescript"),
        ("Setup", "setup-id"),
        # Any other comment counts in the id (`mark_heading_comments`), not in the text.
        ("Plain", "plain--a-note-"),
    ]
    from tools.sources.markdown.parse import parse_markdown

    # No Docusaurus loader step nor cleaning before the reader: the comment is only dropped.
    direct = parse_markdown("ids.mdx", text, slug="github")
    assert [s.anchor for s in direct.sections if s.level] == [
        "typescript",
        "react-typescript",
        "setup-id",
        "plain",
    ]


def test_comments_in_a_heading_count_in_its_id_as_docusaurus_compiles_them(
    tmp_path: Path,
) -> None:
    # Ids and texts as @docusaurus/mdx-loader 3.10 compiles these headings.
    text = (
        "## Title {/* note */}\n\n## Title {/* note */}\n\n## Mid {/* x */} end\n\n"
        "## Sp {  /* note */  }\n\n## Two {/* #a */}{/* b */}\n\n## Code `x` {/* c */}\n\n"
        "## Entity &amp; {/* c */}\n\n## Html <!-- not shown -->\n\n## Kept {/* #kept-id */}\n\n"
        "```md\n## Title {/* in code */}\n```\n"
    )
    docs = project(tmp_path, CONFIG, {"docs/c.mdx": text})
    page = read(docs, "c.mdx")
    assert [(s.heading, s.anchor) for s in page.sections if s.level] == [
        ("Title", "title--note-"),
        ("Title", "title--note--1"),
        ("Mid end", "mid--x--end"),
        ("Sp", "sp----note---"),
        ("Two", "two--a--b-"),
        ("Code `x`", "code-x--c-"),
        ("Entity &", "entity---c-"),
        ("Html", "html-"),
        ("Kept", "kept-id"),
    ]
    body = "\n".join(s.text for s in page.sections)
    assert "note" not in body and "\ue001" not in body and "{/* in code */}" in body


def test_an_mdx_code_block_fence_is_mdx_of_the_page_not_code(tmp_path: Path) -> None:
    text = (
        "# Install\n\n````mdx-code-block\nimport Tabs from '@theme/Tabs';\n"
        'import TabItem from \'@theme/TabItem\';\n\n<Tabs>\n<TabItem value="npm" label="npm">\n\n'
        "```bash\nnpm install x\n```\n\n</TabItem>\n</Tabs>\n````\n\n"
        "```mdx-code-block\n## Inside {/* why */}\n\nSome *MDX* text. {/* hidden note */}\n```\n\n"
        "## After\n"
    )
    docs = project(tmp_path, CONFIG, {"docs/i.mdx": text})
    page = read(docs, "i.mdx")
    assert [(s.heading, s.anchor) for s in page.sections] == [
        ("Install", "install"),
        ("Inside", "inside--why-"),
        ("After", "after"),
    ]
    install, inside, _ = page.sections
    assert [b.language for b in install.code_blocks] == ["bash"]
    assert "import" not in install.text and "mdx-code-block" not in install.text
    assert inside.text == "Some *MDX* text."  # its comment is hidden text, dropped


def test_a_character_reference_in_a_heading_is_its_character(tmp_path: Path) -> None:
    docs = project(tmp_path, CONFIG, {"docs/v.md": "## Ionic &amp; Async\n"})
    (section,) = read(docs, "v.md").sections
    assert (section.heading, section.anchor) == ("Ionic & Async", "ionic--async")


def test_an_autogenerated_sidebar_item_stands_for_the_docs_of_its_folder(tmp_path: Path) -> None:
    files = {
        "docs/intro.md": "# I\n",
        "docs/updating/8-0.md": "# 8\n",
        "docs/updating/9-0.md": "# 9\n",
        "docs/extra/orphan.md": "# O\n",
        "sidebars.js": (
            "module.exports = { docs: [ 'intro', { type: 'category', label: 'Up', items: "
            "[{ type: 'autogenerated', dirName: 'updating' }] } ] };\n"
        ),
    }
    docs = project(tmp_path, CONFIG, files)
    site = detect_site(docs)
    assert site.nav == ("intro.md", "updating/8-0.md", "updating/9-0.md")
    assert not site.is_page("extra/orphan.md")
    (tmp_path / "sidebars.js").write_text(
        "module.exports = { docs: [{ type: 'autogenerated', dirName: '.' }] };\n", "utf-8"
    )
    assert len(detect_site(docs).nav or ()) == 4


def test_an_imported_component_file_leaves_no_javascript_or_tags_in_the_page(
    tmp_path: Path,
) -> None:
    component = (
        "import Playground from '@site/src/Playground';\n"
        "import a_ts from './a_ts.md';\n\n"
        "export default function Demo({ framework = 'angular' }) {\n"
        '  return (\n    <Playground\n      version="9"\n      code={{\n'
        "        angular: { files: { 'src/a.ts': a_ts } },\n      }}\n"
        "      defaultFramework={framework}\n    />\n  );\n}\n"
    )
    files = {
        "static/usage/demo/index.md": component,
        "docs/_hidden.md": '<div style="display:none">secret</div>\n\nShown part.\n',
        "docs/page.md": (
            "import Demo from '@site/static/usage/demo/index.md';\n"
            "import Hidden from './_hidden.md';\n\n## Demo\n\n<Demo framework=\"react\" />\n\n"
            "<Hidden />\n\nAfter.\n\n<Grid\n  items={{ a: { b: { c: 'd' } } }}\n/>\n\nEnd.\n"
        ),
    }
    docs = project(tmp_path, CONFIG, files)
    text = read(docs, "page.md").body
    assert text == "## Demo\n\nShown part.\n\nAfter.\n\nEnd."


def test_a_json_sidebar_names_its_docs_by_their_id_keys(tmp_path: Path) -> None:
    files = {
        "docs/intro.md": "# I\n",
        "docs/appendix.md": "# A\n",
        "docs/other.md": "# O\n",
        "sidebars.json": (
            '{"docs": ["intro", {"type": "category", "label": "Misc", "items": '
            '[{"type": "doc", "id": "appendix", "label": "Appendix"}]}]}'
        ),
    }
    docs = project(tmp_path, CONFIG, files)
    assert detect_site(docs).nav == ("intro.md", "appendix.md")


def test_only_esm_at_a_line_start_runs_on_over_lines() -> None:
    from tools.sources.markdown.parse import parse_markdown

    text = "## A\n\n  export const config = {\n\nKept text.\n\nexport const x = {\n  a: 1,\n};\n\nEnd.\n"
    page = parse_markdown("a.mdx", text, slug="github")
    assert page.sections[0].text == "Kept text.\n\nEnd."


def test_a_site_deeper_in_the_repository_whose_docs_path_names_the_folder_is_found(
    tmp_path: Path,
) -> None:
    # A monorepo: the docs at its top, the site in `packages/website/` (`path: '../../docs'`),
    # a second docs plugin reading a package's folder (`path: '../plugin/docs/rules'`).
    (tmp_path / ".git").mkdir()
    site_dir = tmp_path / "packages" / "website"
    site_dir.mkdir(parents=True)
    (site_dir / "docusaurus.config.mts").write_text(
        "const options: Options = { id: 'base', path: '../../docs', routeBasePath: '/' };\n"
        "const config: Config = { url: 'https://example.io', baseUrl: '/',\n"
        "  presets: [['classic', { docs: { id: 'rules', path: '../plugin/docs/rules',\n"
        "    routeBasePath: 'rules' } }]],\n"
        "  plugins: [['@docusaurus/plugin-content-docs', options]] };\n",
        "utf-8",
    )
    for rel in ("docs/Intro.md", "packages/plugin/docs/rules/no-foo.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# T\n", "utf-8")
    docs = detect_site(tmp_path / "docs")
    assert isinstance(docs.rules, DocusaurusRules) and docs.rules.route_base == ""
    assert docs.url_for("Intro.md") == "https://example.io/Intro"
    rules = detect_site(tmp_path / "packages" / "plugin" / "docs" / "rules")
    assert rules.url_for("no-foo.md") == "https://example.io/rules/no-foo"
    # A site outside the repository (above its `.git`) builds none of its folders.
    outside = tmp_path.parent / f"{tmp_path.name}-site"
    outside.mkdir()
    (outside / "docusaurus.config.js").write_text(
        f"module.exports = {{ presets: [['classic', {{ docs: {{ path: "
        f"'../{tmp_path.name}/packages/x' }} }}]] }};\n",
        "utf-8",
    )
    (tmp_path / "packages" / "x").mkdir()
    assert detect_site(tmp_path / "packages" / "x").generator == "markdown"


def test_a_computed_sidebar_leaves_every_doc_a_page(tmp_path: Path, caplog) -> None:  # noqa: ANN001
    # Docusaurus builds every doc; a sidebar whose ids only running it tells (`id: rule.name`)
    # must not shrink the pages to the one doc it writes out.
    files = {
        "docs/README.md": "# Rules\n",
        "docs/no-foo.md": "# no-foo\n",
        "docs/no-bar.md": "# no-bar\n",
        "sidebars.js": (
            "// eslint-disable-next-line no-require-imports: a comment's require( is no code\n"
            "const plugin = require('my-plugin');\n"
            "const rules = Object.keys(plugin.rules).map(name => ({ id: name, type: 'doc' }));\n"
            "module.exports = { rules: ['README', { type: 'category', items: rules }] };\n"
        ),
    }
    docs = project(tmp_path, CONFIG, files)
    site = detect_site(docs)
    assert site.nav is None and site.is_page("no-bar.md")
    assert "the sidebar is computed" in caplog.text
    # Written out, with a type-only import and a comment naming `require(`, it is read.
    (tmp_path / "sidebars.ts").write_text(
        "import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';\n"
        "// not require('x')\nconst s: SidebarsConfig = { rules: ['README', {type: 'doc', "
        "id: 'no-foo', label: 'map(x)'}] };\nexport default s;\n",
        "utf-8",
    )
    (tmp_path / "sidebars.js").unlink()
    assert detect_site(docs).nav == ("README.md", "no-foo.md")


def test_code_and_emphasis_in_a_heading_read_as_its_text_and_id(tmp_path: Path) -> None:
    # Ids as Docusaurus 3.10's MDX compiler gives them (github-slugger over the heading's text).
    files = {
        "docs/faq.mdx": (
            "## How can I ban `<specific language feature>`?\n\n"
            "## Ignore properties that _require_ quotes\n\n"
            "## snake_case_name and *emph* and `_code_`\n\n## a * b * c\n"
        )
    }
    docs = project(tmp_path, CONFIG, files)
    got = [(s.heading, s.anchor) for s in read(docs, "faq.mdx").sections]
    assert got == [
        (
            "How can I ban `<specific language feature>`?",
            "how-can-i-ban-specific-language-feature",
        ),
        ("Ignore properties that require quotes", "ignore-properties-that-require-quotes"),
        ("snake_case_name and emph and `_code_`", "snake_case_name-and-emph-and-_code_"),
        ("a * b * c", "a--b--c"),
    ]
