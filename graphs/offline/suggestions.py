"""Offline follow-up suggestions: one per heading the last answer cited, in the user's language.

The suggestion call speaks the protocol in `graphs.prompts` (marker, transcript headers); offline,
the suggestions are emitted as fenced JSON so they pass through the same parser as a real model's.
The cited labels are read from the offline model's own answer (the transcript), not from tool output.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.offline.language import resolve_language
from graphs.prompts import ASSISTANT_HEADER, SUGGESTIONS_MARKER, USER_HEADER

_MORE_ABOUT = {
    "en": "Tell me more about {topic}",
    "ru": "Расскажи подробнее: {topic}",
    "pl": "Powiedz mi więcej o: {topic}",
    "it": "Dimmi di più su: {topic}",
    "de": "Erzähl mir mehr über: {topic}",
    "es": "Cuéntame más sobre: {topic}",
    "fr": "Dis-m'en plus sur : {topic}",
}
# Cited passages are labelled "**Title › Heading** — cite" (docs_agent) or "- Title › Heading: …" (deep_agent).
_CITED_LABEL_RE = re.compile(r"^(?:\*\*(.+?)\*\* — |- (.+? › .+?): )", re.MULTILINE)


def is_suggestions_request(messages: Sequence[BaseMessage]) -> bool:
    """True when the first message is the suggestion call's system prompt."""
    return (
        bool(messages) and messages[0].type == "system" and SUGGESTIONS_MARKER in messages[0].text
    )


def offline_suggestions(messages: Sequence[BaseMessage], language: str) -> str:
    """Deterministic follow-ups: one per heading cited in the last answer, in the user's language."""
    limit_m = re.search(r"up to (\d+)", messages[0].text)
    limit = int(limit_m.group(1)) if limit_m else 3
    text = "\n".join(m.text for m in messages[1:])
    blocks = re.split(
        rf"^({re.escape(USER_HEADER)}|{re.escape(ASSISTANT_HEADER)})$", text, flags=re.MULTILINE
    )
    questions = [
        blocks[i + 1].strip() for i in range(1, len(blocks) - 1, 2) if blocks[i] == USER_HEADER
    ]
    answers = [blocks[i + 1] for i in range(1, len(blocks) - 1, 2) if blocks[i] == ASSISTANT_HEADER]
    lang = resolve_language(language, questions[-1] if questions else "")
    template = _MORE_ABOUT.get(lang, _MORE_ABOUT["en"])
    asked = {q.lower() for q in questions}
    suggests: list[dict[str, Any]] = []
    for bold, bullet in _CITED_LABEL_RE.findall(answers[-1] if answers else ""):
        label = bold or bullet
        title, _, heading = (part.strip() for part in label.partition(" › "))
        prompt = template.format(topic=f"{heading} ({title})" if heading else title)
        if (
            len(suggests) >= limit
            or prompt.lower() in asked
            or any(s["prompt"] == prompt for s in suggests)
        ):
            continue
        short = heading if heading and all(s["label"] != heading for s in suggests) else title
        if len(short) > 40:
            short = short[:40].rsplit(" ", 1)[0] + "…"
        suggests.append({"label": short, "prompt": prompt, "position": len(suggests)})
    return "```json\n" + json.dumps({"suggests": suggests}, ensure_ascii=False, indent=1) + "\n```"
