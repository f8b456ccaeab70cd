"""Offline follow-up suggestions: questions about where the last answer leads, in the user's language.

Topics come from the answer itself, best first: the sections of the pages it read but did not quote
("More on these pages"), the closest topics when it found nothing, then the headings it quoted.
Every turn gets suggestions: with no topic at all, a few starter questions.

A heading is not a question ("Feedback", "Using the annotated pattern"): each topic is turned into
one a user would ask next (`follow_up_question`). In English the heading's own shape decides: an
action ("Install the client", "Using validators") asks how to do it, a name asks what it is, a
heading that only makes sense on its page ("Feedback", "Examples") names the page. Other languages
keep the topic as written (the pages' headings are in the pages' language) inside a question of
their own. Headings are cleaned of markup first (`clean_topic`), whatever the page's format left.

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


# Markup a page's format may leave in a heading: attribute lists and ids, reference links, block
# and role markers. The source readers remove them; this is the last guard before a user sees one.
_MARKUP_RES = (
    (re.compile(r'^\s*(?:!!!|\?\?\?\+?|===[!+]?)\s*(?:[\w-]+\s*)?"(.*)"\s*$'), r"\1"),
    (re.compile(r"\s*\{\s*:?\s*[#.][^{}]*\}"), ""),
    (re.compile(r"\[([^\[\]]*)\]\[[^\[\]]*\]"), r"\1"),
    (re.compile(r"\[([^\[\]]*)\]\([^()]*\)"), r"\1"),
    (re.compile(r"^\s*(?:!!!|\?\?\?\+?|===[!+]?|/{3,}|:{3,}|\.\.)\s*"), ""),
    (re.compile(r":[\w:-]+:`([^`]*)`"), r"\1"),
    (re.compile(r"--8<--\s*\S*"), ""),
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
        topic = _EMPHASIS_RE.sub("", topic)
    return re.sub(r"\s+", " ", topic).strip(" :.-—")


# Verbs that open a how-to heading in English ("Install the client", "Using validators").
_HOW_VERBS = (
    "access add avoid build call change check choose configure connect control convert create "
    "customize debug define delete deploy disable enable extend filter get handle implement "
    "import install integrate limit load log make manage migrate mock monitor override parse "
    "pass persist read register remove rename replace resume retry return run save send serialize "
    "set share skip specify start stop store stream switch test track trigger update upgrade use "
    "validate write"
).split()


def _gerund(verb: str) -> str:
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", verb) and verb not in ("limit", "edit"):
        return verb + verb[-1] + "ing"
    return verb + "ing"


_VERB_FORMS = {form: verb for verb in _HOW_VERBS for form in (verb, _gerund(verb))}
# Of those, the ones that are nouns as often ("Stream modes", "Test fixtures", "Log levels"):
# read as a verb only when what follows says so (an article, a pronoun, code, a particle).
_NOUN_TOO = frozenset(
    "access build call change check control debug filter import limit load log mock monitor pass "
    "read resume retry return run save set share skip start stop store stream switch test track "
    "trigger update".split()
)
# Words ending in -ing that are no verb's -ing form.
_ING_NOUNS = frozenset("string strings thing things nothing something anything everything".split())
_OBJECT_OPENERS = frozenset(
    "the a an your my our their this that these those it its them all each every one multiple "
    "custom up out in on with without from to into for".split()
)


# What only follows a verb at a heading's start: an article, a possessive or object pronoun.
# "Declare it as a parameter", "Create the app": whatever the first word, it is the verb.
_OBJECTS = frozenset("the a an your my our their this these those it its them".split())
# Words that open a heading and are no verb although an article may follow ("With the client").
_NO_VERB = frozenset(
    "about above across after against along among around as at before behind below beneath "
    "beside between beyond by during for from in inside into near of off on onto out outside "
    "over past since through throughout to toward towards under until up upon via with within "
    "without all both each either neither every some any many much more most few such what "
    "which whose whom who why when where how whether if unless because although though while "
    "and or but nor so yet not only also just even then there here is are was were be been "
    "do does did has have had can could may might must shall should will would".split()
)


def _is_action(words: list[str]) -> bool:
    """Whether a heading opens with a verb: "Install the client", "Using validators", "Set up".

    A listed verb reads as one unless it is as often a noun and nothing after it says it is a
    verb: an article, a pronoun, code, a particle or a possessive name ("Import Pydantic's
    `BaseModel`"). Any other plain word reads as a verb when an article or an object pronoun
    follows it, which only a verb's object does at a heading's start.
    """
    first = words[0].lower()
    second = words[1].lower() if len(words) > 1 else ""
    if first not in _VERB_FORMS:
        return (
            second in _OBJECTS
            and first.isalpha()
            and first not in _NO_VERB
            and not first.endswith(("ing", "s"))  # "Declaring the…", "Fields the…": not bare verbs
            and words[0][1:].islower()  # "OAuth the…", "API a…": names, not verbs
        )
    if first not in _NOUN_TOO or first.endswith("ing") and first != _VERB_FORMS[first]:
        return True
    return (
        len(words) == 1
        or second in _OBJECT_OPENERS
        or words[1].startswith("`")
        or second.endswith(("'s", "’s"))
    )


def _sentence_case(topic: str) -> str:
    """A heading's first word in lower case inside a sentence, unless the heading is a name."""
    words = topic.split()
    if not words or not words[0][:1].isupper() or not words[0][1:].islower():
        return topic
    if any(w[:1].isupper() or w.startswith("`") for w in words[1:]):
        return topic  # "Pipeline API", "Model `Config`": a name, kept as written
    return topic[0].lower() + topic[1:]


# Headings that only make sense on their page: the page's title must come along.
_PAGE_BOUND = frozenset(
    "overview introduction summary feedback example examples usage notes note details reference "
    "api faq troubleshooting limitations caveats conclusion background prerequisites requirements "
    "setup installation configuration options parameters arguments returns fields attributes "
    "methods properties settings next steps see also related further reading".split()
)


def follow_up_question(topic: str, page: str, lang: str) -> str:
    """A question a user would ask next about a heading (on the page titled `page`)."""
    topic = clean_topic(topic)
    page = clean_topic(page)
    if topic.endswith("?"):
        return topic
    if lang != "en":
        shown = f"{topic} ({page})" if page and topic.lower() in _PAGE_BOUND else topic
        return phrase("ask_about", lang).format(topic=shown)
    words = topic.split()
    if not words:
        return phrase("ask_about", lang).format(topic=page or topic)
    first = words[0].lower()
    if _is_action(words):
        rest = " ".join(words[1:])
        return f"How do I {_VERB_FORMS.get(first, first)}{' ' + rest if rest else ''}?"
    if topic.lower() in _PAGE_BOUND or len(words) == 1 and page and page.lower() != topic.lower():
        on = f" in {page}" if page and page.lower() != topic.lower() else ""
        return f"What should I know about {_sentence_case(topic)}{on}?"
    if first in ("how", "why", "when", "where", "what", "which", "who", "can", "do", "does", "is"):
        return topic + "?"
    if len(first) >= 6 and first.endswith("ing") and first not in _ING_NOUNS:
        return f"How does {_sentence_case(topic)} work?"  # "Inspecting model fields"
    plural = words[-1].endswith("s") and not words[-1].endswith(("ss", "us", "is"))
    if len(words) <= 6:
        return f"What {'are' if plural else 'is'} {_sentence_case(topic)}?"
    return f"What does the documentation say about {_sentence_case(topic)}?"


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
