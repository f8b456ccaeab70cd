"""Where a Sphinx site's cross-references lead: labels, documents and described objects, by page.

A `:ref:`, `:doc:` or object role (`:func:`, `:confval:`, `:fixture:`…) on one page names a
target on another, and the built site links it (`../how-to/fixtures.html#label-id`). Each page
is parsed on its own (possibly in a worker process), so the map from a target to its page
(`XrefTargets`) is built before, from every source file's text (tools/sources/generators/sphinx/xref_scan.py).

Object roles become links only with `RstOptions.link_objects` (off by default). An object
role is an API name, what MkDocs autorefs are in Markdown, which the MkDocs reader shows as text;
as links, every code name written anywhere becomes an anchor word of the one reference page
that describes the objects, and in the measured Sphinx corpus that page then outranked the
guides on most how-to questions. `:ref:` and `:doc:` are the site's prose links: always links.

A target described on two pages is ambiguous (Sphinx warns and keeps one): left unresolved.
URLs are relative to the linking page as the HTML builder writes them, percent-encoded, so no
label, file name or role text can turn into another scheme or another site.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from docutils import nodes

# The targets the page being read looked up, each with what it found (`recording_xref_uses`).
_USES: ContextVar[dict[str, str] | None] = ContextVar("xref_uses", default=None)


@contextmanager
def recording_xref_uses() -> Iterator[dict[str, str]]:
    """Collect every target a page's references look up while it is read, with what each found.

    Why: a bare `:ref:` shows its section's title and a `:doc:` its page's, so a page shows
    text that lives on other pages. When a label's title changes, or a target appears, moves or
    goes, the pages that looked it up must be read again though their own files did not change
    (`XrefTargets.uses_changed`, asked by the index's sync). Lookups that found nothing count
    too: a reference shown as text becomes a link once its target exists.
    """
    uses: dict[str, str] = {}
    token = _USES.set(uses)
    try:
        yield uses
    finally:
        _USES.reset(token)


def _found(value: object) -> str:
    """A short, stable fingerprint of what a lookup found (None included)."""
    return hashlib.sha1(repr(value).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Label:
    """A label's page, the id the page serves for it ("" when unknown), and its section's title."""

    docname: str
    anchor: str
    title: str


@dataclass
class PageTargets:
    """What one source file defines: its title, its labels and its described objects."""

    docname: str
    title: str = ""
    labels: dict[str, Label] = field(default_factory=dict)
    objects: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass(frozen=True)
class XrefTargets:
    """Every page's targets: what the renderer resolves a cross-reference with.

    `objects` keys are (kind, name): `py` for Python objects by dotted name, `module`,
    `option` by `program name` (`-k` or `pytest -k`), else the directive's name (`confval`).
    """

    suffix: str = ".html"
    docs: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, Label] = field(default_factory=dict)
    objects: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    # The builder the site is built with: `html` (`a/b.html`) or `dirhtml` (`a/b/`).
    builder: str = "html"

    def href(self, from_doc: str, to_doc: str, anchor: str = "") -> str:
        """The link from one page to another (or to an id on it), as the site's builder writes it."""
        if self.builder == "dirhtml":
            path = _relative_uri(_dirhtml_uri(from_doc), _dirhtml_uri(to_doc))
            if not path:  # the page itself; Sphinx writes an empty `refuri` as `#`
                return "#" + quote(anchor, safe="._-~")
        else:
            folder = posixpath.dirname(from_doc)
            path = posixpath.relpath(to_doc + self.suffix, folder or ".")
        url = quote(path, safe="/._-~")
        if url.startswith("/"):  # never a site-absolute or protocol-relative address
            url = "./" + url.lstrip("/")
        return url + ("#" + quote(anchor, safe="._-~") if anchor else "")

    def label(self, target: str) -> Label | None:
        """The label a `:ref:` names (labels are case-insensitive)."""
        found: Label | None = self._lookup("label", nodes.fully_normalize_name(target))
        return found

    def doc_title(self, doc: str) -> str:
        """A document's first title ("" when it has none or is unknown)."""
        return self._lookup("doc", doc) or ""

    def object(self, kind: str, name: str) -> tuple[str, str] | None:
        """(document, id) of a described object by its kind and name."""
        found: tuple[str, str] | None = self._lookup("object", f"{kind}\t{name}")
        return found

    def _lookup(self, table: str, key: str) -> Any:
        """One entry of a table (`label`, `doc`, `object`), noted for the page being read."""
        value = self._table(table, key)
        uses = _USES.get()
        if uses is not None:
            uses[f"{table}\t{key}"] = _found(value)
        return value

    def _table(self, table: str, key: str) -> Any:
        """An entry as it is now (None when absent): what `_lookup` reads and `uses_changed` checks."""
        if table == "label":
            return self.labels.get(key)
        if table == "doc":
            return self.docs.get(key)
        if table == "object":
            kind, _, name = key.partition("\t")
            return self.objects.get((kind, name))
        if table == "tail":
            found = [
                v for (kind, name), v in self.objects.items() if kind == "py" and name.endswith(key)
            ]
            return found[0] if len(found) == 1 else None
        return None

    def uses_changed(self, uses: Mapping[str, str]) -> bool:
        """Whether any lookup a page made (`recording_xref_uses`) would now find something else."""
        for use, fingerprint in uses.items():
            table, _, key = use.partition("\t")
            if _found(self._table(table, key)) != fingerprint:
                return True
        return False

    def doc(self, from_doc: str, target: str) -> str | None:
        """The document a `:doc:` names: relative to the linking page, or from the root with `/`."""
        target = target.strip()
        if not target or "://" in target or "\\" in target:
            return None
        folder = posixpath.dirname(from_doc)
        path = target[1:] if target.startswith("/") else posixpath.join(folder, target)
        path = posixpath.normpath(path)
        if path.startswith(("../", "/")) or path == "..":
            return None
        return path if self._lookup("doc", path) is not None else None

    def python(
        self, role: str, target: str, module: str, classes: Sequence[str]
    ) -> tuple[str, str] | None:
        """A Python object as Sphinx's `find_obj` finds it: as written, in the class, in the module.

        A leading `.` searches every object whose dotted name ends so (when only one does).
        """
        if role == "mod":
            return self.object("module", target)
        target = target.removesuffix("()")
        if target.startswith("."):
            found: tuple[str, str] | None = self._lookup("tail", "." + target.lstrip("."))
            return found
        scope = classes[-1] if classes else ""  # Sphinx's `py:class`: the innermost class
        candidates = [target]
        if scope:
            candidates.append(f"{scope}.{target}")
        if module:
            candidates.append(f"{module}.{target}")
            if scope:
                candidates.append(f"{module}.{scope}.{target}")
        for name in candidates:
            hit = self.object("py", name)
            if hit is not None:
                return hit
        return None

    def option(self, target: str, program: str) -> tuple[str, str] | None:
        """An `:option:`: `-k` of the current program, or `prog -k` naming its program."""
        target = " ".join(target.split())
        if " " in target:  # `prog sub -k`: the program's words, joined as its ids join them
            words, target = target.rsplit(" ", 1)
            program = "-".join(words.split())
        names = [target, re.split(r"[=\[]", target, maxsplit=1)[0]]
        for prog in dict.fromkeys((program, "")):
            for name in names:
                hit = self.object("option", f"{prog} {name}".strip())
                if hit is not None:
                    return hit
        return None


def _dirhtml_uri(docname: str) -> str:
    """A page's address under Sphinx's DirectoryHTMLBuilder (`get_target_uri`): `a/` for `a`."""
    if docname == "index":
        return ""
    if docname.endswith("/index"):
        return docname[: -len("index")]
    return docname + "/"


def _relative_uri(base: str, to: str) -> str:
    """`to` relative to the page at `base`, as `sphinx.util.osutil.relative_uri` writes it."""
    b2, t2 = base.split("/"), to.split("/")
    while len(b2) > 1 and len(t2) > 1 and b2[0] == t2[0]:
        b2.pop(0)
        t2.pop(0)
    if b2 == t2:
        return ""
    if len(b2) == 1 and t2 == [""]:
        return "./"
    return "../" * (len(b2) - 1) + "/".join(t2)


def merge_targets(
    pages: Iterable[PageTargets], suffix: str = ".html", builder: str = "html"
) -> XrefTargets:
    """One site's targets from its pages'; a label or object on two pages is left out (ambiguous)."""
    docs: dict[str, str] = {}
    labels: dict[str, Label] = {}
    objects: dict[tuple[str, str], tuple[str, str]] = {}
    twice_labels: set[str] = set()
    twice_objects: set[tuple[str, str]] = set()
    for page in pages:
        docs[page.docname] = page.title
        for name, label in page.labels.items():
            if name in labels:
                twice_labels.add(name)
            labels[name] = label
        for key, node_id in page.objects.items():
            if key in objects:
                twice_objects.add(key)
            objects[key] = (page.docname, node_id)
    for name in twice_labels:
        del labels[name]
    for key in twice_objects:
        del objects[key]
    return XrefTargets(suffix=suffix, docs=docs, labels=labels, objects=objects, builder=builder)
