"""mdBook's ids: `utils::id_from_content`, `unique_id`, and the text of a heading they are taken from.

mdBook 0.5 (`mdbook-html/src/utils.rs`, `html/tree.rs`): every `h1`–`h6` and `dt` without an
explicit id gets `id_from_content` of its text (trimmed, lower case, letters, numbers, `_` and
`-` kept, each whitespace character a `-`, the rest dropped; nothing left: `section`), made
unique on the page with `-1`, `-2`, … in document order. An explicit `{#id}` is kept as
written and not counted. The text is the rendered heading's: inline code's text, links' text,
HTML tags dropped (their text kept), comments gone, and, with smart punctuation on (the
default), `--` an en dash and `---` an em dash outside code (both then dropped from the id).
"""

from __future__ import annotations

import re

import regex

from tools.sources.markdown.inline import decode_entities, outside_code, plain_heading
from tools.sources.slugs import register

# Rust's `char::is_alphanumeric` (Alphabetic or a number) and `char::is_whitespace`.
_DROPPED_RE = regex.compile(r"[^\p{Alphabetic}\p{N}_\-\p{White_Space}]")
_SPACE_RE = regex.compile(r"\p{White_Space}")
_COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
_AUTOLINK_RE = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>")
_ESCAPED_LT = "\ue010"


def mdbook_id(text: str) -> str:
    """`id_from_content`: the id mdBook gives a heading or term with this text."""
    value = _DROPPED_RE.sub("", text.strip().lower())
    return str(_SPACE_RE.sub("-", value)) or "section"


register("mdbook", mdbook_id, "{}-{}")


def smart_dashes(text: str) -> str:
    """pulldown-cmark's smart punctuation of dashes and dots, outside code spans."""
    return outside_code(
        text,
        lambda part: part.replace("---", "\u2014").replace("--", "\u2013").replace("...", "\u2026"),
    )


def heading_text(source: str, smart: bool = True) -> str:
    """A heading's (or term's) text as mdBook renders it, from its Markdown source."""
    text = _COMMENT_RE.sub("", source)
    text = _AUTOLINK_RE.sub(r"\1", text.replace("\\<", _ESCAPED_LT))
    if smart:
        text = smart_dashes(text)
    text = plain_heading(text, collapse=False)
    text = re.sub(r"(`+)(.*?)\1", r"\2", text)  # a code span shows its text
    return decode_entities(text).replace(_ESCAPED_LT, "<")


class UniqueIds:
    """`unique_id`: the ids taken on one page; a repeat gets `-1`, `-2`, … (the first free one)."""

    def __init__(self) -> None:
        """Start a page with no id taken."""
        self.used: set[str] = set()

    def take(self, base: str) -> str:
        """`base`, or the first `base-N` not yet taken; taken from now on."""
        candidate, n = base, 0
        while candidate in self.used:
            n += 1
            candidate = f"{base}-{n}"
        self.used.add(candidate)
        return candidate
