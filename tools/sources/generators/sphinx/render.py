"""A Sphinx doctree as sections of Markdown, with the ids the built site serves.

The text of each section is Markdown with fenced code blocks that keep their language; roles show
their text, directives their content. Cross-references (`:ref:`, `:doc:`, object roles) become
Markdown links to the page and id the built site serves, relative to this page as Sphinx writes
them, when `options.xrefs` (the site's targets, tools/sources/generators/sphinx/targets.py) knows
their target; otherwise they stay text. Labels on this page are resolved with the ids docutils
gave them here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes

from tools.sources.generators.sphinx.ids import std_object_name
from tools.sources.generators.sphinx.nodes import highlight_marker, labelled, object_desc, xref
from tools.sources.generators.sphinx.options import (
    AUTO_ID_PREFIX,
    ParseState,
)
from tools.sources.generators.sphinx.roles import PY_ROLES
from tools.sources.records import Section
from tools.text import fence_code

ADMONITION_LABELS = {
    "note": "Note",
    "warning": "Warning",
    "tip": "Tip",
    "hint": "Hint",
    "important": "Important",
    "caution": "Caution",
    "attention": "Attention",
    "danger": "Danger",
    "error": "Error",
}
# Nodes with no text on the page.
_SKIPPED = (
    nodes.comment,
    nodes.target,
    nodes.substitution_definition,
    nodes.system_message,
    nodes.pending,
    nodes.raw,
    nodes.transition,
    nodes.meta,
)
_SPACES = re.compile(r"[ \n]{2,}|\n")
_SPHINX_SUBSTITUTIONS = {"version", "release", "today"}
_DEFAULT_HIGHLIGHT = {"default", "python3", "none", ""}


class Renderer:
    """Doctree → sections of Markdown, in document order (text runs up to the next heading)."""

    def __init__(self, state: ParseState) -> None:
        self.state = state
        self.language = state.options.highlight_language
        self.substitutions = dict(state.options.substitutions)
        self.out: list[Section] = []
        self.current = Section("", 0, "", "")
        self.blocks: list[str] = []
        self.extra_ids: list[str] = []
        self.titles: dict[str, str] = {}
        self.labels: dict[str, str] = {}  # this page's explicit labels → their ids
        self.ids: set[str] = set()

    # -- sections ---------------------------------------------------------------------------

    def sections(self, document: nodes.document) -> list[Section]:
        """The document's sections, each with its Markdown text and the ids the site serves."""
        for name, node in document.substitution_defs.items():
            self.substitutions[name] = node.astext()
        self.labels = {
            name: node_id
            for name, node_id in document.nameids.items()
            if node_id and document.nametypes.get(name)
        }
        self.ids = set(document.ids)
        self.titles = _section_titles(document, self)
        self._walk(document, 0)
        self._flush()
        known = self.state.numbered_ids_known
        if known is not None:
            for section in self.out:
                kept = [i for i in section.anchors if not _numbered_after(i, known)]
                if len(kept) < len(section.anchors):
                    section.anchor = ""
                    _set_ids(section, kept)
        return self.out

    def _flush(self) -> None:
        text = "\n\n".join(b.strip("\n") for b in self.blocks if b.strip()).strip()
        self.current.text = text
        ids = list(_ids_of(self.current)) + [i for i in self.extra_ids if i]
        _set_ids(self.current, ids)
        if self.current.level > 0 or text:
            self.out.append(self.current)
        self.blocks = []
        self.extra_ids = []

    def _start(self, heading: str, level: int, ids: list[str]) -> None:
        self._flush()
        self.current = Section(heading, min(level, 6), "", ids[0] if ids else "")
        _set_ids(self.current, ids)

    def _walk(self, parent: nodes.Element, level: int) -> None:
        for child in parent.children:
            if isinstance(child, nodes.section):
                title = child.next_node(nodes.title)
                heading = self.inline(title, plain=True) if title is not None else ""
                # One space between words, as the page shows them: a substitution conf.py
                # computes (`Scrapy |version| documentation`) leaves two where it stood.
                heading = " ".join(heading.split())
                self._start(heading, level + 1, _sorted_section_ids(child["ids"]))
                self._walk(child, level + 1)
            elif isinstance(child, object_desc) and _without_text(child):
                # An autodoc object (its docstring is not in the source): its ids, no section.
                self.extra_ids.extend(child["ids"])
            elif isinstance(child, object_desc):
                self._start(child["signature"], level + 1, list(child["ids"]))
                self._walk(child, level + 1)
            elif isinstance(child, nodes.title) and isinstance(parent, nodes.section):
                continue
            elif isinstance(child, nodes.Element):
                self.extra_ids.extend(_descendant_ids(child))
                self.blocks.extend(self.block(child))

    # -- blocks -----------------------------------------------------------------------------

    def block(self, node: nodes.Node) -> list[str]:
        """Markdown blocks for one block-level node."""
        if isinstance(node, nodes.Text):
            return [node.astext()] if node.astext().strip() else []
        assert isinstance(node, nodes.Element)
        if isinstance(node, highlight_marker):
            self.language = node["language"]
            return []
        if isinstance(node, _SKIPPED):
            return []
        if isinstance(node, nodes.paragraph):
            return [self.inline(node).strip()]
        if isinstance(node, nodes.literal_block):
            return [self.code(node)]
        if isinstance(node, nodes.doctest_block):
            return [_fence(node.astext(), "pycon")]
        if isinstance(node, nodes.math_block):
            return [_fence(node.astext(), "latex")]
        if isinstance(node, nodes.bullet_list):
            return [self.list_items(node, lambda _i: "- ")]
        if isinstance(node, nodes.enumerated_list):
            start = int(node.get("start", 1))
            return [self.list_items(node, lambda i: f"{start + i}. ")]
        if isinstance(node, nodes.definition_list):
            return [self.definitions(node)]
        if isinstance(node, nodes.field_list):
            return [self.fields(node)]
        if isinstance(node, nodes.option_list):
            return [self.options(node)]
        if isinstance(node, nodes.table):
            return self.table(node)
        if isinstance(node, nodes.Admonition):
            return self.admonition(node)
        if isinstance(node, labelled):
            return self.labelled(node["label"], self.children(node))
        if isinstance(node, object_desc):
            return self.labelled(node["signature"], self.children(node))
        if isinstance(node, nodes.topic | nodes.sidebar):
            title = node.next_node(nodes.title)
            label = self.inline(title).strip() if title is not None else ""
            return self.labelled(label, self.children(node, skip_title=True))
        if isinstance(node, nodes.rubric | nodes.title):
            text = self.inline(node).strip()
            return [f"**{text}**"] if text else []
        if isinstance(node, nodes.line_block):
            return ["\n".join(self.lines(node))]
        if isinstance(node, nodes.block_quote):
            return self.children(node)
        if isinstance(node, nodes.attribution):
            return [f"— {self.inline(node).strip()}"]
        if isinstance(node, nodes.footnote | nodes.citation):
            label = node.next_node(nodes.label)
            body = [
                b for c in node.children if not isinstance(c, nodes.label) for b in self.block(c)
            ]
            if label is not None and body:
                body[0] = f"[{label.astext()}] {body[0]}"
            return body
        if isinstance(node, nodes.image):
            alt = node.get("alt", "")
            return [alt] if alt else []
        if isinstance(node, nodes.caption | nodes.legend):
            return (
                [self.inline(node).strip()]
                if isinstance(node, nodes.caption)
                else self.children(node)
            )
        if isinstance(node, nodes.TextElement):
            return [self.inline(node).strip()]
        return self.children(node)

    def children(self, node: nodes.Element, skip_title: bool = False) -> list[str]:
        """The Markdown blocks of a node's children, in order."""
        out: list[str] = []
        for child in node.children:
            if skip_title and isinstance(child, nodes.title):
                continue
            out.extend(self.block(child))
        return [b for b in out if b.strip()]

    def code(self, node: nodes.literal_block) -> str:
        """A literal block as a fenced code block in its language."""
        language = node.get("language")
        if language is None:
            classes = [c for c in node.get("classes", []) if c != "code"]
            language = classes[0] if classes else self.language
        if language in _DEFAULT_HIGHLIGHT:
            language = _default_language(node.astext()) if language != "none" else ""
        return _fence(node.astext(), language)

    def list_items(self, node: nodes.Element, marker: Any) -> str:
        """A bullet or enumerated list, each item's blocks indented under its marker."""
        items = []
        loose = False
        for i, item in enumerate(node.children):
            blocks = self.children(item) if isinstance(item, nodes.Element) else []
            loose = loose or len(blocks) > 1
            items.append(_indent_item(marker(i), blocks))
        return ("\n\n" if loose else "\n").join(items)

    def definitions(self, node: nodes.definition_list) -> str:
        """A definition list: each term (with its classifiers) labelling its definition."""
        items = []
        for item in node.children:
            if not isinstance(item, nodes.definition_list_item):
                continue
            terms = [self.inline(c).strip() for c in item.children if isinstance(c, nodes.term)]
            classifiers = [
                self.inline(c).strip() for c in item.children if isinstance(c, nodes.classifier)
            ]
            head = ", ".join(t for t in terms if t)
            if classifiers:
                head += " (" + ", ".join(classifiers) + ")"
            body: list[str] = []
            for c in item.children:
                if isinstance(c, nodes.definition):
                    body.extend(self.children(c))
            items.append(_labelled_item(head, body))
        return "\n".join(items)

    def fields(self, node: nodes.field_list) -> str:
        """A field list: each field name labelling its body."""
        items = []
        for fld in node.children:
            if isinstance(fld, nodes.field) and len(fld) >= 2:
                items.append(_labelled_item(self.inline(fld[0]).strip(), self.children(fld[1])))
        return "\n".join(items)

    def options(self, node: nodes.option_list) -> str:
        """An option list: each option group as code, labelling its description."""
        items = []
        for item in node.children:
            group = item.next_node(nodes.option_group)
            desc = item.next_node(nodes.description)
            head = _code_span(group.astext()) if group is not None else ""
            items.append(_labelled_item(head, self.children(desc) if desc is not None else []))
        return "\n".join(items)

    def table(self, node: nodes.table) -> list[str]:
        """A table as a Markdown table (its title a bold line before it)."""
        rows: list[list[str]] = []
        header_rows = 0
        title = None
        for group in node.children:
            if isinstance(group, nodes.title):
                title = group
            for part in group.children if isinstance(group, nodes.tgroup) else ():
                if isinstance(part, nodes.thead | nodes.tbody):
                    for row in part.children:
                        rows.append(self.row(row))
                        header_rows += isinstance(part, nodes.thead)
        if not rows:
            return []
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        head = rows[0] if header_rows else [""] * width
        body = rows[1:] if header_rows else rows
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        out = [f"**{self.inline(title).strip()}**"] if title is not None else []
        return out + ["\n".join(lines)]

    def row(self, row: nodes.Node) -> list[str]:
        """The cells of one table row as text."""
        cells = []
        for entry in row.children if isinstance(row, nodes.Element) else []:
            text = " ".join(self.children(entry)) if isinstance(entry, nodes.Element) else ""
            cells.append(" ".join(text.split()).replace("|", "\\|"))
        return cells

    def admonition(self, node: nodes.Element) -> list[str]:
        """An admonition: its label (or title) bold, its content under it."""
        label = ADMONITION_LABELS.get(node.tagname, "")
        if not label:
            title = node.next_node(nodes.title)
            label = self.inline(title).strip() if title is not None else node.tagname.title()
        return self.labelled(label, self.children(node, skip_title=True))

    @staticmethod
    def labelled(label: str, blocks: list[str]) -> list[str]:
        """`**Label:** first paragraph` (or the label on its own line before code or lists)."""
        if not label:
            return blocks
        if blocks and not blocks[0].startswith(("```", "- ", "|", "**", "1. ")):
            return [f"**{label}:** {blocks[0]}", *blocks[1:]]
        return [f"**{label}:**", *blocks]

    def lines(self, node: nodes.line_block, depth: int = 0) -> list[str]:
        """A line block, nested blocks indented."""
        out = []
        for child in node.children:
            if isinstance(child, nodes.line_block):
                out.extend(self.lines(child, depth + 1))
            elif isinstance(child, nodes.Element):
                out.append("  " * depth + self.inline(child).strip())
        return out

    # -- inline -----------------------------------------------------------------------------

    def inline(self, node: nodes.Node, plain: bool = False) -> str:
        """Inline Markdown of a text element: code spans, emphasis, links, roles as text.

        `plain` (headings) keeps code spans but writes emphasis and links as their words.
        """
        if isinstance(node, nodes.Text):
            # astext: backslash escapes resolved; line breaks and runs of spaces read as one space
            return _SPACES.sub(" ", str(node.astext()))
        assert isinstance(node, nodes.Element)
        if isinstance(node, nodes.literal):
            return _code_span(node.astext())
        if isinstance(node, nodes.system_message | nodes.raw | nodes.comment):
            return ""
        if isinstance(node, nodes.substitution_reference):
            name = node.get("refname") or node.astext()
            if name in self.substitutions:
                return str(self.substitutions[name])
            # Sphinx's own (|version|, |release|, |today|) come from a conf.py value that is
            # computed, not written: nothing to show rather than the name.
            return "" if name in _SPHINX_SUBSTITUTIONS else node.astext()
        if isinstance(node, nodes.footnote_reference | nodes.citation_reference):
            return f"[{node.astext()}]"
        if isinstance(node, nodes.image):
            return str(node.get("alt", ""))
        if isinstance(node, xref):
            return self.cross_reference(node, plain)
        label = node.get("reflabel")
        if label and label in self.titles:
            return self.titles[label]
        inner = "".join(self.inline(c, plain) for c in node.children)
        if plain:
            return inner
        if isinstance(node, nodes.emphasis | nodes.title_reference):
            return f"*{inner.strip()}*" if inner.strip() else inner
        if isinstance(node, nodes.strong):
            return f"**{inner.strip()}**" if inner.strip() else inner
        if isinstance(node, nodes.reference):
            uri = node.get("refuri", "")
            if uri.startswith(("http://", "https://")) and inner.strip() and inner.strip() != uri:
                return f"[{inner.strip()}]({uri})"
            return inner
        return inner

    def cross_reference(self, node: xref, plain: bool) -> str:
        """A cross-reference: `[text](url)` when its target is known, else its text.

        A bare `:ref:` shows the title of the section it leads to, a bare `:doc:` the page's
        title (as Sphinx does); `plain` (headings) writes the words only.
        """
        link = self.resolve(node)
        label = node.get("reflabel")
        if link is not None and link[1] and not node.get("explicit"):
            inner = link[1]
        elif label and label in self.titles:
            inner = self.titles[label]
        else:
            inner = "".join(self.inline(c, plain) for c in node.children)
        if plain or link is None:
            return inner
        text = inner.strip()
        if not text or any(c in text for c in "[]\n"):
            # No sound link text: the words alone, brackets escaped so that they make no link.
            return inner.replace("[", "\\[").replace("]", "\\]")
        return f"[{text}]({link[0]})"

    def resolve(self, node: xref) -> tuple[str, str] | None:
        """(URL, title) of the target a cross-reference names, or None when it is not known.

        The title is the section's or page's (what a bare reference shows), "" for objects.
        """
        targets = self.state.options.xrefs
        if targets is None:
            return None
        here, kind = self.state.docname, str(node.get("reftype", ""))
        target = str(node.get("reftarget", ""))
        if kind == "ref":
            name = nodes.fully_normalize_name(target)
            if name in self.labels:  # on this page: the id docutils gave it here
                anchor = self.labels[name]
                title = self.titles.get(anchor, "")
                return (
                    (targets.href(here, here, anchor), title)
                    if title or node.get("explicit")
                    else None
                )
            found = targets.label(target)
            if found is None or found.docname == here or not (found.title or node.get("explicit")):
                return None  # Sphinx links a bare `:ref:` only to a section (or a captioned block)
            return targets.href(here, found.docname, found.anchor), found.title
        if kind == "doc":
            doc = targets.doc(here, target)
            return None if doc is None else (targets.href(here, doc), targets.doc_title(doc))
        if kind in PY_ROLES or kind == "mod":
            module = str(node.get("module", ""))
            hit = targets.python(kind, target, module, list(node.get("classes", ())))
        elif kind == "option":
            hit = targets.option(target, str(node.get("program", "")))
        else:
            hit = targets.object(kind, std_object_name(kind, target))
        if hit is None or (hit[0] == here and hit[1] not in self.ids):
            return None
        return targets.href(here, hit[0], hit[1]), ""


