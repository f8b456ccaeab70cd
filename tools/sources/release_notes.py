"""Release notes pages, and questions about a release: the rule that keeps changelogs out of other answers.

A changelog names every feature, fix and option once, in a line each, for years of releases: it
matches nearly any question a little, and being long it holds many matching sections, so it is
cited where a guide page answers. What a release page *is* shows in its title or file name
(changelog, release notes, history, what's new, a version number as the file name) or its folder
(a changelog's, a blog's: posts announce releases and events), in every project; what a question about a release looks like shows in its words (release, changelog,
version, a version number). Only those questions see release pages.

Blog and announcement posts are the same kind of page ("Vite 5 is out!" names every new
feature once, on the day it shipped): a post is known by its folder (`blog/`, `news/`,
`posts/`), its dated file or folder name (`2023-11-16-vite-5.md`, `2023/11/16/…`), or
front matter that dates and signs it (`date` with `author`/`authors`: a docs page may carry a
date, rarely an author).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

RELEASE_NOTES = "release-notes"  # the collection a docs folder's release pages are put in

_TITLE_RE = re.compile(
    r"\b(change ?logs?|release ?notes?|releases|release announcements?|what'?s new|"
    r"version history|history|news)\b",
    re.IGNORECASE,
)
# The whole title is such a word, or it opens with one ("Changelog", "Release notes for 2.x").
_TITLE_OPENS_RE = re.compile(rf"^\W*{_TITLE_RE.pattern}", re.IGNORECASE)
_STEM_RE = re.compile(
    r"^(change[-_ ]?log|changes|history|news|blog|release[-_ ]?notes?|releases|whats[-_]?new|"
    r"(release|version|v)?[-_]?\d+(\.\d+)+\w*)$",
    re.IGNORECASE,
)
# A blog's posts announce releases and events ("Vite 5 is out!"): dated news, like release notes.
_FOLDER_RE = re.compile(
    r"^(change[-_]?log|changelogs|release[-_]?notes|releases|announce(ments)?|blogs?|_posts|news|posts)$",
    re.I,
)
# A post's dated name: `2023-11-16-title.md`, `2023-11-16_title`, or `2023/11/…` folders.
_DATED_STEM_RE = re.compile(r"^(19|20)\d\d-[01]\d-[0-3]\d(?:[-_]|$)")
_DATED_PATH_RE = re.compile(r"(?:^|/)(19|20)\d\d/[01]\d/")
# Words of a question about a release, in the languages the assistant answers in, and a version.
_QUESTION_RE = re.compile(
    r"\b(releases?|released|changelog|change log|release notes?|what'?s new|new in|changed in|"
    r"version|versions|history|"
    r"релиз\w*|верси\w+|изменени\w+|wersj\w+|wydani\w+|zmian\w*|versión|versiones|lanzamiento\w*|"
    r"novedades|cambios|versionshinweis\w*|änderung\w*|neuerung\w*)\b"
    # A version named as one ("v2", "v1.4", "in 2.0", "since 8.1"); not any number in a traceback.
    r"|\bv\d+(\.\d+)*\b|\b(in|since|to|from|before|after)\s+\d+\.\d+(\.\d+)*\b",
    re.IGNORECASE,
)


def is_release_notes(rel: str, title: str, meta: Mapping[str, object] | None = None) -> bool:
    """Whether a page is release notes or a post, by its title, file name or front matter (never by project)."""
    if _TITLE_OPENS_RE.match(title.strip()) and len(title) <= 60:
        return True
    path = rel.replace("\\", "/")
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    if _STEM_RE.match(stem) and stem.lower() not in ("index", "readme"):
        return True
    if any(_FOLDER_RE.match(part) for part in parts[:-1]):
        return True
    if _DATED_STEM_RE.match(stem) or _DATED_PATH_RE.search(path):
        return True
    if meta and meta.get("date") and (meta.get("author") or meta.get("authors")):
        return True
    # A built post is `<dated folder>/index.html`: the folder names it as a file would.
    return len(parts) > 1 and stem == "index" and bool(_DATED_STEM_RE.match(parts[-2]))


def about_release(question: str) -> bool:
    """Whether a question asks about a release: what changed, when, in which version."""
    return _QUESTION_RE.search(question) is not None
