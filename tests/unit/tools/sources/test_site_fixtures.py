"""Golden records of each site profile and reader on a small docs folder (tests/fixtures/sites)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.tools.sources.folder_corpus import doc, synced
from tests.unit.tools.sources.markup import leftovers
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.registry import SiteOptions, detect_site
from tools.sources.release_notes import RELEASE_NOTES

SITES = Path(__file__).resolve().parents[3] / "fixtures" / "sites"


def test_mkdocs_urls_titles_anchors_and_which_files_are_pages(index_dir: Path) -> None:
    corpus = synced(SITES / "mkdocs" / "docs", index_dir)
    assert corpus.site.generator == "mkdocs"
    # The navigation decides: the off-nav page, the snippets and the theme are no pages.
    assert sorted(corpus.index.keys()) == [
        "changelog.md",
        "concepts/models.md",
        "errors/usage_errors.md",
        "index.md",
    ]
    assert corpus.report().problems == []
    models = doc(corpus, "concepts/models.md")
    # use_directory_urls (the default): a trailing slash; index.md is the site's root.
    assert models.url == "https://docs.example.org/concepts/models/"
    assert doc(corpus, "index.md").url == "https://docs.example.org/"
    assert models.title == "Models"  # the nav's title
    heads = [(s.heading, s.anchor, s.ids) for s in models.sections if s.level]
    assert heads == [
        ("Basic model usage", "basic-model-usage", ()),  # `{ #id }` wins, and is not doubled
        ("Model methods and properties", "model-methods-and-properties", ("model-methods",)),
        ("Validation", "validation", ()),
        # Python-Markdown's repeat suffix; `::: pkg.Obj` below it: the object's id (mkdocstrings)
        ("Validation", "validation_1", ("pydantic.main.BaseModel",)),
    ]
    errors = doc(corpus, "errors/usage_errors.md")
    assert [s.anchor for s in errors.sections if s.level] == [
        "class-not-fully-defined",
        "changes-to-pydanticbasemodel",
    ]


def test_mkdocs_blocks_snippets_and_annotations_read_as_the_site_shows_them(
    index_dir: Path,
) -> None:
    models = doc(synced(SITES / "mkdocs" / "docs", index_dir), "concepts/models.md")
    usage = next(s for s in models.sections if s.anchor == "basic-model-usage")
    # The snippet file's code reaches the page, in the fence that includes it, language kept.
    assert [b.language for b in usage.code_blocks] == ["python", "python"]
    assert "class User(BaseModel):" in usage.code_blocks[0].code
    assert "# (1)!" not in usage.text and "user = User(id='123')" in usage.text
    assert "1. The `id` is coerced" in usage.text  # the annotation's note stays as text
    assert "**Validation, not parsing**" in usage.text
    assert "**Python 3.10 and above**" in usage.text and "Use `int | None`" in usage.text
    methods = next(s for s in models.sections if s.anchor == "model-methods-and-properties")
    assert "See `model_dump()` for serialization." in methods.text  # the autoref as its text
    assert "**Version added: v2.10**" in methods.text
    assert "never pages themselves" in methods.text  # a Markdown snippet inlined
    everything = "\n".join([models.title, *(s.heading + "\n" + s.text for s in models.sections)])
    assert leftovers(everything) == []
    assert "`pydantic.main.BaseModel`" in models.sections[-1].text  # mkdocstrings: the name


def test_release_notes_answer_only_questions_about_a_release(index_dir: Path) -> None:
    corpus = synced(SITES / "mkdocs" / "docs", index_dir)
    assert doc(corpus, "changelog.md").collection == RELEASE_NOTES
    assert "changelog.md" not in [h.key for h in corpus.search("exclude_unset flag", 5)]
    assert corpus.search("what changed in v2.1 exclude_unset", 5)[0].key == "changelog.md"


def test_docusaurus_ids_slugs_partials_admonitions_and_imports(index_dir: Path) -> None:
    corpus = synced(SITES / "docusaurus" / "docs", index_dir)
    assert corpus.site.generator == "docusaurus"
    urls = {key: doc(corpus, key).url for key in corpus.index.keys()}
    assert urls == {
        "GettingStarted.md": "https://example.dev/docs/getting-started",  # front-matter id
        "01-guides/02-conflicts.mdx": "https://example.dev/docs/guides/conflicts",
        # `trailingSlash: undefined`: a category's index keeps its folder's `/`.
        "01-guides/index.md": "https://example.dev/docs/guides/",
        "reference/api.md": "https://example.dev/docs/api",  # absolute slug
        "reference/cli.md": "https://example.dev/docs/reference/command-line",  # relative slug
    }  # `_install-note.mdx` is a partial, not a page
    start = doc(corpus, "GettingStarted.md")
    assert start.title == "Getting Started"
    assert [s.anchor for s in start.sections if s.level] == [
        "install-the-client",
        "open-session",  # `{#id}`
        "open-a--session",  # github-slugger: one hyphen per space
    ]
    text = "\n".join(s.text for s in start.sections)
    assert "Node.js 18 or later is required." in text  # the imported partial, inlined
    assert "**Use the same version**" in text and ":::" not in text
    assert "npm install example-sync" in text and "<TabItem" not in text
    conflicts = doc(corpus, "01-guides/02-conflicts.mdx")
    assert "**Data loss**" in conflicts.sections[0].text
    assert leftovers(text + conflicts.sections[0].text) == []


def test_mintlify_navigation_and_snippet_imports(index_dir: Path) -> None:
    corpus = synced(SITES / "mintlify", index_dir, UrlRule("https://queue.example.com"))
    assert sorted(corpus.index.keys()) == ["guides/retries.mdx", "index.mdx"]
    retries = doc(corpus, "guides/retries.mdx")
    assert retries.url == "https://queue.example.com/guides/retries"  # no suffix
    assert retries.sections[0].code_blocks[0].code.startswith("queue.enqueue(job, retries=3")


def test_settings_override_what_the_folder_says(index_dir: Path) -> None:
    site = detect_site(
        SITES / "mkdocs" / "docs",
        SiteOptions(base_url="https://docs.example.org/latest/", url_style="html", nav="off"),
    )
    assert (
        site.url_for("concepts/models.md") == "https://docs.example.org/latest/concepts/models.html"
    )
    assert site.is_page("not_in_nav.md") and not site.is_page("snippets/shared_note.md")
    forced = detect_site(SITES / "docusaurus" / "docs", SiteOptions(generator="markdown"))
    assert forced.generator == "markdown" and forced.slug == "mintlify"


def test_a_folder_in_a_format_no_reader_takes_is_reported(tmp_path: Path, index_dir: Path) -> None:
    (tmp_path / "guide.adoc").write_text("= Guide\n")
    (tmp_path / "tour.ipynb").write_text("{}")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG")
    corpus = FolderCorpus(tmp_path, "docs", index_dir, UrlRule())
    corpus.sync(workers=1)
    problems = corpus.report().problems
    assert len(problems) == 1 and "yields 0 pages" in problems[0]
    assert str(tmp_path) in problems[0] and "1 .adoc" in problems[0] and "1 .ipynb" in problems[0]
    assert ".png" not in problems[0]  # an image is no document
    (tmp_path / "index.md").write_text("# Home\n")
    corpus.sync(workers=1)
    (skipped,) = corpus.report().problems
    assert skipped.startswith(
        f"{tmp_path.resolve()}: files no reader takes were skipped (site: markdown): 1 .adoc, 1 .ipynb; "
    )
    # Each format with the route that reads it (tools/sources/unread.py).
    assert "1 .adoc files are AsciiDoc pages: build the site" in skipped
    assert "DOCS_AGENT_DOCS_NOTEBOOKS=on" in skipped


@pytest.mark.parametrize("name", ["mkdocs", "docusaurus", "mintlify"])
def test_one_changed_page_is_read_again_alone(name: str, tmp_path: Path, index_dir: Path) -> None:
    import shutil

    root = tmp_path / name
    shutil.copytree(SITES / name, root)
    docs = root / "docs" if (root / "docs").is_dir() else root
    corpus = synced(docs, index_dir)
    first = len(corpus.index)
    page = docs / sorted(corpus.pages.paths.values())[0]
    page.write_text(page.read_text() + "\n\nOne more line about zebras.\n")
    stats = corpus.sync(workers=1)
    assert (stats.added, stats.updated, stats.removed) == (0, 1, 0) and len(corpus.index) == first


def test_site_settings_come_from_the_environment_and_bad_values_fail_by_name() -> None:
    from tools.docs import docs_site
    from tools.settings import SourceSettings

    root = SITES / "mkdocs" / "docs"
    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(root),
            "DOCS_AGENT_DOCS_BASE_URL": "https://docs.example.org/2.1/",
            "DOCS_AGENT_DOCS_NAV": "off",
            "DOCS_AGENT_DOCS_EXCLUDE": "not_in_nav.md",
            "DOCS_AGENT_DOCS_SLUG": "github",
        }
    )
    site = docs_site(settings, root)
    assert site.generator == "mkdocs" and site.slug == "github" and site.nav is None
    assert site.url_for("concepts/models.md") == "https://docs.example.org/2.1/concepts/models/"
    assert not site.is_page("not_in_nav.md") and site.is_page("changelog.md")
    with pytest.raises(ValueError, match="DOCS_AGENT_DOCS_URL_STYLE"):
        SourceSettings.from_env({"DOCS_AGENT_DOCS_URL_STYLE": "slashes"})


def test_a_sphinx_folder_indexes_through_the_same_contract(index_dir: Path) -> None:
    corpus = synced(SITES.parent / "sphinx_site", index_dir)
    assert corpus.site.generator == "sphinx" and corpus.report().problems == []
    # The toctree's pages: not the excluded, orphan or include-only files.
    assert sorted(corpus.index.keys()) == ["how-to/skipping.rst", "index.rst", "reference.rst"]
    skipping = doc(corpus, "how-to/skipping.rst")
    assert skipping.url == "https://docs.example.org/en/stable/how-to/skipping.html"
    top = skipping.sections[0]
    assert top.anchor == "how-to-use-skip-and-xfail-to-deal-with-tests-that-cannot-succeed"
    assert {"skipping", "skip-and-xfail"} <= set(top.ids)  # labels open the section too
    text = "\n".join([skipping.title, *(s.heading + "\n" + s.text for s in skipping.sections)])
    assert leftovers(text) == []


def test_a_built_html_folder_indexes_through_the_same_contract(index_dir: Path) -> None:
    corpus = synced(
        SITES.parent / "html_site", index_dir, UrlRule("https://docs.example.org/en/stable/")
    )
    assert corpus.site.generator == "html"
    assert sorted(corpus.index.keys()) == ["how-to/fixtures.html", "index.html"]  # no _static
    fixtures = doc(corpus, "how-to/fixtures.html")
    assert fixtures.url == "https://docs.example.org/en/stable/how-to/fixtures.html"
    assert fixtures.sections[0].anchor == "how-to-use-fixtures"


def test_a_page_taken_out_of_the_toctree_is_one_page_removed_not_a_rebuild(
    tmp_path: Path, index_dir: Path
) -> None:
    import shutil

    shutil.copytree(SITES.parent / "sphinx_site", tmp_path / "site")
    index = tmp_path / "site" / "index.rst"
    first = synced(tmp_path / "site", index_dir)
    index.write_text(index.read_text().replace("   Reference <reference>\n", ""))
    again = FolderCorpus(tmp_path / "site", "docs", index_dir, UrlRule())
    assert again.index.db_path == first.index.db_path
    stats = again.sync(workers=1)
    assert (stats.added, stats.updated, stats.removed, stats.unchanged) == (0, 1, 1, 1)
    assert sorted(again.index.keys()) == ["how-to/skipping.rst", "index.rst"]


def test_get_doc_page_opens_a_section_by_any_id_it_serves(index_dir: Path) -> None:
    from tools.presentation.render import render_document

    corpus = synced(SITES / "mkdocs" / "docs", index_dir)
    text = render_document(doc(corpus, "concepts/models.md"), "model-methods")
    assert text.startswith("# Models — Model methods and properties\n")
    assert "Source: https://docs.example.org/concepts/models/#model-methods-and-properties" in text


def test_a_hand_written_docusaurus_sidebar_decides_which_docs_count(
    tmp_path: Path, index_dir: Path
) -> None:
    import shutil

    shutil.copytree(SITES / "docusaurus", tmp_path / "site")
    (tmp_path / "site" / "sidebars.js").write_text(
        "module.exports = {\n  docs: [\n    'getting-started',\n"
        "    {type: 'category', label: 'Guides', items: ['guides/conflicts', "
        "{type: 'doc', id: 'guides/index'}]},\n  ],\n};\n"
    )
    corpus = synced(tmp_path / "site" / "docs", index_dir)
    assert corpus.site.nav == (
        "GettingStarted.md",
        "01-guides/02-conflicts.mdx",
        "01-guides/index.md",
    )
    assert sorted(corpus.index.keys()) == sorted(corpus.site.nav)
    (tmp_path / "site" / "sidebars.js").write_text(
        "module.exports = {docs: [{type: 'autogenerated', dirName: '.'}]};\n"
    )
    # An autogenerated sidebar lists every doc of its folder (the `_` partial is none).
    nav = FolderCorpus(tmp_path / "site" / "docs", "docs", index_dir, UrlRule()).site.nav
    assert nav is not None and sorted(nav) == [
        "01-guides/02-conflicts.mdx",
        "01-guides/index.md",
        "GettingStarted.md",
        "reference/api.md",
        "reference/cli.md",
    ]


def test_an_mkdocs_project_root_given_as_the_folder_reads_its_docs_dir(index_dir: Path) -> None:
    corpus = synced(SITES / "mkdocs", index_dir)
    assert sorted(corpus.index.keys()) == [
        "docs/changelog.md",
        "docs/concepts/models.md",
        "docs/errors/usage_errors.md",
        "docs/index.md",
    ]
    assert doc(corpus, "docs/concepts/models.md").url == "https://docs.example.org/concepts/models/"
