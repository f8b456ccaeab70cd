"""Hidden code lines, as mdBook renders them: `# ` lines of Rust blocks, a configured prefix elsewhere.

mdBook 0.5 (`mdbook-html/src/html/hide_lines.rs`) wraps these lines in `<span class="boring">`,
hidden until the reader presses the eye button; the copy button copies what is shown. So the
index keeps what a reader sees and copies: hidden lines are left out, and Rust's `##` escape
reads `#`. In a Rust block (its info string's first word, split at spaces, tabs and commas, is
`rust`) a line is hidden when it is `#` alone or starts with `# ` after its indentation; in any
other block when it starts with the block's `hidelines=PREFIX` class, else the prefix
`[output.html.code.hidelines]` gives its language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_FENCE_RE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_BORING_RE = re.compile(r"^(\s*)#(.?)(.*)$")
_INFO_SPLIT_RE = re.compile(r"[ \t,]+")
# Block quote markers before a line's content (`> `, `> > `): a code block may sit in a quote.
QUOTE_PREFIX_RE = re.compile(r"^(?: {0,3}>[ ]?)+")


def unquoted(line: str) -> tuple[str, str]:
    """(the line's block quote markers, its content)."""
    m = QUOTE_PREFIX_RE.match(line)
    return (m.group(0), line[m.end() :]) if m else ("", line)


def _rust_line(line: str) -> str | None:
    """The line as a Rust block shows it, None when it is hidden."""
    m = _BORING_RE.match(line)
    if m is None:
        return line
    if m.group(2) == "#":
        return m.group(1) + "#" + m.group(3)  # `##x`: the escape of a shown `#x`
    if m.group(2) in ("", " "):
        return None
    return line


def _hidden_prefix(info: str, hidelines: Mapping[str, str]) -> tuple[bool, str]:
    """(a Rust block, the prefix that hides a line of any other block; "" for none)."""
    words = [w for w in _INFO_SPLIT_RE.split(info.strip()) if w]
    language = words[0] if words else ""
    if language == "rust":
        return True, ""
    for word in words[1:]:
        if word.startswith("hidelines="):
            return False, word[len("hidelines=") :]
    return False, hidelines.get(language, "")


def hide_code_lines(body: str, hidelines: Mapping[str, str]) -> str:
    """The page with every code block's hidden lines left out (the rest as it is)."""
    if "```" not in body and "~~~" not in body:
        return body
    out: list[str] = []
    fence = ""
    rust = False
    prefix = ""
    for line in body.split("\n"):
        quote, content = unquoted(line)
        m = _FENCE_RE.match(content)
        if fence:
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence):
                if not m.group(3).strip():
                    fence = ""
                    out.append(line)
                    continue
            if rust:
                shown = _rust_line(content)
                if shown is not None:
                    out.append(quote + shown)
            elif prefix and content.lstrip().startswith(prefix):
                continue
            else:
                out.append(line)
            continue
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            fence = m.group(2)
            rust, prefix = _hidden_prefix(m.group(3), hidelines)
        out.append(line)
    return "\n".join(out)
