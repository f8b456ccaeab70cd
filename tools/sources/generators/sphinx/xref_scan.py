"""The cross-reference targets of one page, read from its lines before any page is parsed in full.

Only what can be known that way counts; anything else stays unresolved and the reference shows
as text, never as a broken link:

- labels (`.. _name:` not followed by a URL) with the page they sit on, the id Sphinx serves
  (docutils' `make_id` of the normalised name; unknown when that id is already taken on the
  page, where docutils would choose `idN`) and the title of the section right after, if any;
- documents with their first title (what a bare `:doc:` shows);
- described objects with the ids the directives give them (tools/sources/generators/sphinx/ids.py):
  Python objects (with the `module` / `currentmodule` and class nesting in force), `option`s
  (with `program`), `confval`, `envvar`, and the project's `add_object_type` /
  `add_crossref_type` types.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docutils import nodes

from tools.sources.generators.sphinx.ids import (
    UNKNOWN_CLASS,
    object_id,
    option_names,
    option_prefix,
    py_name,
    std_object_name,
)
from tools.sources.generators.sphinx.options import RstOptions
from tools.sources.generators.sphinx.targets import Label, PageTargets

# Python domain directives (also under `py:`) and the autodoc ones, as directives/registry.py registers them.
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
