"""Golden records on excerpts of real sites whose features the tuned corpora lack (tests/fixtures/foreign).

Each case follows the generator's (or the listed extension's) documented behaviour: include
extensions of MkDocs, literate-nav folders, mkdocstrings headings, a Docusaurus site folder beside
its docs, inline HTML, and Sphinx's default highlighting of `::` blocks.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.unit.tools.sources.folder_corpus import doc, synced
from tests.unit.tools.sources.markup import leftovers
from tools.search import Document
from tools.sources.generators.mkdocs.rules import MkDocsRules
from tools.sources.markdown.parse import parse_markdown
from tools.sources.registry import detect_site

FOREIGN = Path(__file__).resolve().parents[3] / "fixtures" / "foreign"


def section_text(page: Document, anchor: str) -> str:
    return next(s.text for s in page.sections if s.anchor == anchor)


def test_mkdocs_include_extensions_bring_the_example_code_as_code_blocks(index_dir: Path) -> None:
    corpus = synced(FOREIGN / "mkdocs-includes" / "docs", index_dir)
    page = doc(corpus, "tutorial/sql-databases.md")
    assert page.url == "https://fastapi.tiangolo.com/tutorial/sql-databases/"
    models = section_text(page, "create-models")
    # `{* file ln[1:11] hl[7:11] *}`: lines 1-11 of the example, a Python code block.
    assert "```python\nfrom typing import Annotated\n" in models
    assert "    secret_name: str\n```" in models
    assert "sqlite_file_name" not in models and "{*" not in models
    engine = section_text(page, "create-an-engine")
    assert '```python\nsqlite_file_name = "database.db"' in engine
    assert "engine = create_engine(sqlite_url, connect_args=connect_args)\n```" in engine
    # `{!> file !}` inside a fence (mdx_include): the whole file in that fence.
    assert "```Python\nfrom typing import Annotated" in engine
    assert "def create_db_and_tables():" in engine and "{!" not in engine
    block = next(s for s in page.sections if s.anchor == "create-models").code_blocks[0]
    assert block.language == "python"
    # Inline HTML as the site shows it: the term's text kept, the tags and the image gone.
    assert "Using `check_same_thread=False` allows" in engine
    assert "<dfn" not in engine and "<img" not in engine
    assert leftovers(engine) == []


def test_mkdocs_includes_read_from_the_checkout_but_never_outside_it(tmp_path: Path) -> None:
    # The layout of a checkout: mkdocs.yml in docs/en, the examples at the repository's top.
    repo = tmp_path / "repo"
    project = repo / "docs" / "en"
    shutil.copytree(FOREIGN / "mkdocs-includes" / "docs", project / "docs")
    shutil.copy(FOREIGN / "mkdocs-includes" / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(FOREIGN / "mkdocs-includes" / "docs_src", repo / "docs_src")
    (repo / ".git").mkdir()
    (tmp_path / "secret.py").write_text("TOKEN = 'never indexed'\n")
    page_file = project / "docs" / "tutorial" / "sql-databases.md"
    page_file.write_text(
        page_file.read_text() + "\n## Outside { #outside }\n\n{* ../../../secret.py *}\n"
    )
    corpus = synced(project / "docs", tmp_path / "index")
    assert isinstance(corpus.site.rules, MkDocsRules)
    assert corpus.site.rules.files_root == str(repo.resolve())
    page = doc(corpus, "tutorial/sql-databases.md")
    assert "class Hero(SQLModel, table=True):" in section_text(page, "create-models")
    assert "never indexed" not in section_text(page, "outside")


def test_mkdocs_literate_nav_folders_are_their_nav_files_pages(index_dir: Path) -> None:
    corpus = synced(FOREIGN / "mkdocs-literate-nav" / "docs", index_dir)
    # `user-guide/` in the nav: its README.md (the implicit index) and the pages it lists;
    # `dev-guide/` has no nav file: all its pages. Pages in no nav stay out.
    assert corpus.site.nav == (
        "index.md",
        "user-guide/README.md",
        "user-guide/installation.md",
        "user-guide/cli.md",
        "dev-guide/plugins.md",
        "about/license.md",
    )
    assert sorted(corpus.index.keys()) == sorted(corpus.site.nav)
    assert doc(corpus, "user-guide/README.md").url == "https://www.mkdocs.org/user-guide/"
    assert doc(corpus, "user-guide/cli.md").title == "Command Line Interface"


def test_mkdocstrings_heading_is_the_objects_heading_with_its_id(index_dir: Path) -> None:
    corpus = synced(FOREIGN / "mkdocs-literate-nav" / "docs", index_dir)
    page = doc(corpus, "dev-guide/plugins.md")
    heads = [(s.heading, s.anchor) for s in page.sections if s.level == 4]
    assert heads == [
        ("`mkdocs.exceptions.MkDocsException`", "mkdocs.exceptions.MkDocsException"),
        ("`mkdocs.exceptions.ConfigurationError`", "mkdocs.exceptions.ConfigurationError"),
    ]
    index = doc(corpus, "index.md")
    text = "\n".join(s.text for s in index.sections)
    assert "[Getting Started](getting-started/)" in text and "<a " not in text


def test_markdown_mapping_style_extensions_are_read() -> None:
    site = detect_site(FOREIGN / "mkdocs-includes" / "docs")
    assert site.generator == "mkdocs"
    assert isinstance(site.rules, MkDocsRules)
    assert site.rules.includes == ("mdx_include", "include_variants")
    assert site.rules.include_base == str((FOREIGN / "mkdocs-includes").resolve())


def test_docusaurus_site_folder_beside_the_docs_gives_urls_nav_and_partials(
    index_dir: Path,
) -> None:
    corpus = synced(FOREIGN / "docusaurus-beside" / "docs", index_dir)
    assert corpus.site.generator == "docusaurus"
    # The sidebar's docs; the `_` partial is no page.
    assert sorted(corpus.index.keys()) == [
        "api/applyMiddleware.md",
        "faq/OrganizingState.md",
        "tutorials/part-1-overview.md",
    ]
    # `routeBasePath: '/'`: the docs are the site's root; front-matter ids decide the path.
    assert doc(corpus, "faq/OrganizingState.md").url == "https://redux.js.org/faq/organizing-state"
    assert doc(corpus, "api/applyMiddleware.md").url == "https://redux.js.org/api/applymiddleware"
    tutorial = doc(corpus, "tutorials/part-1-overview.md")
    assert tutorial.url == "https://redux.js.org/tutorials/fundamentals-overview"
    text = "\n".join(s.text for s in tutorial.sections)
    assert "older-style Redux logic patterns" in text  # the imported partial, inlined
    faq = doc(corpus, "faq/OrganizingState.md")
    anchors = [s.anchor for s in faq.sections if s.level]
    assert anchors == [
        "redux-faq-organizing-state",
        "do-i-have-to-put-all-my-state-into-redux-should-i-ever-use-reacts-usestate-or-usereducer",
    ]
    everything = "\n".join(s.text for d in (faq, tutorial) for s in d.sections)
    assert "<br" not in everything and leftovers(everything) == []


def test_inline_html_in_prose_reads_as_text_but_code_keeps_it() -> None:
    page = parse_markdown(
        "x.md",
        "# T\n\nA <abbr title='Object Relational Mapper'>ORM</abbr> and <kbd>Ctrl</kbd>, "
        "<strong>bold</strong>, `<div>` in code, pip install <package>.\n\n"
        "<iframe src='https://example.com/v'></iframe>\n\n```html\n<div>kept</div>\n```\n",
    )
    text = page.sections[0].text
    assert "A ORM and `Ctrl`, **bold**, `<div>` in code, pip install <package>." in text
    assert "iframe" not in text and "```html\n<div>kept</div>\n```" in text


def test_a_self_closing_embed_written_as_jsx_is_dropped_whole() -> None:
    page = parse_markdown(
        "ui.mdx",
        '# UI\n\nAdapt it to your needs.\n\n<iframe\n  className="w-full aspect-video"\n'
        '  src="https://www.youtube.com/embed/x"\n  title="Agent Chat UI"\n  allowFullScreen\n/>'
        "\n\nYou can use generative UI.\n",
    )
    text = page.sections[0].text
    assert text == "Adapt it to your needs.\n\nYou can use generative UI."


def test_sphinx_default_highlighting_labels_python_blocks_and_leaves_shell_as_text(
    index_dir: Path,
) -> None:
    corpus = synced(FOREIGN / "sphinx-default-highlight", index_dir)
    page = doc(corpus, "quickstart.rst")
    routing = next(s for s in page.sections if s.anchor == "routing")
    languages = [b.language for b in routing.code_blocks]
    assert languages == ["python", ""]
    assert "```python\n@app.route('/')" in routing.text


def test_literate_nav_without_a_nav_in_mkdocs_yml_reads_the_root_nav_file(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: X\nplugins:\n  - literate-nav\n")
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "SUMMARY.md").write_text("* [Home](index.md)\n* [Guide](guide/)\n")
    (docs / "index.md").write_text("# Home\n")
    (docs / "draft.md").write_text("# Draft\n")
    (docs / "guide" / "SUMMARY.md").write_text("- [Setup](setup.md)\n")
    (docs / "guide" / "setup.md").write_text("# Setup\n")
    (docs / "guide" / "extra.md").write_text("# Extra\n")
    site = detect_site(docs)
    assert site.nav == ("index.md", "guide/setup.md")
    assert site.titles == (("index.md", "Home"), ("guide/setup.md", "Setup"))
