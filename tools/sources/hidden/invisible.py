"""Characters that render as nothing: format and control characters, tag characters, variation selector runs."""

from __future__ import annotations

import re
import unicodedata

# -- invisible characters ------------------------------------------------------------------------

# Format characters (Unicode category Cf) and the other code points that render as nothing:
# C0/C1 controls but tab and newlines, soft hyphen, the combining grapheme joiner, Hangul and
# Khmer fillers, Mongolian vowel separator, zero-width space/joiners and LRM/RLM, bidi embeddings,
# overrides and isolates, word joiner and invisible operators, BOM, interlinear annotations,
# shorthand format controls, musical format controls, tag characters and the supplementary
# variation selectors (enough of them encode any text after one emoji). Cf characters that are
# visible (the Arabic number signs U+0600–0605, U+06DD, U+070F, U+0890–0891, U+08E2 and their
# Kaithi twins) are not listed; tests check the list against `unicodedata`.
_INVISIBLE_BMP = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
)
_INVISIBLE_ASTRAL = (
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
_INVISIBLE = _INVISIBLE_BMP + _INVISIBLE_ASTRAL
_VARIATION_SELECTORS = "\ufe00-\ufe0f"
# One character class (a search with alternatives is several times slower on a page).
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}{_VARIATION_SELECTORS}\u2028\u2029]")
# The same test, quicker: the basic plane's part of the class, and "any astral character".
_INVISIBLE_BMP_RE = re.compile(f"[{_INVISIBLE_BMP}{_VARIATION_SELECTORS}\u2028\u2029]")
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
_JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ: needed between letters of some scripts and in emoji


def _keeps_joiner(text: str, i: int) -> bool:
    """A lone ZWNJ/ZWJ between two non-ASCII letters, marks or symbols (Persian, Indic, emoji)."""
    if i == 0 or i + 1 >= len(text):
        return False
    before, after = text[i - 1], text[i + 1]
    if before.isascii() or after.isascii() or before in _JOINERS or after in _JOINERS:
        return False
    return unicodedata.category(before)[0] in "LMS" and unicodedata.category(after)[0] in "LMS"


def strip_invisible(text: str) -> str:
    """Drop characters that render as nothing (see `_INVISIBLE`); newlines and tabs stay.

    A run of variation selectors keeps its first (emoji presentation needs one); line and
    paragraph separators become newlines.
    """
    if not _INVISIBLE_BMP_RE.search(text) and not _ASTRAL_RE.search(text):
        return text  # the common case

    def repl(m: re.Match[str]) -> str:
        ch = m.group(0)
        if ch in "\u2028\u2029":
            return "\n"
        if "\ufe00" <= ch <= "\ufe0f":  # keep the first of a run
            i = m.start()
            return "" if i and "\ufe00" <= m.string[i - 1] <= "\ufe0f" else ch
        if ch in _JOINERS and _keeps_joiner(m.string, m.start()):
            return ch
        return ""

    return _INVISIBLE_RE.sub(repl, text)
