"""Heading anchors the way each site generator builds them: the slug rule and the de-duplication.

A cited `#anchor` must open the section on the real site, so the anchor is computed with the
generator's own rule, not one rule for all. The rules are short and stable, and re-implemented
here rather than imported: Python-Markdown's is a function of the `markdown` package (not a
dependency of this one), github-slugger is JavaScript (its character class is written with the
`regex` module's Unicode properties), and docutils' `make_id` is imported where
docutils is (the reStructuredText reader). Each rule is a function of the heading's plain text
(markup already dropped); `Anchors` adds the generator's suffix for a repeated id on a page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import regex

SlugRule = Callable[[str], str]


def mintlify(heading: str) -> str:
    """Mintlify and plain GitHub-style anchors: lower case, punctuation dropped, space runs to `-`."""
    slug = re.sub(r"[^\w\s-]", "", heading.lower()).strip()
    return re.sub(r"[\s]+", "-", slug)


def python_markdown(heading: str) -> str:
    """Python-Markdown's `toc` default (MkDocs): NFKD to ASCII, drop non-word, runs of space/`-` to `-`."""
    value = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def python_markdown_unicode(heading: str) -> str:
    """`pymdownx.slugs.uslugify` / `toc` with `slugify_unicode`: as above, letters of any script kept."""
    value = unicodedata.normalize("NFKC", heading)
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


# What github-slugger (1.5, Docusaurus 3) removes: every character but letters and other
# alphabetic characters (circled letters, letter numbers), marks (a variation selector, the
# vowel signs of Indic scripts), decimal digits, connector punctuation, space and `-`. Its
# regex.js lists the code points from Unicode 13 tables; this is the same set for every
# character Unicode 13 assigns (later ones it drops as unassigned, this keeps).
_GITHUB_SLUGGER_REMOVE = regex.compile(r"[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc} \-]")


def github(heading: str) -> str:
    """github-slugger (Docusaurus): lower case, punctuation dropped, *each* space becomes `-`."""
    value = heading.strip().lower()
    value = str(_GITHUB_SLUGGER_REMOVE.sub("", value))  # `regex` ships no type hints
    return value.replace(" ", "-")


def docutils_id(heading: str) -> str:
    """Docutils `make_id` (Sphinx): ASCII, every run outside `a-z0-9` to one `-`, no leading digit."""
    value = unicodedata.normalize("NFKD", heading.lower()).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^a-z0-9]+", "-", value)
    return re.sub(r"^[-0-9]+|-+$", "", value)


def jupyter(heading: str) -> str:
    """The anchors of nbconvert and JupyterLab (mkdocs-jupyter pages): each space becomes `-`."""
    return heading.strip().replace(" ", "-")


# The rules by name (what `Site.slug` and `DOCS_AGENT_DOCS_SLUG` say). A generator whose anchors
# follow a rule of its own adds it with `register` from its package.
SLUG_RULES: dict[str, SlugRule] = {
    "mintlify": mintlify,
    "github": github,
    "python-markdown": python_markdown,
    "python-markdown-unicode": python_markdown_unicode,
    "docutils": docutils_id,
    "jupyter": jupyter,
}
# How each rule marks the n-th repeat of an id on one page (the first keeps the bare id).
_REPEAT_FORMATS = {
    "python-markdown": "{}_{}",
    "python-markdown-unicode": "{}_{}",
    "github": "{}-{}",
}


def register(name: str, rule: SlugRule, repeat: str | None = None) -> None:
    """Add a generator's own slug rule and how it marks a repeated id (`"{}-{}"`; None: it does not).

    Called when the generator's package is imported (every process that reads its pages does);
    a name taken by another rule is a programming error, said at once.
    """
    if SLUG_RULES.get(name, rule) is not rule:
        raise ValueError(f"slug rule {name!r} is already another rule")
    SLUG_RULES[name] = rule
    if repeat is not None:
        _REPEAT_FORMATS[name] = repeat


def slug_rule(name: str) -> SlugRule:
    """The slug function by name; an unknown name is a configuration error, said plainly."""
    try:
        return SLUG_RULES[name]
    except KeyError:
        raise ValueError(f"unknown slug rule {name!r}; one of {', '.join(SLUG_RULES)}") from None


class Anchors:
    """The ids given out on one page, so a repeated heading gets the generator's `_1` / `-1` suffix."""

    def __init__(self, rule: str = "mintlify") -> None:
        """Start a page with no ids taken."""
        self.rule = rule
        self.slug = slug_rule(rule)
        self.repeat = _REPEAT_FORMATS.get(rule)
        self.taken: set[str] = set()

    def take(self, anchor: str) -> str:
        """Reserve an explicit id as written (an explicit id is never renamed)."""
        self.taken.add(anchor)
        return anchor

    def heading(self, text: str) -> str:
        """The id of a heading with this plain text: its slug, made unique on the page."""
        base = self.slug(text)
        if not base or self.repeat is None:
            if base:
                self.taken.add(base)
            return base
        anchor, n = base, 0
        while anchor in self.taken:
            n += 1
            anchor = self.repeat.format(base, n)
        self.taken.add(anchor)
        return anchor
