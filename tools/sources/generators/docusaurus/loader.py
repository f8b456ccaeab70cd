"""What Docusaurus' MDX loader does to a file before MDX reads it.

`mdx-code-block` fences unwrapped, and the comments in a heading kept as the characters they add
to its id (`mark_heading_comments`).
"""

from __future__ import annotations

import re

from tools.sources.hidden.strip import HEADING_ID_COMMENT_RE, mask_code
from tools.sources.markdown.frontmatter import FRONTMATTER_RE
from tools.sources.markdown.parse import SLUG_ONLY_END, SLUG_ONLY_START
from tools.sources.slugs import github

# A fence of exactly 3 or 4 backticks whose info is `mdx-code-block` holds MDX of the page, not
# code (@docusaurus/utils `unwrapMdxCodeBlocks`: the same patterns, run over the whole file).
_MDX_CODE_BLOCK_RES = tuple(
    re.compile(
        rf"(?P<begin>\A|\r?\n)(?P<indent> *){ticks}(?P<spaces> *)mdx-code-block\r?\n"
        rf"(?P<children>.*?)\r?\n(?P<indent_end> *){ticks}(?P<end>\r?\n|\Z)",
        re.S,
    )
    for ticks in ("```", "````")
)
_ATX_LINE_RE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t][^\n]*", re.M)
# A comment in a heading line, with the spaces before it: an MDX expression of comments only
# (`{/* note */}`, `{ /* a */ /* b */ }`) or an HTML comment.
_HEADING_COMMENT_RE = re.compile(
    r"([ \t]*)(?<!\\)(?:\{(\s*/\*.*?\*/(?:\s*/\*.*?\*/)*\s*)\}|<!--.*?-->)"
)


def unwrap_mdx_code_blocks(text: str) -> str:
    """The text with each `mdx-code-block` fence replaced by its content, as Docusaurus does."""
    if "mdx-code-block" not in text:
        return text
    for pattern in _MDX_CODE_BLOCK_RES:
        text = pattern.sub(lambda m: m["begin"] + m["children"] + m["end"], text)
    return text


def mark_heading_comments(text: str) -> str:
    """A heading's comments as the characters they add to its Docusaurus id, marked unshown.

    Docusaurus takes a heading's id from the text of all its parts, and an MDX comment's text
    is what its braces hold (an HTML comment's is none, but the spaces before it stay):
    `## Title {/* note */}` is `title--note-` (its TOC even shows `Title /* note */`), while the
    page shows `Title`. Comments are hidden text, dropped before a reader sees the page, so each
    becomes here the github-slugger characters it adds (no word of it survives the slug rule
    in another form) between marks the reader counts in the id and never shows. A last comment
    `{/* #id */}` is the heading's explicit id instead (tools/sources/hidden/).
    """
    if "{/*" not in text and "<!--" not in text:
        return text
    front = FRONTMATTER_RE.match(text)
    start = front.end() if front else 0
    masked = mask_code(text[start:])
    edits: list[tuple[int, int, str]] = []
    for line in _ATX_LINE_RE.finditer(masked):
        if HEADING_ID_COMMENT_RE.fullmatch(line.group(0)):
            continue
        for m in _HEADING_COMMENT_RE.finditer(line.group(0)):
            added = (m.group(1) + (m.group(2) or "")).replace(" ", "-")
            mark = f"{SLUG_ONLY_START}{github(added)}{SLUG_ONLY_END}"
            edits.append((start + line.start() + m.start(), start + line.start() + m.end(), mark))
    for begin, end, mark in reversed(edits):
        text = text[:begin] + mark + text[end:]
    return text


def docusaurus_source(text: str) -> str:
    """A Docusaurus page's text as its MDX loader reads it (before hidden text is dropped).

    `mdx-code-block` fences unwrapped (their content is MDX: its hidden text must go too) and
    heading comments kept as the id characters they add (`mark_heading_comments`).
    """
    return mark_heading_comments(unwrap_mdx_code_blocks(text))
