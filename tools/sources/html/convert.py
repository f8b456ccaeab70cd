"""A built page's main content as sections of Markdown: text runs up to the next heading.

Each `h1`–`h6` (and each `dt` with an id: an object or glossary entry) starts a section whose ids
are the heading's own, its `<section id>` and the empty anchors just before it. Code blocks keep
their language; admonitions, `<details>`, the generator's labelled boxes (`ContentRules.labelled`:
callouts, titled listings) and ARIA tab panels read as their label, then their text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

from tools.sources.html.content import DEFAULT_RULES, ContentRules
from tools.sources.records import Section
from tools.text import fence_code

__all__ = ["HEADINGS", "SPACE", "convert", "drop_permalinks"]

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_HEADINGS = HEADINGS
# Permalink markers next to headings: a link to a fragment whose text is one symbol.
_PERMALINK_TEXT = {"¶", "#", "§", "🔗", "link", ""}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\ufe0e\ufe0f"))
_LANGUAGE_CLASS = re.compile(r"^(?:language|lang|highlight|sourceCode)-([\w+#.-]+)$")
_NO_LANGUAGE = {"default", "none", "text", "plain", "plaintext", "nohighlight", "notranslate"}
SPACE = re.compile(r"[ \t\r\n\f\u00a0]+")
_SPACE = SPACE
_BLOCK_TAGS = {
    "p", "div", "section", "article", "main", "header", "ul", "ol", "li", "dl", "dt", "dd",
    "pre", "table", "blockquote", "figure", "figcaption", "details", "summary", "hr", "form",
    "fieldset", "address", "center", "label", *_HEADINGS,
}  # fmt: skip


def _classes(node: LexborNode) -> list[str]:
    return (node.attributes.get("class") or "").split()


def _language(pre: LexborNode) -> str:
    """`language-x` / `highlight-x` on the block, its `<code>` or a wrapper (Sphinx, MkDocs, Prism)."""
    candidates = [pre]
    code = pre.css_first("code")
    if code is not None:
        candidates.insert(0, code)
    parent = pre.parent
    for _ in range(6):  # wrappers up to the code block's own box (a line-number table's)
        if parent is None or parent.tag in {"section", "article", "main", "body"}:
            break
        candidates.append(parent)
        parent = parent.parent
    for node in candidates:
        classes = _classes(node)
        for cls in classes:
            m = _LANGUAGE_CLASS.match(cls)
            if m:
                lang = m.group(1).lower()
                return "" if lang in _NO_LANGUAGE else lang
        if "sourceCode" in classes[:1] and len(classes) > 1:  # pandoc: `class="sourceCode python"`
            lang = classes[1].lower()
            return "" if lang in _NO_LANGUAGE or not lang.isidentifier() else lang
        lang = (
            node.attributes.get("data-lang") or node.attributes.get("data-language") or ""
        ).lower()
        if lang:
            return "" if lang in _NO_LANGUAGE else lang
    return ""


def _is_permalink(node: LexborNode) -> bool:
    if node.tag != "a":
        return False
    href = node.attributes.get("href") or ""
    if not href.startswith("#"):
        return False
    text = node.text(deep=True).translate(_INVISIBLE).strip()
    return "headerlink" in _classes(node) or text in _PERMALINK_TEXT


def drop_permalinks(root: LexborNode) -> None:
    """Remove the `¶` / `#` / `🔗` links themes put beside headings (no text of the page)."""
    for node in root.css("a[href^='#']"):
        if _is_permalink(node):
            node.decompose()


def convert(root: LexborNode, rules: ContentRules = DEFAULT_RULES) -> list[Section]:
    """The sections of a cleaned main-content element (`content.drop_furniture` done first)."""
    return _Converter(root, rules).run(root)


@dataclass
class _Block:
    """Text blocks collected for the section being built."""

    heading: str
    level: int
    ids: list[str]


class _Converter:
    """Main-content DOM → sections of Markdown (text runs up to the next heading)."""

    def __init__(self, root: LexborNode, rules: ContentRules) -> None:
        self.sections: list[Section] = []
        self.current = _Block("", 0, [])
        self.blocks: list[str] = []
        self.pending_ids: list[str] = []
        # Boxes read as "label: text", by node: the generator's labelled boxes and tab panels.
        self.labels: dict[int, str] = {}
        for block_selector, title_selector in rules.labelled:
            for box in root.css(block_selector):
                title = box.css_first(title_selector)
                if title is not None and box.mem_id not in self.labels:
                    self.labels[box.mem_id] = _label_text(title)
                    title.decompose()
        self.labels.update(_tab_labels(root))

    def run(self, root: LexborNode) -> list[Section]:
        self.walk(root)
        self.flush()
        return self.sections

    def flush(self) -> None:
        text = "\n\n".join(b.strip("\n") for b in self.blocks if b.strip()).strip()
        ids = list(dict.fromkeys(i for i in self.current.ids if i))
        if self.current.level > 0 or text:
            anchor = ids[0] if ids else ""
            section = Section(
                self.current.heading, self.current.level, text, anchor, tuple(ids[1:])
            )
            self.sections.append(section)
        self.blocks = []

    def start(self, heading: str, level: int, ids: list[str]) -> None:
        self.flush()
        self.current = _Block(heading, level, [*ids, *self.pending_ids])
        self.pending_ids = []

    def heading_ids(self, node: LexborNode) -> list[str]:
        """The heading's id, then the id of the section it opens (`<section id>`, `div.section`: Sphinx, pandoc)."""
        ids = [node.attributes.get("id") or ""]
        parent = node.parent
        if (
            parent is not None
            and (parent.tag == "section" or "section" in _classes(parent))
            and parent.attributes.get("id")
        ):
            first = next((c for c in parent.iter() if c.tag in _HEADINGS), None)
            if first is not None and first.mem_id == node.mem_id:
                ids.insert(0, parent.attributes["id"] or "")
        return [i for i in ids if i]

    def walk(self, node: LexborNode) -> None:
        """Blocks of `node`'s children into the current section, headings starting new ones."""
        inline: list[str] = []

        def end_inline() -> None:
            text = _SPACE.sub(" ", "".join(inline)).strip()
            if text:
                self.settle_anchors()
                self.blocks.append(text)
            inline.clear()

        for child in node.iter(include_text=True):
            tag = child.tag
            if child.is_text_node:
                inline.append(child.text(deep=False))
                continue
            if tag is None or tag.startswith("-"):
                continue
            if tag in _HEADINGS:
                end_inline()
                heading = self.heading(child)
                self.start(heading, _HEADINGS[tag], self.heading_ids(child))
                continue
            if tag == "dt" and child.attributes.get("id"):
                end_inline()
                heading = self.heading(child)
                self.start(heading, min(self.current.level + 1, 6), [child.attributes["id"] or ""])
                continue
            if tag not in _BLOCK_TAGS:
                if self._is_empty_anchor(child):
                    self.pending_ids.append(child.attributes.get("id") or "")
                    continue
                self.collect_ids(child)
                inline.append(self.inline(child))
                continue
            end_inline()
            if child.attributes.get("id") and tag not in {"section", "div", "article", "main"}:
                self.current.ids.append(child.attributes.get("id") or "")
            if tag in {
                "section",
                "div",
                "article",
                "main",
                "header",
                "center",
                "fieldset",
                "dd",
            } or (tag == "dl" and child.css_first("dt[id]") is not None):
                if child.mem_id in self.labels:
                    self.settle_anchors()
                    self.blocks.extend(self.labelled_box(self.labels[child.mem_id], child))
                elif self._is_admonition(child):
                    self.settle_anchors()
                    self.blocks.extend(self.admonition(child))
                else:
                    self.walk(child)
            elif tag == "details":
                self.settle_anchors()
                self.blocks.extend(self.details(child))
            else:
                self.settle_anchors()
                self.collect_ids(child)
                self.blocks.extend(self.block(child))
        end_inline()

    def settle_anchors(self) -> None:
        """Empty anchors followed by text belong to the section they sit in, not the next one."""
        self.current.ids.extend(self.pending_ids)
        self.pending_ids = []

    @staticmethod
    def _is_empty_anchor(node: LexborNode) -> bool:
        return (
            node.tag in {"span", "a"}
            and bool(node.attributes.get("id"))
            and not node.text(deep=True).strip()
        )

    def collect_ids(self, node: LexborNode) -> None:
        """Ids inside a block (labels on paragraphs, glossary terms) belong to its section."""
        for sub in node.css("[id]"):
            if sub.tag not in _HEADINGS:
                self.current.ids.append(sub.attributes.get("id") or "")

    @staticmethod
    def _is_admonition(node: LexborNode) -> bool:
        first = node.css_first(".admonition-title")
        return first is not None and first.parent is not None and first.parent.mem_id == node.mem_id

    def admonition(self, node: LexborNode) -> list[str]:
        title = node.css_first(".admonition-title")
        label = _SPACE.sub(" ", title.text(deep=True)).strip() if title is not None else ""
        if title is not None:
            title.decompose()
        return self.labelled_box(label, node)

    def details(self, node: LexborNode) -> list[str]:
        summary = node.css_first("summary")
        label = _SPACE.sub(" ", summary.text(deep=True)).strip() if summary is not None else ""
        if summary is not None:
            summary.decompose()
        return self.labelled_box(label, node)

    def labelled_box(self, label: str, node: LexborNode) -> list[str]:
        """A box's blocks after its label; a box holding a heading keeps its label as a line first.

        Its text then goes to the sections its headings start (`children_blocks`), so the
        label is said where the box begins rather than lost.
        """
        if label and node.css_first("h1, h2, h3, h4, h5, h6") is not None:
            self.blocks.append(f"**{label}:**")
            return self.children_blocks(node)
        return _labelled(label, self.children_blocks(node))

    def children_blocks(self, node: LexborNode) -> list[str]:
        """The blocks of `node`'s content, taken out of the current section to be wrapped.

        When the content holds a heading, its text already went to the sections it starts
        (nothing is returned, nothing is lost).
        """
        start, before = len(self.blocks), self.current
        self.walk(node)
        if self.current is not before:
            return []
        out = [b for b in self.blocks[start:] if b.strip()]
        del self.blocks[start:]
        return out

    def block(self, node: LexborNode) -> list[str]:
        tag = node.tag
        if tag == "pre":
            return [_fence(_code_text(node), _language(node))]
        if tag == "p" or tag in {"figcaption", "summary", "address", "dt", "dd"}:
            text = _SPACE.sub(" ", self.inline(node)).strip()
            return [text] if text else []
        if tag in {"ul", "ol"}:
            return [self.list_block(node, ordered=tag == "ol")]
        if tag == "dl":
            return [self.definitions(node)]
        if tag == "table" and node.css_first("pre") is not None:
            # A code block laid out as a table (line numbers in one cell, code in the other).
            return [_fence(_code_text(pre), _language(pre)) for pre in node.css("pre")]
        if tag == "table":
            cells = node.css("td, th")
            if len(cells) == 1:  # a layout table (an admonition's body once its icon is taken)
                return self.children_blocks(cells[0])
            return self.table(node)
        if tag in {"blockquote", "figure", "li", "form"}:
            return self.children_blocks(node)
        if tag == "hr":
            return []
        if tag == "label":  # a tab's name (MkDocs, sphinx-design, inline tabs)
            text = _SPACE.sub(" ", self.inline(node, plain=True)).strip()
            return [f"**{text}**"] if text else []
        return self.children_blocks(node)

    def list_block(self, node: LexborNode, ordered: bool) -> str:
        items: list[str] = []
        loose = False
        number = int(node.attributes.get("start") or 1) if ordered else 0
        for li in node.iter():
            if li.tag != "li":
                continue
            blocks = self.children_blocks(li)
            loose = loose or len(blocks) > 1
            marker = f"{number}. " if ordered else "- "
            number += 1
            items.append(_indent_item(marker, blocks))
        return ("\n\n" if loose else "\n").join(items)

    def definitions(self, node: LexborNode) -> str:
        items: list[str] = []
        head = ""
        for child in node.iter():
            if child.tag == "dt":
                if head:
                    items.append(f"- **{head}**")
                head = _SPACE.sub(" ", self.inline(child)).strip()
            elif child.tag == "dd":
                items.append(_labelled_item(head, self.children_blocks(child)))
                head = ""
        if head:
            items.append(f"- **{head}**")
        return "\n".join(items)

    def table(self, node: LexborNode) -> list[str]:
        rows: list[list[str]] = []
        header = False
        for tr in node.css("tr"):
            cells = [c for c in tr.iter() if c.tag in {"td", "th"}]
            if not rows and cells and all(c.tag == "th" for c in cells):
                header = True
            rows.append(
                [_SPACE.sub(" ", self.inline(c)).strip().replace("|", "\\|") for c in cells]
            )
        if not rows:
            return []
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        head, body = (rows[0], rows[1:]) if header else ([""] * width, rows)
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        return ["\n".join(lines)]

    def heading(self, node: LexborNode) -> str:
        """A heading's text: code spans kept, emphasis and links as plain words."""
        return _SPACE.sub(" ", self.inline(node, plain=True)).strip()

    def inline(self, node: LexborNode, plain: bool = False) -> str:
        """Inline Markdown: code spans, emphasis, external links; tags otherwise unwrapped.

        A link the page wrote as absolute (another site) stays a link; a link inside the site
        reads as its text, as the other readers render cross-references.
        """
        parts: list[str] = []
        for child in node.iter(include_text=True):
            if child.is_text_node:
                parts.append(child.text(deep=False))
                continue
            tag = child.tag
            if tag is None or tag.startswith("-"):
                continue
            if tag in {"code", "kbd", "samp", "tt"}:
                parts.append(_code_span(child.text(deep=True)))
            elif tag == "br":
                parts.append(" ")
            elif tag == "img":
                parts.append(child.attributes.get("alt") or "")
            elif tag in {"strong", "b", "em", "i"}:
                inner = self.inline(child, plain).strip()
                mark = "" if plain else "**" if tag in {"strong", "b"} else "*"
                parts.append(f"{mark}{inner}{mark}" if inner else "")
            elif tag == "a":
                inner = self.inline(child, plain)
                href = child.attributes.get("href") or ""
                if not plain and inner.strip() and href.startswith(("http://", "https://")):
                    parts.append(f"[{inner.strip()}]({href})")
                else:
                    parts.append(inner)
            elif tag == "pre":
                parts.append(_code_span(child.text(deep=True)))
            else:
                parts.append(self.inline(child, plain))
        return "".join(parts)


