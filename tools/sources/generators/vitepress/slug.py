"""VitePress's heading anchors: its own slugify (@mdit-vue/shared), a repeat gets `-1`, `-2`, ….

`## build.target` → `#build-target`: every run of spaces and ASCII punctuation becomes one `-`,
accents go (NFKD), a leading digit gets `_` (`## 2.x Notes` → `#_2-x-notes`); letters of other
scripts, and punctuation outside ASCII (`—`), stay. markdown-it-anchor then adds `-1`, `-2` to
a repeated id. The slug is taken from the heading's text and code (markdown-it's `text` and
`code_inline` tokens: no tag, no emoji), so code spans count without their backticks.
"""

from __future__ import annotations

import re
import unicodedata

_CONTROL_RE = re.compile(r"[\u0000-\u001f]")
_SPECIAL_RE = re.compile(r"""[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:"'“”‘’<>,.?/]+""")
_COMBINING_RE = re.compile(r"[\u0300-\u036f]")
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")


def vitepress_slug(heading: str) -> str:
    """The id VitePress gives a heading of this plain text (code spans with their backticks)."""
    text = _CODE_SPAN_RE.sub(lambda m: m.group(2).strip(" ") or m.group(2), heading)
    value = _COMBINING_RE.sub("", unicodedata.normalize("NFKD", text))
    value = _SPECIAL_RE.sub("-", _CONTROL_RE.sub("", value))
    value = re.sub(r"-{2,}", "-", value).strip("-")
    return re.sub(r"^(\d)", r"_\1", value).lower()
