"""Exact speed-ups of docutils' reStructuredText parser, installed once by the reader (rst.py).

Why: a Sphinx corpus spent about half its parse in docutils bookkeeping that gives the same
answer every time. Each speed-up below returns what docutils' own code returns, for every input
(tests/unit/tools/sources/generators/sphinx/test_docutils_fast.py compares them, and whole parses, with docutils'
originals; docutils' own test suite passes with them installed):

- width helpers: docutils measures every table line and title character by character
  (`unicodedata` lookups for combining marks and East Asian widths) so that wide and combining
  characters line up. No ASCII character combines or is wide, so ASCII text is answered
  directly; any other text goes to docutils' function (a page of large tables spent a fifth of
  its parse there);
- `nested_list_parse` reuses idle state machines, as docutils' `nested_parse` already does,
  instead of building a fifteen-state machine for every list;
- `State.unlink` also drops the state's transitions, the last cycle an unlinked machine keeps,
  so it is freed at once rather than by the cycle collector;
- `StateMachine.runtime_init` sets the four per-run values on every state in one loop.

Why patches and not our own parser: the reader's promise is docutils' parse of a page, with the
ids and structure the built site has; a second parser would have to copy docutils' rules and
follow them release by release. These change how fast a value is found, never which.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import docutils
from docutils import statemachine, utils
from docutils.parsers.rst import states, tableparser

# docutils' own functions, kept for text that is not ASCII (and for the tests).
ORIGINAL: dict[str, Callable[..., Any]] = {
    "column_indices": utils.column_indices,
    "column_width": utils.column_width,
    "strip_combining_chars": utils.strip_combining_chars,
    "pad_double_width": statemachine.StringList.pad_double_width,
    "unlink": statemachine.State.unlink,
    "nested_list_parse": states.RSTState.nested_list_parse,
    "runtime_init": statemachine.StateMachine.runtime_init,
}
# Idle list machines by (machine class, state classes, initial state, debug); see
# `nested_list_parse`. A machine is taken out while it runs, so nested lists never share one.
_LIST_MACHINES: dict[tuple[Any, ...], list[Any]] = {}


def column_indices(text: str) -> list[int]:
    """`docutils.utils.column_indices`: every index, for ASCII (nothing combines)."""
    if text.isascii():
        return list(range(len(text)))
    return ORIGINAL["column_indices"](text)  # type: ignore[no-any-return]


def column_width(text: str) -> int:
    """`docutils.utils.column_width`: the length, for ASCII (one column per character)."""
    if text.isascii():
        return len(text)
    return ORIGINAL["column_width"](text)  # type: ignore[no-any-return]


def strip_combining_chars(text: str) -> str:
    """`docutils.utils.strip_combining_chars`: ASCII text as it is (it has no combining marks)."""
    if text.isascii():
        return text
    return ORIGINAL["strip_combining_chars"](text)  # type: ignore[no-any-return]


def pad_double_width(self: statemachine.StringList, pad_char: str) -> None:
    """`StringList.pad_double_width`, leaving ASCII lines as they are (none is wide).

    Any other line is padded by docutils' own method (on a one-line list).
    """
    data = self.data
    for i, line in enumerate(data):
        if isinstance(line, str) and not line.isascii():
            one = statemachine.StringList([line])
            ORIGINAL["pad_double_width"](one, pad_char)
            data[i] = one.data[0]


def unlink(self: statemachine.State) -> None:
    """`State.unlink`, also dropping the state's transitions (bound methods of the state itself).

    docutils unlinks a nested state machine once its block is parsed "to remove circular
    references", but each transition still points back at its state, so every list, field list
    and definition list leaves a dozen cyclic states for the cycle collector to find (a tenth
    of a Sphinx corpus's parse). Without the transitions they are freed at once. An unlinked
    state is never run again: it no longer has a state machine.
    """
    ORIGINAL["unlink"](self)
    self.transitions = {}
    self.transition_order = []


def nested_list_parse(  # noqa: PLR0913 - docutils' signature
    self: states.RSTState,
    block: statemachine.StringList,
    input_offset: int,
    node: Any,
    initial_state: str,
    blank_finish: bool,
    blank_finish_state: str | None = None,
    extra_settings: dict[str, Any] | None = None,
    match_titles: bool = False,
    state_machine_class: Any = None,
    state_machine_kwargs: dict[str, Any] | None = None,
) -> tuple[int, bool]:
    """`RSTState.nested_list_parse`, reusing an idle state machine instead of building one.

    docutils builds a machine of fifteen states for every list, field list, definition list and
    directive option block (an eighth of a Sphinx corpus's parse), then unlinks it; for
    `nested_parse` it keeps idle machines for reuse (`RSTState.nested_sm_cache`). This does the
    same for lists, with docutils' default machine only (any other class or arguments go to
    docutils' own method). A reused machine starts as a new one does: `run` resets its input,
    position, current state and observers and re-initialises every state from the memo; the
    only values a state keeps between runs are the ones this method sets before each run
    (`blank_finish`, `extra_settings`: the same keys at every call for a given initial state).
    """
    settings = {} if extra_settings is None else extra_settings
    kwargs = self.nested_sm_kwargs
    classes = kwargs.get("state_classes")
    if (
        state_machine_class is not None
        or state_machine_kwargs is not None
        or match_titles
        or set(kwargs) != {"state_classes", "initial_state"}
        or not isinstance(classes, tuple)
    ):
        return ORIGINAL["nested_list_parse"](  # type: ignore[no-any-return]
            self,
            block,
            input_offset,
            node,
            initial_state,
            blank_finish,
            blank_finish_state=blank_finish_state,
            extra_settings=settings,
            match_titles=match_titles,
            state_machine_class=state_machine_class,
            state_machine_kwargs=state_machine_kwargs,
        )
    idle = _LIST_MACHINES.setdefault((self.nested_sm, classes, initial_state, self.debug), [])
    try:
        machine = idle.pop()
        machine.parent_state_machine = self.state_machine
    except IndexError:
        machine = self.nested_sm(
            debug=self.debug,
            parent_state_machine=self.state_machine,
            state_classes=classes,
            initial_state=initial_state,
        )
    if blank_finish_state is None:
        blank_finish_state = initial_state
    machine.states[blank_finish_state].blank_finish = blank_finish
    for key, value in settings.items():
        setattr(machine.states[initial_state], key, value)
    machine.run(block, input_offset, memo=self.memo, node=node, match_titles=match_titles)
    blank_finish = machine.states[blank_finish_state].blank_finish
    offset = machine.abs_line_offset()
    machine.parent_state_machine = machine.node = None  # hold no page's tree while idle
    idle.append(machine)  # after a clean run only: one that raised is dropped
    return offset, blank_finish


def runtime_init(self: statemachine.StateMachine) -> None:
    """`StateMachine.runtime_init` for a reStructuredText machine, in one loop.

    Every run of a machine (one per list, table cell and directive body) re-initialises its
    fifteen states: `RSTState.runtime_init` copies the memo, document, inliner and reporter
    from the machine onto each state, at two calls a state (10 us a run, 7 % of a Sphinx
    corpus's parse). This sets the same four values on every state directly. Any machine with
    a state of another kind, or a state that belongs to another machine, goes to docutils' own.
    """
    machine_states = self.states
    plain = self.__dict__.get("_rst_states_only")
    if plain is None or plain[0] != len(machine_states):
        only_rst = bool(machine_states) and all(
            type(state).runtime_init is _RST_RUNTIME_INIT and state.state_machine is self
            for state in machine_states.values()
        )
        plain = self._rst_states_only = (len(machine_states), only_rst)
    if not plain[1]:
        ORIGINAL["runtime_init"](self)
        return
    memo = self.memo
    document = memo.document
    inliner = memo.inliner
    reporter = document.reporter
    for state in machine_states.values():
        state.memo = memo
        state.document = document
        state.inliner = inliner
        state.reporter = reporter
    if not hasattr(reporter, "get_source_and_line"):
        reporter.get_source_and_line = self.get_source_and_line


# `RSTState.runtime_init`, which `runtime_init` inlines: only while its base's is docutils'
# empty one (checked by `install`).
_RST_RUNTIME_INIT = states.RSTState.runtime_init


# The docutils releases whose code these speed-ups were read against and tested with (the
# list machines and `unlink` are internals): another release parses with docutils' own code.
CHECKED_RELEASES = ((0, 23),)


def install() -> bool:
    """Put the shortcuts where docutils looks them up (its modules import some by name).

    Idempotent; the originals stay in `ORIGINAL`. False (nothing changed) under a docutils
    release the speed-ups were not checked against: slower, never different.
    """
    if tuple(docutils.__version_info__[:2]) not in CHECKED_RELEASES:
        return False
    utils.column_indices = column_indices  # statemachine calls it as `utils.column_indices`
    utils.column_width = column_width
    utils.strip_combining_chars = strip_combining_chars
    states.column_width = column_width
    states.strip_combining_chars = strip_combining_chars
    tableparser.strip_combining_chars = strip_combining_chars
    statemachine.StringList.pad_double_width = pad_double_width
    statemachine.State.unlink = unlink
    states.RSTState.nested_list_parse = nested_list_parse
    if statemachine.StateWS.runtime_init is statemachine.State.runtime_init:
        statemachine.StateMachine.runtime_init = runtime_init
    return True