def _code_text(pre: LexborNode) -> str:
    code = pre.css_first("code") or pre
    lines = code.css(".token-line")  # Prism (Docusaurus): one element per line
    if lines:
        return "\n".join(line.text(deep=True) for line in lines)
    return code.text(deep=True)


def _fence(text: str, language: str) -> str:
    return fence_code(text.strip(chr(10)).rstrip(), language)


def _code_span(text: str) -> str:
    text = " ".join(text.split("\n")).strip()
    if not text:
        return ""
    return f"`{text}`" if "`" not in text else f"`` {text} ``"


def _indent_item(marker: str, blocks: list[str]) -> str:
    lines = "\n\n".join(blocks).split("\n")
    pad = " " * len(marker)
    return marker + lines[0] + "".join("\n" + (pad + line if line else "") for line in lines[1:])


def _labelled_item(head: str, blocks: list[str]) -> str:
    if not blocks:
        return f"- **{head}**" if head else ""
    if head and not blocks[0].startswith(("```", "- ", "|")):
        return _indent_item("- ", [f"**{head}**: {blocks[0]}", *blocks[1:]])
    return _indent_item("- ", [f"**{head}**", *blocks] if head else blocks)


def _labelled(label: str, blocks: list[str]) -> list[str]:
    if not label:
        return blocks
    if blocks and not blocks[0].startswith(("```", "- ", "|", "**", "1. ")):
        return [f"**{label}:** {blocks[0]}", *blocks[1:]]
    return [f"**{label}:**", *blocks]


