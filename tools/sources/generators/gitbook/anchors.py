"""The anchors GitBook serves for headings, and which of them its documentation settles.

GitBook's documentation (Headings > Anchor links) says a heading's anchor is its text, lower
case, its words joined with `-`, and that an exported heading carries a custom anchor as
`<a href="#x" id="x"></a>`; the page's H1 is its title, not an anchor. It does not say what
becomes of punctuation, a leading digit or letters outside ASCII (GitBook's own exports show
`#id-1.-install`, `#id-1-install` and transliterated ids for such headings, from different
years), nor of a repeated heading. The `gitbook` rule follows the documented part and, for the
rest, drops punctuation as GitHub does; `settled` says whether an anchor is the documented case,
so the reader can say which citations may open the page's top instead of its section.
"""

from __future__ import annotations

import re

from tools.sources.slugs import github, register

_SETTLED_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?: [A-Za-z0-9]+)*")


def gitbook_anchor(heading: str) -> str:
    """The anchor of a heading with this plain text (the documented rule, GitHub's beyond it)."""
    return github(heading)


def settled(heading: str) -> bool:
    """Whether GitBook's documentation settles the anchor of this heading: plain ASCII words."""
    return _SETTLED_RE.fullmatch(heading.strip()) is not None


register("gitbook", gitbook_anchor, "{}-{}")