def _sorted_section_ids(ids: list[str]) -> list[str]:
    """Sphinx's `SortIds`: a section whose own id is `idN` is served under its first label.

    `.. _import-modes:` above "Import modes" takes the id first, so docutils names the
    section `id1`; Sphinx then moves `id1` last and the page serves `<section id="import-modes">`.
    """
    if len(ids) > 1 and ids[0].startswith("id"):
        return [*ids[1:], ids[0]]
    return list(ids)


def _section_titles(document: nodes.document, renderer: Renderer) -> dict[str, str]:
    """Each id of this page's sections → the section's title (what a bare `:ref:` shows)."""
    titles: dict[str, str] = {}
    stack: list[nodes.Node] = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, nodes.section):
            title = node.next_node(nodes.title)
            if title is not None:
                text = " ".join(renderer.inline(title, plain=True).split())
                for node_id in node["ids"]:
                    titles.setdefault(node_id, text)
        if isinstance(node, nodes.document | nodes.section):
            stack.extend(c for c in node.children if isinstance(c, nodes.section))
    return titles


def _without_text(node: object_desc) -> bool:
    """An object description with nothing to show but its signature (autodoc, no content)."""
    return str(node.get("kind", "")).startswith("auto") and not any(
        isinstance(c, nodes.Element) and not isinstance(c, _SKIPPED) for c in node.children
    )