def _label_text(title: LexborNode) -> str:
    """A box's title as a label: its text, else the `title` an icon carries (`<i title="Note">`)."""
    text = _SPACE.sub(" ", title.text(deep=True)).strip()
    if text:
        return text
    for node in [title, *title.css("[title]")]:
        value = (node.attributes.get("title") or "").strip()
        if value:
            return value
    for node in [title, *title.css("[class]")]:  # a font icon named for its kind: `icon-note`
        for cls in _classes(node):
            if cls.startswith("icon-") and len(cls) > 5:
                return cls[5:].replace("-", " ").capitalize()
    return ""


def _tab_labels(root: LexborNode) -> dict[int, str]:
    """ARIA tabs: each `role=tabpanel` named by its tab (`aria-labelledby`), the tab list dropped.

    Bootstrap tabsets (Quarto's) write a list of tab links, then the panels: read as a list and
    blocks, the labels would lose their panels. Tabs whose panels do not say their tab are left
    as they are.
    """
    labels: dict[int, str] = {}
    tabs = {t.attributes.get("id"): t for t in root.css("[role=tab][id], [role=tablist] [id]")}
    for panel in root.css("[role=tabpanel][aria-labelledby]"):
        tab = tabs.get(panel.attributes.get("aria-labelledby"))
        if tab is not None:
            labels[panel.mem_id] = _SPACE.sub(" ", tab.text(deep=True)).strip()
    if labels:
        for tablist in root.css("[role=tablist]"):
            tablist.decompose()
    return labels
