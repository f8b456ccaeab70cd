"""The docutils shortcuts give docutils' own answers: on the helpers, and on whole parses."""

from __future__ import annotations

import pytest
from docutils import frontend, statemachine, utils
from docutils.parsers.rst import Parser, states, tableparser

import tools.sources.generators.sphinx.rst  # noqa: F401 - the reader installs the shortcuts on import
from tools.sources.generators.sphinx import docutils_fast

SAMPLES = [
    "",
    "plain ASCII text, with punctuation: =+-|*`",
    "".join(chr(c) for c in range(128)),  # every ASCII character, controls included
    "=" * 300 + "  " + "-" * 40,
    "A t\u0306ab\u0306le\u0306",  # combining breves
    "cafe\u0301 and na\u00efve",  # combining acute, precomposed diaeresis
    "\u65e5\u672c\u8a9e\u306e\u8868",  # wide (CJK)
    "\uff26\uff55\uff4c\uff4c width",  # full-width Latin
    "emoji \U0001f600 and \u00e9",
    "mixed \u4e2d\u6587 text\u0301 | cell",
]


def _restore_docutils(monkeypatch: pytest.MonkeyPatch) -> None:
    """docutils' own functions back in every place the shortcuts were put."""
    original = docutils_fast.ORIGINAL
    monkeypatch.setattr(utils, "column_indices", original["column_indices"])
    monkeypatch.setattr(utils, "column_width", original["column_width"])
    monkeypatch.setattr(utils, "strip_combining_chars", original["strip_combining_chars"])
    monkeypatch.setattr(states, "column_width", original["column_width"])
    monkeypatch.setattr(states, "strip_combining_chars", original["strip_combining_chars"])
    monkeypatch.setattr(tableparser, "strip_combining_chars", original["strip_combining_chars"])
    monkeypatch.setattr(statemachine.StringList, "pad_double_width", original["pad_double_width"])
    monkeypatch.setattr(statemachine.State, "unlink", original["unlink"])
    monkeypatch.setattr(states.RSTState, "nested_list_parse", original["nested_list_parse"])
    monkeypatch.setattr(statemachine.StateMachine, "runtime_init", original["runtime_init"])


def test_the_reader_installs_the_shortcuts() -> None:
    assert utils.column_indices is docutils_fast.column_indices
    assert states.column_width is docutils_fast.column_width
    assert tableparser.strip_combining_chars is docutils_fast.strip_combining_chars
    assert states.RSTState.nested_list_parse is docutils_fast.nested_list_parse
    assert statemachine.StateMachine.runtime_init is docutils_fast.runtime_init


def test_a_docutils_release_not_checked_keeps_docutils_own_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import docutils

    monkeypatch.setattr(docutils, "__version_info__", (0, 99, 0, "final", 0, True))
    monkeypatch.setattr(utils, "column_indices", docutils_fast.ORIGINAL["column_indices"])
    monkeypatch.setattr(
        states.RSTState, "nested_list_parse", docutils_fast.ORIGINAL["nested_list_parse"]
    )
    assert docutils_fast.install() is False
    assert utils.column_indices is docutils_fast.ORIGINAL["column_indices"]
    assert states.RSTState.nested_list_parse is docutils_fast.ORIGINAL["nested_list_parse"]


@pytest.mark.parametrize("text", SAMPLES)
def test_width_helpers_answer_as_docutils_does(text: str) -> None:
    original = docutils_fast.ORIGINAL
    assert docutils_fast.column_indices(text) == original["column_indices"](text)
    assert docutils_fast.column_width(text) == original["column_width"](text)
    assert docutils_fast.strip_combining_chars(text) == original["strip_combining_chars"](text)


def test_padding_of_wide_characters_is_docutils_own() -> None:
    ours = statemachine.StringList(list(SAMPLES))
    theirs = statemachine.StringList(list(SAMPLES))
    docutils_fast.pad_double_width(ours, "\x00")
    docutils_fast.ORIGINAL["pad_double_width"](theirs, "\x00")
    assert ours.data == theirs.data
    assert any("\x00" in line for line in ours.data)  # the wide samples were padded


# Documents that exercise every list machine (nested, in sequence, reused), tables with wide
# and combining characters, and titles measured by their column width.
DOCUMENTS = [
    """\
Title
=====

#. auto one
#. auto two

   3. explicit, nested
   4. next

      - bullet in enumerated
      - bullet

        term
           definition in a bullet
        other term : classifier
           definition

a. letters
b. continue

:field: value
:other field: value
   with more lines

-a         option a
--long=ARG  long option

| line block
|    indented line
""",
    """\
5. starts at five
6. six

i. roman
ii. two

.. |sub| replace:: substituted *text*

Text with |sub|.

.. note:: A directive with a list

   * one
   * two
""",
    """\
Tables
======

=====  =============  ======
A      B              C
=====  =============  ======
x      t\u0306ab\u0306le\u0306    wide \u65e5\u672c
yy     plain          z
=====  =============  ======

+----------+------------+
| grid     | \u4e2d\u6587       |
+==========+============+
| cell     | - a list   |
|          | - in grid  |
+----------+------------+

\u65e5\u672c\u8a9e
======

Caf\u00e9\u0301
=====
""",
    """\
#. again auto

   #. nested auto

#. back

Term
   Definition
""",
]


def _pformats(documents: list[str]) -> list[str]:
    settings = frontend.get_default_settings(Parser)
    settings.report_level = 5
    settings.halt_level = 5
    settings.warning_stream = False
    out = []
    for source in documents:
        document = utils.new_document("<test>", settings)
        Parser().parse(source, document)
        out.append(document.pformat())
    return out


def test_parses_are_docutils_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # In sequence and twice over, so list machines are reused across lists and documents.
    ours = _pformats(DOCUMENTS * 2)
    _restore_docutils(monkeypatch)
    theirs = _pformats(DOCUMENTS * 2)
    assert ours == theirs
    assert "enumerated_list" in ours[0] and "table" in ours[2]