def _ids_of(section: Section) -> Iterator[str]:
    if section.anchor:
        yield section.anchor
    yield from section.ids


_NUMBERED_ID = re.compile(rf"{AUTO_ID_PREFIX}(\d+)")


def _numbered_after(node_id: str, known: int) -> bool:
    """Whether `node_id` is a docutils numbered id past the `known` ones (see `ParseState`).

    An autodoc docstring on the built page can take numbers before it: the site may serve
    this number on another element, so it is not cited (the section's other ids still are).
    """
    m = _NUMBERED_ID.fullmatch(node_id)
    return m is not None and int(m.group(1)) > known


def _set_ids(section: Section, ids: list[str]) -> None:
    """The section's first id is its anchor (cited); `ids` holds the others (labels…)."""
    unique = list(dict.fromkeys(i for i in ids if i))
    if not section.anchor and unique:
        section.anchor = unique[0]
    section.ids = tuple(i for i in unique if i != section.anchor)


def _descendant_ids(node: nodes.Element) -> list[str]:
    """Ids of a block and everything in it that is not a section of its own (labels on text).

    A plain stack walk: docutils' `findall` costs several times more on large tables.
    """
    out: list[str] = []
    stack: list[nodes.Node] = [node]
    while stack:
        sub = stack.pop()
        if not isinstance(sub, nodes.Element) or isinstance(sub, _NO_IDS):
            continue
        ids = sub.attributes.get("ids")
        if ids and not (isinstance(sub, nodes.target) and ("refuri" in sub or "refid" in sub)):
            out.extend(ids)
        stack.extend(reversed(sub.children))
    return out


