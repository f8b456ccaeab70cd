"""The built-HTML reader: main content only, headings with the ids the page serves, code blocks
with their language, the canonical URL; navigation, sidebars, footers and hidden text dropped."""

from __future__ import annotations

import re
from pathlib import Path

from tools.sources.html.page import HtmlSite, parse_html
from tools.sources.registry import detect_site

FIXTURE = Path(__file__).resolve().parents[5] / "fixtures" / "html_site"
BASE = "https://docs.example.org/en/stable/"


def test_a_sphinx_page() -> None:
    page = HtmlSite(FIXTURE, BASE).parse("how-to/fixtures.html")
    assert page.meta["canonical"] == "https://docs.example.org/en/stable/how-to/fixtures.html"
    assert page.meta["url"] == page.meta["canonical"]
    assert page.title == "How to use fixtures"
    assert page.description == "How to use fixtures in tests."
    records = [(s.heading, s.level, s.anchor, s.ids) for s in page.sections]
    assert records == [
        ("How to use fixtures", 1, "how-to-use-fixtures", ("fixtures", "how-to-fixtures")),
        ("“Requesting” fixtures", 2, "requesting-fixtures", ()),
        ("Fixture scopes", 2, "fixture-scopes", ("id1",)),
        ("pytest.fixture(scope)", 3, "pytest.fixture", ()),
    ]
    top, requesting, scopes, fixture = (s.text for s in page.sections)
    assert top == "**See also:** About fixtures"
    assert requesting == (
        "At a basic level, test functions request fixtures by declaring them as `arguments`, "
        "see [dependency injection](https://example.org/di).\n\n"
        "```python\nimport pytest\n\n\n@pytest.fixture\ndef fruit_bowl():\n    return []\n```\n\n"
        "**Note:** Fixtures can request other fixtures.\n\n"
        '- one item with **bold**\n\n- two\n\n  ```toml\n  [tool.pytest]\n  addopts = "-ra"\n  ```'
    )
    assert scopes == (
        "| scope | lifetime |\n|---|---|\n| `function` | one test \\| the default |\n"
        "| `session` | the run |"
    )
    assert fixture == "Decorator to mark a fixture factory function."
    body = page.body
    for furniture in (
        "Example docs",
        "Home",
        "Copyright",
        "Invisible",
        "DOCUMENTATION_OPTIONS",
        "¶",
    ):
        assert furniture not in body, furniture


def test_an_mkdocs_page() -> None:
    page = HtmlSite(FIXTURE, BASE).parse("index.html")
    assert "canonical" not in page.meta
    assert page.meta["url"] == "https://docs.example.org/en/stable/index.html"
    assert [(s.heading, s.anchor) for s in page.sections] == [
        ("Welcome", "welcome"),
        ("Check it", "check-it"),
    ]
    welcome, check = (s.text for s in page.sections)
    assert (
        welcome
        == "Install it:\n\n```bash\npip install example\n```\n\n**Tip:** Use a virtual environment."
    )
    assert check == '**Warning:** Be careful.\n\n```python\nprint("hi")\n```'
    assert "Navigation links" not in page.body and "Made with MkDocs" not in page.body


def test_site_files_skip_assets_and_source_listings() -> None:
    """Assets, Sphinx's `_modules` source listings and search pages of a built site are no pages."""
    site = detect_site(FIXTURE)
    assert site.generator == "html"
    files = sorted(p.relative_to(FIXTURE).as_posix() for p in FIXTURE.rglob("*.html"))
    assert "_modules/example.html" in files and "_static/ignored.html" in files
    assert [f for f in files if site.is_page(f)] == ["how-to/fixtures.html", "index.html"]
    assert HtmlSite(FIXTURE).url_for("index.html") == "index.html"


def test_docusaurus_and_prism_code_lines() -> None:
    html = """<html><body><nav>menu</nav><main><article>
    <header><h1>Getting started</h1></header>
    <div class="theme-doc-markdown markdown">
    <h2 class="anchor" id="install">Install<a href="#install" class="hash-link">​</a></h2>
    <div class="language-js codeBlockContainer"><pre class="prism-code language-js"><code>
    <span class="token-line">const a = 1;</span><span class="token-line">console.log(a);</span></code></pre></div>
    </div><footer>Edit this page</footer></article></main></body></html>"""
    page = parse_html("getting-started.html", html)
    assert [(s.heading, s.level, s.anchor) for s in page.sections] == [
        ("Getting started", 1, ""),
        ("Install", 2, "install"),
    ]
    assert page.sections[1].text == "```js\nconst a = 1;\nconsole.log(a);\n```"
    assert "Edit this page" not in page.body and "menu" not in page.body


def test_malformed_html_never_raises() -> None:
    for html in ("", "<", "<html><body><h1>x", "\x00\udcff<p>t</p>", "<div>" * 5000):
        page = parse_html("bad.html", html)
        assert page.title
    page = parse_html("t.html", "<title>Only a title</title><p>Loose <b>text</b>.</p>")
    assert page.title == "Only a title"
    assert re.sub(r"\s+", " ", page.sections[0].text) == "Loose **text**."


def test_page_by_page_reader() -> None:
    from tools.sources.html.page import read_html_page

    text = (FIXTURE / "index.html").read_text()
    page = read_html_page("index.html", text, FIXTURE, BASE)
    assert page == HtmlSite(FIXTURE, BASE).parse("index.html")
    assert page.meta["url"] == BASE + "index.html"


def test_tabs_keep_every_panel_and_their_names() -> None:
    html = """<main><h1 id="install">Install</h1>
    <div class="tabs-container"><ul role="tablist"><li role="tab">pip</li><li role="tab">uv</li></ul>
    <div role="tabpanel"><pre><code class="language-bash">pip install x</code></pre></div>
    <div role="tabpanel" hidden><pre><code class="language-bash">uv add x</code></pre></div></div>
    <div class="tabbed-set"><input type="radio" id="t1"><label for="t1">Linux</label>
    <div class="tabbed-content"><p>apt</p></div></div></main>"""
    text = parse_html("t.html", html).sections[0].text
    assert "```bash\npip install x\n```" in text and "```bash\nuv add x\n```" in text
    assert "- pip\n- uv" in text
    assert "**Linux**\n\napt" in text


def test_an_empty_anchor_opens_the_section_it_sits_in() -> None:
    html = """<main><section id="a"><h2>A</h2><span id="index-0"></span><p>Text.</p></section>
    <section id="b"><span id="label-b"></span><h2>B</h2><p>More.</p></section></main>"""
    page = parse_html("a.html", html)
    assert [(s.anchor, s.ids) for s in page.sections] == [("a", ("index-0",)), ("b", ("label-b",))]


def test_a_code_table_with_line_numbers_is_a_code_block() -> None:
    html = """<main><h1 id="x">X</h1><div class="language-python highlight"><table class="highlighttable">
    <tr><td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>
<span class="normal">2</span></pre></div></td><td class="code"><div><pre><span></span><code>a = 1
b = 2
</code></pre></div></td></tr></table></div></main>"""
    assert parse_html("x.html", html).sections[0].text == "```python\na = 1\nb = 2\n```"
