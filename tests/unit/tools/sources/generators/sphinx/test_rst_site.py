"""A Sphinx folder as a site: conf.py read without running it, pages, URLs, toctree."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.sphinx.config import SphinxConfig, read_conf
from tools.sources.generators.sphinx.project import SphinxSite, excluded
from tools.sources.generators.sphinx.rules import SphinxRules
from tools.sources.generators.sphinx.toctree import toctree_blocks

FIXTURE = Path(__file__).resolve().parents[5] / "fixtures" / "sphinx_site"


def test_conf_py_is_read_not_executed() -> None:
    # The fixture's conf.py imports a module that does not exist.
    config = read_conf(FIXTURE / "conf.py")
    assert config.html_baseurl == "https://docs.example.org/en/stable/"
    assert config.root_doc == "index"
    assert config.default_role == "literal"
    assert config.exclude_patterns == ("_build", "old_*", "*/attic*")
    assert config.crossref_types == {"fixture", "hook"}
    assert config.object_types == {"globalvar"}
    assert config.substitutions == {"release": "9.2"}


def test_a_broken_conf_py_gives_sphinx_defaults(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("html_baseurl = (\n")
    assert read_conf(tmp_path / "conf.py") == SphinxConfig()
    (tmp_path / "conf.py").write_text("master_doc = 'contents'\nhtml_baseurl = BASE + '/'\n")
    config = read_conf(tmp_path / "conf.py")
    assert config.root_doc == "contents" and config.html_baseurl == ""


def test_pages_urls_and_navigation() -> None:
    site = SphinxSite(FIXTURE)
    files = site.source_files()
    assert files == ["_include/snippet.rst", "how-to/skipping.rst", "index.rst", "reference.rst"]
    parsed = {rel: site.parse(rel) for rel in files}
    # The fragment pulled in by `.. include::` is not a page; the orphan root page is.
    assert site.pages(parsed) == ["how-to/skipping.rst", "index.rst", "reference.rst"]
    assert site.url_for("how-to/skipping.rst") == (
        "https://docs.example.org/en/stable/how-to/skipping.html"
    )
    assert site.url_for("index.rst") == "https://docs.example.org/en/stable/index.html"
    nav = site.navigation(parsed)
    assert nav.reachable == ["index", "how-to/skipping", "reference"]
    assert nav.parent_of("reference") == "index"
    assert nav.parent_of("index") is None
    assert site.quick_navigation() == nav


def test_toctree_blocks_follow_indentation() -> None:
    text = "Intro\n\n.. toctree::\n   :hidden:\n\n   a\n   b\n\nAfter.\n\n.. only:: html\n\n   .. toctree::\n\n      c\n"
    assert toctree_blocks(text) == [
        ".. toctree::\n   :hidden:\n\n   a\n   b\n",
        ".. toctree::\n\n   c",
    ]


def test_sphinx_exclude_globs() -> None:
    assert excluded("_build/html/x.rst", ["_build"])
    assert excluded("old_notes.rst", ["old_*"])
    assert not excluded("how-to/old_notes.rst", ["old_*"])  # `*` stays in one folder
    assert excluded("how-to/old_notes.rst", ["**/old_*"])
    assert excluded("example/attic.rst", ["*/attic*"])
    assert not excluded("example/attic.rst", ["*attic*"])
    assert excluded("a/b/c.rst", ["a/**"])


def test_page_by_page_reader_matches_the_site() -> None:
    from tools.sources.generators.sphinx.project import read_sphinx_page

    text = (FIXTURE / "reference.rst").read_text()
    site = SphinxSite(FIXTURE)
    assert read_sphinx_page("reference.rst", text, FIXTURE, site.xrefs) == site.parse(
        "reference.rst"
    )


def test_prolog_epilog_and_markdown_suffixes(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(
        "source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}\n"
        "rst_epilog = '.. |project| replace:: Example'\n"
        "rst_prolog = '.. _`shared link`: https://example.org'\n"
        "add_function_parentheses = False\n"
    )
    (tmp_path / "page.rst").write_text(
        ":orphan:\n\nTitle\n=====\n\nAbout |project|, :func:`run`.\n"
    )
    (tmp_path / "notes.md").write_text("# Notes\n")
    site = SphinxSite(tmp_path)
    assert site.source_files() == ["notes.md", "page.rst"]
    assert [site.is_rst(f) for f in site.source_files()] == [False, True]
    assert site.url_for("notes.md") == "notes.html"
    page = site.parse("page.rst")
    assert page.meta["orphan"] is True
    assert page.sections[0].text == "About Example, `run`."


def _rtd_repo(tmp_path: Path, rtd: str) -> Path:
    """A repository with a `.readthedocs.yaml`, a docs folder and two pages that link."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".readthedocs.yaml").write_text(rtd)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text("html_baseurl = 'https://x.test/'\n")
    (docs / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide/options\n")
    (docs / "guide").mkdir()
    (docs / "guide" / "options.rst").write_text(
        ".. _opts:\n\nOptions\n=======\n\nSee :doc:`/index` and :ref:`opts`.\n"
    )
    return docs


def test_read_the_docs_dirhtml_builder_gives_directory_urls_and_links(tmp_path: Path) -> None:
    from tools.sources.generators.sphinx.project import read_sphinx_page
    from tools.sources.registry import SiteOptions, detect_site

    for n, rtd in enumerate(
        (
            "version: 2\nsphinx:\n  builder: dirhtml\n  configuration: docs/conf.py\n",
            "version: 2\nbuild:\n  jobs:\n    build:\n      html:\n"
            "        - uv run sphinx-build -W -b dirhtml docs $READTHEDOCS_OUTPUT/html\n",
            "version: 2\nbuild:\n  commands:\n    - python -m sphinx -M dirhtml docs out\n",
        )
    ):
        (tmp_path / str(n)).mkdir()
        docs = _rtd_repo(tmp_path / str(n), rtd)
        site = detect_site(docs)
        assert site.url_style == "directory"
        assert site.url_for("index.rst") == "https://x.test/"
        assert site.url_for("guide/options.rst") == "https://x.test/guide/options/"
        text = (docs / "guide/options.rst").read_text()
        assert isinstance(site.rules, SphinxRules)
        page = read_sphinx_page("guide/options.rst", text, docs, site.rules.xrefs)
        assert "[Home](../../)" in page.sections[0].text
        assert "[Options](#opts)" in page.sections[0].text
        # The URL style setting still wins, and the links follow it.
        html = detect_site(docs, SiteOptions(url_style="html"))
        assert html.url_for("guide/options.rst") == "https://x.test/guide/options.html"
        assert isinstance(html.rules, SphinxRules)
        page = read_sphinx_page("guide/options.rst", text, docs, html.rules.xrefs)
        assert "[Home](../index.html)" in page.sections[0].text


def test_read_the_docs_default_builder_is_html_and_its_conf_py_is_found(tmp_path: Path) -> None:
    from tools.sources.registry import detect_site

    docs = _rtd_repo(tmp_path, "version: 2\nsphinx:\n  configuration: docs/html/conf.py\n")
    (docs / "html").mkdir()
    (docs / "conf.py").rename(docs / "html" / "conf.py")
    (docs / "index.rst").rename(docs / "html" / "index.rst")
    (docs / "html" / "index.rst").write_text("Home\n====\n")
    site = detect_site(docs)
    assert site.generator == "sphinx" and site.url_style == "html"
    assert site.page_dir == "html/"
    assert site.url_for("html/index.rst") == "https://x.test/index.html"
    assert site.is_page("html/index.rst") and not site.is_page("guide/options.rst")


def test_conf_py_extensions_added_later_or_in_blocks_count(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(
        "extensions = ['sphinx.ext.autodoc']\n"
        "extensions += ['sphinx.ext.intersphinx']\n"
        "extensions.append('sphinx_copybutton')\n"
        "if 'man' not in tags:\n"
        "    extensions.extend(('myst_parser', 'sphinx_inline_tabs'))\n"
        "else:\n"
        "    exclude_patterns = ['man_only']\n"
        "try:\n"
        "    import furo\n"
        "except ImportError:\n"
        "    extensions.append('nbsphinx')\n"
    )
    config = read_conf(tmp_path / "conf.py")
    assert config.extensions == (
        "sphinx.ext.autodoc",
        "sphinx.ext.intersphinx",
        "sphinx_copybutton",
        "myst_parser",
        "sphinx_inline_tabs",
        "nbsphinx",
    )
    assert config.reads_myst and ".md" in config.source_suffixes
    assert config.exclude_patterns == ("man_only",)


def test_currentmodule_carries_into_and_out_of_an_included_part(tmp_path: Path) -> None:
    # As sphinx-build gives them: the include is read into the page's one ref_context.
    (tmp_path / "conf.py").write_text("")
    (tmp_path / "part.inc").write_text(
        ".. function:: inpart()\n\n   In part.\n\n.. currentmodule:: pkg.changed\n"
    )
    (tmp_path / "index.rst").write_text(
        "Home\n====\n\n.. currentmodule:: pkg.inc\n\n.. include:: part.inc\n\n"
        ".. function:: after()\n\n   After.\n"
    )
    page = SphinxSite(tmp_path).parse("index.rst")
    assert [s.anchor for s in page.sections] == ["home", "pkg.inc.inpart", "pkg.changed.after"]


QUICKSTART_MAKEFILE = """SPHINXOPTS    ?= {opts}
SPHINXBUILD   ?= sphinx-build
SOURCEDIR     = .
BUILDDIR      = _build

help:
\t@$(SPHINXBUILD) -M help "$(SOURCEDIR)" "$(BUILDDIR)" $(SPHINXOPTS) $(O)

.PHONY: help Makefile

%: Makefile
\t@$(SPHINXBUILD) -M $@ "$(SOURCEDIR)" "$(BUILDDIR)" $(SPHINXOPTS) $(O)
"""


def _docs_repo(root: Path, files: dict[str, str]) -> Path:
    """A repository (no Read the Docs file unless given) with a docs folder and these files."""
    root.mkdir()
    (root / ".git").mkdir()
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text("html_baseurl = 'https://x.test/'\n")
    (docs / "index.rst").write_text("Home\n====\n")
    for rel, text in files.items():
        (root / rel).write_text(text)
    return docs


def test_the_builder_comes_from_the_build_files_read_the_docs_first(tmp_path: Path) -> None:
    from tools.sources.generators.sphinx.build import rtd_builder

    cases: list[tuple[dict[str, str], str]] = [
        # Read the Docs build commands: `sphinx.cmd.build`, `-bdirhtml`, `cd … && make dirhtml`.
        (
            {
                ".readthedocs.yaml": "version: 2\nbuild:\n  commands:\n"
                "    - python -m sphinx.cmd.build -T -bdirhtml docs $READTHEDOCS_OUTPUT/html\n"
            },
            "dirhtml",
        ),
        (
            {
                ".readthedocs.yaml": "version: 2\nbuild:\n  commands:\n"
                "    - cd docs && make dirhtml BUILDDIR=$READTHEDOCS_OUTPUT\n",
                "docs/Makefile": QUICKSTART_MAKEFILE.format(opts=""),
            },
            "dirhtml",
        ),
        # A linkcheck run builds no pages; the later `-b` wins, as sphinx-build reads it.
        (
            {
                ".readthedocs.yaml": "version: 2\nbuild:\n  commands:\n"
                "    - sphinx-build -b linkcheck docs out\n"
                "    - sphinx-build -M html docs out -b dirhtml\n"
            },
            "dirhtml",
        ),
        # No Read the Docs file: a tox docs env, tox.toml, the Makefile's SPHINXOPTS.
        (
            {
                "tox.ini": "[tox]\nenvlist = py\n\n[testenv:linkcheck]\ncommands = "
                "sphinx-build -b linkcheck docs out\n\n[testenv:docs]\nchangedir = docs\n"
                "commands =\n    sphinx-build -W -b dirhtml . {envtmpdir}/html {posargs}\n"
            },
            "dirhtml",
        ),
        (
            {
                "tox.toml": '[env.docs]\ncommands = [["sphinx-build", "-M", "dirhtml", "docs", "b"]]\n'
            },
            "dirhtml",
        ),
        ({"docs/Makefile": QUICKSTART_MAKEFILE.format(opts="-W -b dirhtml")}, "dirhtml"),
        ({"docs/Makefile": QUICKSTART_MAKEFILE.format(opts="-W")}, "html"),
        ({"tox.ini": "[testenv:docs]\ncommands = sphinx-build -b dirhtml other out\n"}, "html"),
        # Read the Docs is the deploy: it wins over every other hint.
        (
            {
                ".readthedocs.yaml": "version: 2\nsphinx:\n  configuration: docs/conf.py\n",
                "tox.ini": "[testenv:docs]\ncommands = sphinx-build -b dirhtml docs out\n",
                "docs/Makefile": QUICKSTART_MAKEFILE.format(opts="-b dirhtml"),
            },
            "html",
        ),
    ]
    for n, (files, builder) in enumerate(cases):
        docs = _docs_repo(tmp_path / str(n), files)
        assert rtd_builder(docs.resolve(), docs / "conf.py") == builder, (n, files)