_NO_IDS = (nodes.system_message, nodes.problematic, nodes.Text)


def _default_language(code: str) -> str:
    """The language Sphinx's `default` highlighting shows a block in (`highlight_language` unset).

    Sphinx highlights such a block as Python, as a console session (`pycon`) when it starts
    with `>>>`, and as plain text when the Python lexer cannot read it; `compile` stands in for
    the lexer's verdict.
    """
    if code.lstrip().startswith(">>>"):
        return "pycon"
    try:
        compile(code, "<block>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return ""
    return "python"


def _fence(text: str, language: str) -> str:
    return fence_code(text.rstrip(), language)


def _code_span(text: str) -> str:
    text = " ".join(text.split("\n"))
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


def _indent_item(marker: str, blocks: list[str]) -> str:
    text = "\n\n".join(blocks)
    pad = " " * len(marker)
    lines = text.split("\n")
    return marker + lines[0] + "".join("\n" + (pad + line if line else "") for line in lines[1:])


def _labelled_item(head: str, blocks: list[str]) -> str:
    if not blocks:
        return f"- {head}"
    if head and not blocks[0].startswith(("```", "- ", "|")):
        return _indent_item("- ", [f"**{head}**: {blocks[0]}", *blocks[1:]])
    return _indent_item("- ", [f"**{head}**", *blocks] if head else blocks)
