"""Where a built page's own content is, and what inside it is page furniture: per-generator rules.

Every generator's theme writes the page's text inside one element (Sphinx `role="main"`, MkDocs
`<article>`, Quarto `main#quarto-document-content`, Antora `article.doc`) and surrounds it with
navigation, a table of contents, toolbars and footers. `ContentRules` names both for one
generator; the default rules hold for any built site: the landmarks docs themes write, then, for
a theme with none (many Hugo themes put the page in a plain `<div id="content">`), the block that
holds most of the page's words that are not links (navigation is made of links, a page of prose).
"""

from __future__ import annotations

from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from tools.sources.hidden.elements import is_hidden

# Never page text, wherever they are.
DROP_TAGS = "script, style, noscript, template, iframe, object, embed, button, input, select, textarea, svg, canvas, link, meta"
# Page furniture inside the main content (a `<header>` there is the article's own: kept).
DROP_INSIDE = "nav, aside, footer, [role=navigation], [role=search], [role=contentinfo], form"
# The landmarks docs themes write around a page's own content, most specific first.
LANDMARKS = ("article[role=main]", "[role=main]", "main")
# The names themes without landmarks give the content's box, tried after a lone `<article>`.
CONTENT_BOXES = (
    "#content",
    "#main-content",
    "#page-content",
    "#main",
    ".main-content",
    ".page-content",
    ".content",
)


@dataclass(frozen=True)
class ContentRules:
    """One generator's main-content rules for its built pages.

    `main`: selectors of the element that holds the page's content, tried before the landmarks
    (the first that matches exactly one element wins); `article_inside` below. `drop`: selectors of furniture inside it
    (toolbars, breadcrumbs, listings of other pages, title-block metadata). `labelled`: (block,
    title) selector pairs of boxes whose title reads as a label before their text (callouts,
    admonitions, titled code listings); the title element is taken out of the text.
    """

    main: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    labelled: tuple[tuple[str, str], ...] = ()
    # A landmark holding one `<article>` means the article (Sphinx themes, MkDocs); False: the
    # landmark itself, when the theme puts the page title outside the article (many Hugo themes).
    article_inside: bool = True


DEFAULT_RULES = ContentRules()

# Elements whose words are navigation, not page text, when the main content is guessed.
_NOT_PROSE = {"a", "nav", "aside", "footer", "header", "script", "style", "noscript", "button"}
_BLOCKISH = {"div", "section", "article", "main", "td"}
# A child holding this share of its parent's prose is where the content is (descend into it).
_MAIN_SHARE = 0.6


def main_content(tree: LexborHTMLParser, rules: ContentRules = DEFAULT_RULES) -> LexborNode | None:
    """The element holding the page's own content: the generator's rules, the landmarks, the prose."""
    for selector in rules.main:
        found = tree.css(selector)
        if len(found) == 1:
            return found[0]
    for selector in LANDMARKS:
        found = tree.css(selector)
        if len(found) == 1:
            articles = found[0].css("article") if rules.article_inside else []
            return articles[0] if len(articles) == 1 else found[0]
    articles = tree.css("article")
    if len(articles) == 1:
        return articles[0]
    for selector in CONTENT_BOXES:
        found = tree.css(selector)
        if len(found) == 1:
            return found[0]
    body = tree.body
    return densest_block(body) if body is not None else None


def densest_block(body: LexborNode) -> LexborNode:
    """The innermost block that holds most of the page's prose (words outside links and furniture).

    From the body down, the child that holds at least `_MAIN_SHARE` of its parent's prose is
    where the content is; where no child does, the content is spread over the children of the
    current element, which is the main content. A sidebar and a navbar are links; a footer is
    furniture: neither pulls the walk their way.
    """
    node = body
    while True:
        total = _prose(node)
        if total == 0:
            return node
        best, best_len = None, 0
        for child in _element_children(node):
            if child.tag not in _BLOCKISH:
                continue
            length = _prose(child)
            if length > best_len:
                best, best_len = child, length
        if best is None or best_len < _MAIN_SHARE * total:
            return node
        node = best


def _element_children(node: LexborNode) -> list[LexborNode]:
    out: list[LexborNode] = []
    child = node.child
    while child is not None:
        if child.tag and not child.tag.startswith("-"):
            out.append(child)
        child = child.next
    return out


def _prose(node: LexborNode) -> int:
    """Characters of text under `node` that are not inside links or page furniture."""
    total = 0
    for sub in node.iter(include_text=True):
        if sub.is_text_node:
            total += len(sub.text(deep=False).strip())
        elif sub.tag not in _NOT_PROSE and sub.tag and not sub.tag.startswith("-"):
            total += _prose(sub)
    return total


def drop_furniture(root: LexborNode, rules: ContentRules = DEFAULT_RULES) -> None:
    """Remove what is not page text inside the main content: scripts, navigation, hidden elements.

    Hidden is what tools/sources/hidden/ calls hidden (`hidden`, `aria-hidden`, an inline style
    that shows nothing: none, zero size or opacity, off-screen), judged by the same function.
    """
    for selector in (DROP_TAGS, DROP_INSIDE, ".linenos, .lineno, .linenodiv", *rules.drop):
        for node in root.css(selector):
            node.decompose()
    hidden = [
        node
        for node in root.traverse()
        if node.tag
        and not node.tag.startswith("-")
        and is_hidden(node.tag, node.attributes)
        # A tab panel not shown yet is content all the same (Docusaurus hides the others).
        and node.attributes.get("role") != "tabpanel"
        and node.css_first("[role=tabpanel]") is None
    ]
    for node in hidden:
        node.decompose()
