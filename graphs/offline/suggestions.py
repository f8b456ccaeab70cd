"""Offline follow-up suggestions: questions about where the last answer leads, in the user's language.

Topics come from the answer itself, best first: the sections of the pages it read but did not quote
("More on these pages"), the closest topics when it found nothing, then the headings it quoted.
Every turn gets suggestions: with no topic at all, a few starter questions.

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

from graphs.offline.language import phrase, resolve_language
from graphs.prompts import ASSISTANT_HEADER, SUGGESTIONS_MARKER, USER_HEADER

# Cited passages are labelled "**Title › Heading** — cite" (docs_agent) or "- Title › Heading: …" (deep_agent).
_CITED_LABEL_RE = re.compile(r"^(?:\*\*(.+?)\*\* — |- (.+? › .+?): )", re.MULTILINE)
# When a turn finds nothing quotable and nothing close either: where a newcomer usually starts.
_STARTERS = {
    "en": [
        "How do I get started?",
        "Which settings can I configure?",
        "Which sources can it search?",
    ],
    "ru": ["С чего начать?", "Какие настройки можно изменить?", "В каких источниках он ищет?"],
    "pl": ["Od czego zacząć?", "Jakie ustawienia mogę zmienić?", "W jakich źródłach szuka?"],
    "it": ["Da dove comincio?", "Quali impostazioni posso configurare?", "In quali fonti cerca?"],
    "de": ["Wie fange ich an?", "Welche Einstellungen gibt es?", "In welchen Quellen sucht er?"],
    "es": ["¿Cómo empiezo?", "¿Qué ajustes puedo configurar?", "¿En qué fuentes busca?"],
    "fr": [
        "Par où commencer ?",
        "Quels réglages puis-je configurer ?",
        "Dans quelles sources cherche-t-il ?",
    ],
}


def _listed(answer: str, key: str, lang: str) -> list[str]:
    """The topics of the answer's "**<phrase>:** a · b · c" line (`more_on_pages`, `closest`)."""
    m = re.search(rf"^\*\*{re.escape(phrase(key, lang))}:\*\* (.+)$", answer, re.MULTILINE)
    return [t.strip() for t in m.group(1).split(" · ") if t.strip()] if m else []


def _topics(answer: str, lang: str) -> list[str]:
    """What to offer next, best first.

    The unread sections of the pages read, the closest topics when nothing was found, then the
    headings (or titles) the answer quoted.
    """
    topics = _listed(answer, "more_on_pages", lang) + _listed(answer, "closest", lang)
    for bold, bullet in _CITED_LABEL_RE.findall(answer):
        title, _, heading = (part.strip() for part in (bold or bullet).partition(" › "))
        topics.append(heading or title)
    return topics


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
    asked = {q.lower() for q in questions}
    suggests: list[dict[str, Any]] = []
    prompts = [
        phrase("ask_about", lang).format(topic=topic)
        for topic in _topics(answers[-1] if answers else "", lang)
    ] or _STARTERS.get(lang, _STARTERS["en"])
    for prompt in prompts:
        if len(suggests) >= limit:
            break
        if prompt.lower() in asked or any(s["prompt"] == prompt for s in suggests):
            continue
        topic = re.search(r"[“«„\"](.+)[”»“\"]", prompt)
        short = topic.group(1) if topic else prompt
        if len(short) > 40:
            short = short[:40].rsplit(" ", 1)[0] + "…"
        suggests.append({"label": short, "prompt": prompt, "position": len(suggests)})
    return "```json\n" + json.dumps({"suggests": suggests}, ensure_ascii=False, indent=1) + "\n```"
