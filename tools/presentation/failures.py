"""How a tool says that its source failed, so no failure ever reads as "nothing found".

Two forms, written here and read here (the offline answer names the failing source from them):
- a tool whose source could not answer at all returns an error result (`ToolMessage.status ==
  "error"`) whose text is `unavailable_text(...)`;
- a result that is good but partial (sections not loaded, the docs served from the cached copy
  because the site misbehaved) ends with a line `partial_note(...)`.
"""

from __future__ import annotations

import re

from langchain_core.tools import ToolException

# What each source is called when a tool result (and the answer) names it.
SOURCE_LABELS = {"docs": "The documentation", "kb": "The support articles", "code": "The code"}
# The source behind each tool that reads one.
TOOL_SOURCES = {
    "search_docs": "docs",
    "get_doc_page": "docs",
    "search_support_articles": "kb",
    "get_article_content": "kb",
    "search_code": "code",
    "list_directory": "code",
    "read_code_file": "code",
}
_UNAVAILABLE = re.compile(r"^(?P<label>.+?) could not be reached: (?P<reason>.+?)\. This is ")
_PARTIAL = re.compile(r"^Note: (?P<label>.+?) (?:is|are) (?P<reason>(?:partly|served).+?)\.$", re.M)


def unavailable_text(source: str, reason: str) -> str:
    """The text of an error result: which source failed, why, and what the model must not say."""
    label = SOURCE_LABELS.get(source, source)
    return (
        f"{label} could not be reached: {reason.rstrip('.')}. This is a failure of the source, "
        "not an empty result: tell the user which source failed and why; do not say that "
        "nothing was found."
    )


def unavailable(source: str, reason: str) -> ToolException:
    """The exception a tool raises (with `handle_tool_error`) when its source failed."""
    return ToolException(unavailable_text(source, reason))


def partial_note(source: str, state: str) -> str:
    """A line ending a good result that is partial: `state` starts "partly" or "served"."""
    label = SOURCE_LABELS.get(source, source)
    verb = "are" if label.endswith("s") else "is"
    return f"Note: {label.lower()} {verb} {state.rstrip('.')}."


def unavailable_reason(text: str) -> tuple[str, str] | None:
    """(source label, reason) of an `unavailable_text`, else None."""
    m = _UNAVAILABLE.match(text.strip())
    return (m["label"], m["reason"]) if m else None


def partial_reasons(text: str) -> list[tuple[str, str]]:
    """(source label, state) of every `partial_note` line in a result."""
    return [(m["label"], m["reason"]) for m in _PARTIAL.finditer(text)]


def source_of_label(label: str) -> str:
    """The source key ("docs", "kb", "code") a label names; the label itself when unknown."""
    for key, name in SOURCE_LABELS.items():
        if name.lower() == label.lower():
            return key
    return label
