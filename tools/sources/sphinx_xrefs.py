"""Where a Sphinx site's cross-references lead: labels, documents and described objects by page.

A `:ref:`, `:doc:` or object role (`:func:`, `:confval:`, `:fixture:`…) on one page names a
target on another, and the built site links it (`../how-to/fixtures.html#label-id`). Each page
is parsed on its own (possibly in a worker process), so the map from a target to its page is
built before, from every source file's text with a few line patterns: the same single read of
each file that finds the toctrees (`SphinxSite.scan`). Only what can be known that way counts;
anything else stays unresolved and the reference shows as text, never as a broken link:

- labels (`.. _name:` not followed by a URL) with the page they sit on, the id Sphinx serves
  (docutils' `make_id` of the normalised name; unknown when that id is already taken on the
  page, where docutils would choose `idN`) and the title of the section right after, if any;
- documents with their first title (what a bare `:doc:` shows);
- described objects with the ids `tools.sources.rst_sphinx` gives them: Python objects (with the
  `module` / `currentmodule` and class nesting in force), `option`s (with `program`),
  `confval`, `envvar`, and the project's `add_object_type` / `add_crossref_type` types.

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

from tools.sources.rst_sphinx import (
    PY_ROLES,
    UNKNOWN_CLASS,
    RstOptions,
    object_id,
    option_names,
    option_prefix,
    py_name,
    std_object_name,
)

__all__ = [
    "PY_ROLES",
    "PageTargets",
    "XrefTargets",
    "merge_targets",
    "recording_xref_uses",
    "scan_page",
]

# Python domain directives (also under `py:`) and the autodoc ones, as rst_sphinx registers them.
_PY_DIRECTIVES = frozenset(
    "function class method attribute data exception decorator decoratormethod classmethod "
    "staticmethod property type autofunction autoclass automethod autoattribute autoexception "
    "autodata autoproperty autodecorator".split()
)
_STD_DIRECTIVES = frozenset({"confval", "envvar"})
_NO_INDEX = re.compile(r"^\s+:(?:no-?index|no-typesetting):", re.MULTILINE)
_MODULE_OPTION = re.compile(r"^\s+:module:[ \t]*(\S+)", re.MULTILINE)

_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?P<name>[A-Za-z][\w:+.-]*)[ \t]*::(?P<arg>.*)$"
)
# `.. _label:` or ``.. _`label with: colons`:``; `.. __:` (anonymous) and `.. _x: URL` are not labels.
_LABEL = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+_(?P<name>`[^`]+`|[^`:_ \t][^:]*?):[ \t]*$")
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
# Inline markup in a title line, removed to show its words (`The ``tmp_path`` fixture`).
_TITLE_ROLE = re.compile(r":[\w:+.-]+:(?=`)")
_TITLE_MARKUP = re.compile(r"``|(?<!\w)[*`]+|[*`]+(?!\w)|`_{1,2}|\|")
_EXPLICIT_TARGET = re.compile(r"^(.+?)\s*<(.*?)>$")


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


def _label_name(raw: str) -> str:
    name = raw[1:-1] if raw.startswith("`") else raw
    return str(nodes.fully_normalize_name(name.replace("\\", "")))


def title_words(line: str) -> str:
    """A title line's words without inline markup: what a link to its section shows."""
    line = _TITLE_ROLE.sub("", line.strip())
    line = _EXPLICIT_TARGET.sub(r"\1", line) if line.endswith(">`") else line
    return " ".join(_TITLE_MARKUP.sub("", line).split())


def _title_at(lines: Sequence[str], i: int) -> tuple[str, int] | None:
    """The section title starting at line `i` (underlined, or over- and underlined) and its length."""
    if i + 1 >= len(lines):
        return None
    first, second = lines[i], lines[i + 1]
    if _ADORNMENT.match(first) and i + 2 < len(lines):
        third = lines[i + 2]
        if second.strip() and _ADORNMENT.match(third) and third.strip()[0] == first.strip()[0]:
            return title_words(second), 3
        return None
    if first.strip() and not first[0].isspace() and _ADORNMENT.match(second):
        if not _ADORNMENT.match(first):
            return title_words(first), 2
    return None


