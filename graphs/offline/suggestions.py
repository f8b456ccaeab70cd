"""Offline follow-up suggestions: questions about where the last answer leads, in the user's language.

Topics come from the answer itself, best first: the sections of the pages it read but did not quote
("More on these pages"), the closest topics when it found nothing, then the headings it quoted.
Every turn gets suggestions: with no topic at all, a few starter questions.

A heading is not a question ("Feedback", "Using the annotated pattern"): each topic is turned into
one a user would ask next (`follow_up_question`). Headings are cleaned of markup first
(`clean_topic`), whatever the page's format left, then of what only marks their place on the page
("3.", "Step 2:", "(Optional)", emoji: `graphs.offline.questions.strip_labels`). In English the
heading's own shape decides the question (`graphs.offline.questions.english_question`): an action
asks how to do it, a name what it is, a version what changed in it. Other languages keep the topic
as written (the pages' headings are in the pages' language) inside a question of their own.

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
from graphs.offline.questions import english_question, strip_labels
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


def _topics(answer: str, lang: str) -> list[tuple[str, str]]:
    """What to offer next, best first, each with the title of the page it is on ("" if unknown).

    The unread sections of the pages read, the closest topics when nothing was found, then the
    headings (or titles) the answer quoted.
    """
    cited: list[tuple[str, str]] = []
    for bold, bullet in _CITED_LABEL_RE.findall(answer):
        title, _, heading = (part.strip() for part in (bold or bullet).partition(" › "))
        cited.append((heading, title) if heading else (title, ""))
    page = next((title for heading, title in cited if title), "")
    return [
        *((t, page) for t in _listed(answer, "more_on_pages", lang)),
        *((t, "") for t in _listed(answer, "closest", lang)),
        *cited,
    ]


def _role_text(target: str) -> str:
    """What Sphinx shows for a role's target: "title <target>" → "title", "~a.b.Node" → "Node"."""
    titled = re.fullmatch(r"\s*(.*?)\s*<[^<>]*>\s*", target)
    if titled and titled.group(1):
        return titled.group(1)
    target = target.lstrip("!")
    return target[1:].rsplit(".", 1)[-1] if target.startswith("~") else target


# Markup a page's format may leave in a heading: attribute lists and ids, reference links, block
# and role markers. The source readers remove them; this is the last guard before a user sees one.
_MARKUP_RES = (
    (re.compile(r'^\s*(?:!!!|\?\?\?\+?|===[!+]?)\s*(?:[\w-]+\s*)?"(.*)"\s*$'), r"\1"),
    (re.compile(r"\s*\{\s*:?\s*[#.][^{}]*\}"), ""),
    (re.compile(r"\[([^\[\]]*)\]\[[^\[\]]*\]"), r"\1"),
    (re.compile(r"\[([^\[\]]*)\]\([^()]*\)"), r"\1"),
    (re.compile(r"^\s*(?:!!!|\?\?\?\+?|===[!+]?|/{3,}|:{3,}|\.\.)\s*"), ""),
    (re.compile(r":[\w:-]+:`([^`]*)`"), lambda m: _role_text(m.group(1))),
    (re.compile(r"--8<--\s*\S*"), ""),
    # Emoji shortcodes (":rocket:", ":simple-slack:"): icons the page's format draws.
    (re.compile(r"(?<![\w`:]):[a-z][a-z0-9]*(?:[-_+][a-z0-9]+)*:(?![\w`])"), ""),
)
# Bold and HTML tags: gone from a heading; kept in a model's prompt (`List<int>` is a type there).
_EMPHASIS_RE = re.compile(r"\*\*|__|</?[a-z][a-z0-9]*\b[^<>]*>")


def clean_topic(topic: str, emphasis: bool = True) -> str:
    """A heading as plain words: no ids, link targets, directive or block markers, tags or bold.

    `emphasis=False` leaves bold and tags alone (a model's suggested prompt).
    """
    for pattern, repl in _MARKUP_RES:
        topic = pattern.sub(repl, topic)
    if emphasis:
        # Outside code only: "``__notes__``" keeps its underscores.
        topic = "".join(
            part if part.startswith("`") else _EMPHASIS_RE.sub("", part)
            for part in re.split(r"(`+[^`]*`+)", topic)
        )
    return re.sub(r"\s+", " ", topic).strip(" :.-—")


def follow_up_question(topic: str, page: str, lang: str) -> str:
    """A question a user would ask next about a heading (on the page titled `page`).

    Markup and structural labels go in every language; English then asks by the heading's shape
    (`graphs.offline.questions`), other languages quote it inside a question of their own.
    """
    topic = strip_labels(clean_topic(topic))
    page = strip_labels(clean_topic(page))
    if lang == "en":
        return english_question(topic, page)
    if topic.endswith("?"):
        return topic
    shown = f"{topic} ({page})" if page and topic.lower() in _PAGE_BOUND else topic
    return phrase("ask_about", lang).format(topic=shown or page)


# Headings that only make sense on their page: in other languages the page's title comes along.
_PAGE_BOUND = frozenset(
    "overview introduction summary feedback example examples usage notes note details reference "
    "api faq troubleshooting limitations caveats conclusion background prerequisites requirements "
    "setup installation configuration options parameters arguments returns fields attributes "
    "methods properties settings".split()
)


def _label(question: str, width: int = 48) -> str:
    """The suggestion's button text: the question itself, cut at a word when long."""
    if len(question) <= width:
        return question
    return question[:width].rsplit(" ", 1)[0].rstrip(",;:") + "…"


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
        follow_up_question(topic, page, lang)
        for topic, page in _topics(answers[-1] if answers else "", lang)
        if clean_topic(topic)
    ] or _STARTERS.get(lang, _STARTERS["en"])
    for prompt in prompts:
        if len(suggests) >= limit:
            break
        if prompt.lower() in asked or any(s["prompt"] == prompt for s in suggests):
            continue
        suggests.append({"label": _label(prompt), "prompt": prompt, "position": len(suggests)})
    return "```json\n" + json.dumps({"suggests": suggests}, ensure_ascii=False, indent=1) + "\n```"
