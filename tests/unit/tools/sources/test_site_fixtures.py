"""Golden records of each site profile and reader on a small docs folder (tests/fixtures/sites)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.tools.sources.markup import leftovers
from tools.search import Document
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.profiles import SiteOptions, detect_site
from tools.sources.release_notes import RELEASE_NOTES

SITES = Path(__file__).resolve().parents[3] / "fixtures" / "sites"


def synced(root: Path, index_dir: Path, rule: UrlRule | None = None) -> FolderCorpus:
    corpus = FolderCorpus(root, "docs", index_dir, rule or UrlRule())
    corpus.sync(workers=1)
    return corpus


def doc(corpus: FolderCorpus, key: str) -> Document:
    found = corpus.get(key)
    assert found is not None, key
    return found


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
        ("Validation", "validation_1", ()),  # Python-Markdown's repeat suffix
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
        "01-guides/index.md": "https://example.dev/docs/guides",
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
    (tmp_path / "conf.py").write_text("project = 'x'\n")
    (tmp_path / "index.rst").write_text("Title\n=====\n\nText.\n")
    (tmp_path / "guide.adoc").write_text("= Guide\n")
    corpus = FolderCorpus(tmp_path, "docs", index_dir, UrlRule())
    corpus.site = corpus.pages.site = detect_site(tmp_path, SiteOptions(generator="markdown"))
    corpus.sync(workers=1)
    problems = corpus.report().problems
    assert len(problems) == 1 and "yields 0 pages" in problems[0]
    assert str(tmp_path) in problems[0] and "1 .adoc" in problems[0] and "1 .rst" in problems[0]


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