def scan_page(docname: str, text: str, options: RstOptions) -> PageTargets:
    """The targets one source file defines, read from its lines (no parse; see the module doc)."""
    page = PageTargets(docname)
    lines = text.splitlines()
    taken: set[str] = set()  # ids in document order, as docutils hands them out
    pending: list[str] = []  # labels waiting for what follows them
    module, program = "", ""
    # Enclosing Python objects: (indent, the class in force inside, the module to restore).
    scopes: list[tuple[int, str, str | None]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        label = _LABEL.match(line)
        if label and not _indented_after(lines, i, len(label.group("indent").expandtabs())):
            name = _label_name(label.group("name"))
            anchor = nodes.make_id(name)
            if name and name not in page.labels:
                page.labels[name] = Label(docname, "" if anchor in taken else anchor, "")
                taken.add(anchor)
                pending.append(name)
            i += 1
            continue
        if not line.strip():
            i += 1
            continue
        title = _title_at(lines, i)
        if title is not None:
            words, size = title
            page.title = page.title or words
            for name in pending:
                page.labels[name] = Label(docname, page.labels[name].anchor, words)
            taken.add(nodes.make_id(words))
            pending.clear()
            i += size
            continue
        pending.clear()
        directive = _DIRECTIVE.match(line)
        if directive:
            indent = len(directive.group("indent").expandtabs())
            name = directive.group("name").lower()
            arg = directive.group("arg").strip()
            body = _options_block(lines, i + 1)
            while scopes and scopes[-1][0] >= indent:
                restore = scopes.pop()[2]
                module = module if restore is None else restore
            module, program = _object_targets(
                page, taken, name, arg, body, module, program, scopes, indent, options
            )
        i += 1
    return page


def _indented_after(lines: Sequence[str], i: int, indent: int) -> bool:
    """Whether line `i` is followed by a line indented deeper (a target's URL: not a label)."""
    if i + 1 >= len(lines) or not lines[i + 1].strip():
        return False
    after = lines[i + 1].expandtabs()
    return len(after) - len(after.lstrip()) > indent


def _options_block(lines: Sequence[str], start: int) -> str:
    """The directive's option lines (`:no-index:`…), up to the first blank line."""
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    return "\n".join(lines[start:end])


def _object_targets(
    page: PageTargets,
    taken: set[str],
    directive: str,
    arg: str,
    body: str,
    module: str,
    program: str,
    scopes: list[tuple[int, str, str | None]],
    indent: int,
    options: RstOptions,
) -> tuple[str, str]:
    """Record what one directive describes; returns the module and program in force after it."""
    base = directive.split(":", 1)[1] if directive.startswith(("py:", "std:")) else directive
    like = options.domain_directives.get(directive)
    if like is not None:  # a project's directive of a Sphinx object class: read as that one
        directive = base = like
    if base in {"module", "currentmodule", "automodule"}:
        scopes.clear()
        name = "" if arg == "None" else arg
        if base != "currentmodule" and name and not _NO_INDEX.search(body):
            _add(page, taken, ("module", name), f"module-{name}")
        return name, program
    if base == "program":
        return module, "" if arg == "None" else "-".join(arg.split())
    if base == "describe-class":  # a project's class naming itself: its content unknown too
        scopes.append((indent, UNKNOWN_CLASS, None))
        return module, program
    if not arg or _NO_INDEX.search(body):
        return module, program
    if base in _PY_DIRECTIVES and (directive == base or directive.startswith("py:")):
        current = scopes[-1][1] if scopes else ""
        option = _MODULE_OPTION.search(body)
        obj = py_name(base, arg, module, current, option.group(1) if option else "")
        if obj is not None:
            _add(page, taken, ("py", obj.dotted), object_id(taken, "", obj.dotted))
            scopes.append((indent, obj.inner_class, None if obj.inner_module is None else module))
            if obj.inner_module is not None:
                module = obj.inner_module
    elif base == "option":
        prefix = option_prefix(program)
        for name in option_names(arg):
            node_id = object_id(taken, prefix, name)
            _add(page, taken, ("option", f"{program} {name}".strip()), node_id)
    elif base in options.crossref_types:
        name = " ".join(arg.split())
        _add(page, taken, (base, name), object_id(taken, f"std:{base}", name))
    elif base in _STD_DIRECTIVES or base in options.object_types:
        name = std_object_name(base, arg)
        _add(page, taken, (base, name), object_id(taken, base, name))
    return module, program


def _add(page: PageTargets, taken: set[str], key: tuple[str, str], node_id: str) -> None:
    taken.add(node_id)
    page.objects.setdefault(key, node_id)


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
