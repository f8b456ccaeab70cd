"""A section heading as the question a user would ask next about it, by the rules of English.

A heading is no question: "Setting and disabling timeouts", "3. Vector stores", "How markdown
rendering works", "Do not reorder calls", "2.6.1 (2014-08-07)". The offline model offers the
sections its answer did not quote as follow-ups (`graphs.offline.suggestions`), so each heading is
read by its shape — never by its words' meaning in one project — and asked about:

- structural labels go first, in every language (`strip_labels`): list ordinals ("3.", "b)"),
  "Step 2:", "Part 5:", "Question:", "(Optional)", emoji and their shortcodes, leading symbols;
- a version ("pytest 3.9.1 (2018-10-16)", "2.6.1") asks what changed in it;
- a question stays one; a wh-clause is inverted ("How X works" → "How does X work?", "How to X" →
  "How do I X?", "When to X" → "When should I X?");
- a prohibition asks why ("Do not X" → "Why shouldn't I X?", "Avoid X" → "Why should I avoid X?");
- an action asks how, every coordinated verb in its base form ("Setting and disabling timeouts" →
  "How do I set and disable timeouts?"), "your" as "my", and an object where the verb needs one
  before a preposition ("Use in production" → "How do I use it in production?");
- a statement asks why ("X is deprecated" → "Why is X deprecated?");
- "Name: description" and "Name — description" ask about the name;
- anything else is a name or a noun phrase: "What is/are …?" agreeing with the phrase's head noun,
  not its last word ("What are changes to …", "What is similarity search using other engines?").

The word lists live in `graphs.offline.lexicon`; only English headings come here (other languages
keep the heading inside a localized template, after the same label stripping).
"""

from __future__ import annotations

import re
import unicodedata

from graphs.offline.lexicon import (
    AUXILIARIES,
    COMPOUND_HEADS,
    GERUND_COMPOUND_HEADS,
    ING_NOUN_TOO,
    ING_NOUNS,
    NEEDS_OBJECT,
    NOUN_IN_COMPOUNDS,
    NOUN_TOO,
    PARTICLES,
    PREDICATE_ADJECTIVES,
    PREPOSITIONS,
    REMAINDER,
    VERBS,
    base_of_gerund,
    base_of_past,
    base_of_third_person,
    first_person,
    is_past_participle,
    is_plural,
)

# -- structural labels (every language) ------------------------------------------------------------

# Words that label a heading's place rather than name its topic, stripped with or without a
# number: "Step 2:", "Example:", "Question:", "Advanced:", "Note:".
_LABEL_WORDS = (
    r"step|part|example|scenario|question|q|answer|option|lesson|chapter|phase|stage|exercise|"
    r"task|tip|note|warning|caution|important|info|hint|bonus|recap|tl;dr|tldr|optional|"
    r"advanced|beta|experimental|deprecated|new|update|aside|faq|demo|solution|problem|goal|"
    r"appendix|how-to|howto|tutorial"
)
# Words that label a heading only with a number after them: "Turn 3:", "Case 2:", "Method 1:".
_NUMBERED_LABEL_WORDS = (
    r"turn|round|day|week|module|unit|lab|level|section|case|use case|method|approach|pattern|"
    r"strategy|recipe|figure|table|rule|test|exercise|item|point|tier|milestone"
)
_NUMBER = r"(?:\d+[a-z]?|[a-z]|[ivx]+)"
_LABEL_RE = re.compile(
    rf"^(?:(?:{_LABEL_WORDS})(?:\s+{_NUMBER})?|(?:{_NUMBERED_LABEL_WORDS})\s+{_NUMBER})"
    r"\s*(?:[:.)]|\s[-–—])\s+",
    re.IGNORECASE,
)
# A heading that is only a label and its number ("Step 1", "Example 2"): its place on the page.
_BARE_LABEL_RE = re.compile(
    rf"^(?:{_LABEL_WORDS}|{_NUMBERED_LABEL_WORDS})\s+{_NUMBER}$", re.IGNORECASE
)
# List ordinals: "3.", "1.2.", "3)", "(3)", "b.", "iv)", "#3", "1 -" / "1:" before words, and a
# section number before a word ("2.1 Add items"; a version is followed by a date, a colon or
# nothing, never by a word).
_ORDINAL_RE = re.compile(
    r"^(?:\d+(?:\.\d+)*\.|\d+\)|\(\d+\)|[a-zA-Z][.)]|[ivxIVX]+[.)]|#\d+|\d+\s*[:\-–—]"
    r"|\d+(?:\.\d+)+(?=\s+[A-Za-z]))\s+(?=\S)"
)
# Status words in brackets: "(Optional)", "[Beta]", "(Recommended)" — not part of the topic.
_STATUS_RE = re.compile(
    r"\s*[(\[](?:optional|recommended|default|beta|alpha|experimental|deprecated|legacy|new|"
    r"advanced|preview|required|unstable|stable|wip|draft)[)\]]",
    re.IGNORECASE,
)
# Emoji shortcodes (":rocket:", ":simple-slack:", ":material-check-bold:").
_SHORTCODE_RE = re.compile(r"(?<![\w`:]):[a-z][a-z0-9]*(?:[-_+][a-z0-9]+)*:(?![\w`])")
_KEEP_SYMBOLS = frozenset("®©™°`'\"([{@$~/._\\")


# Where emoji live: pictographs, dingbats, miscellaneous symbols and technical signs. Arrows and
# mathematical signs ("Model ⇄ tools", "auth → run") carry meaning and stay; so do ®, © and ™.
_EMOJI_RANGES = ((0x1F000, 0x1FAFF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x2300, 0x23FF))


def _is_emoji(char: str) -> bool:
    """A pictograph, or the joiner or variation selector that builds one."""
    code = ord(char)
    return char in "\u200d\ufe0f\ufe0e" or any(lo <= code <= hi for lo, hi in _EMOJI_RANGES)


def strip_labels(topic: str) -> str:
    """A heading without what only marks its place: ordinals, step labels, status, emoji.

    Language-neutral apart from the English label words, and safe to repeat: "3. Step 2: ☁ Set
    up" becomes "Set up". A heading that is nothing but a label is returned as it was.
    """
    text = _SHORTCODE_RE.sub(" ", topic)
    text = "".join(c for c in text if not _is_emoji(c))
    text = _STATUS_RE.sub("", text)
    text = re.sub(r"\s+", " ", text).strip()
    while True:
        before = text
        # Leading bullets and symbols: "→ Next", "• Item", "* Item", "- Item" (not "--flag").
        while text and (
            unicodedata.category(text[0]) in ("Sm", "Sk", "So", "Pd", "Po", "Zs")
            and text[0] not in _KEEP_SYMBOLS
            and (text[1:2] in ("", " ") or unicodedata.category(text[0]) in ("So", "Sk"))
            or text[0] in "*#>|•·"
            and text[1:2] in ("", " ")
        ):
            text = text[1:].lstrip()
        text = _ORDINAL_RE.sub("", text)
        text = _LABEL_RE.sub("", text)
        m = re.fullmatch(r"([*_])(?!\1)(.+)(?<![*_])\1([?.!]?)", text)  # *italic heading*
        if m and m.group(1) not in m.group(2):
            text = m.group(2).strip() + m.group(3)
        if text == before:
            break
    return text.rstrip(" :;,-–—").lstrip() or topic.strip()


# -- English grammar -------------------------------------------------------------------------------

_WH = frozenset("how why when where what which who whom whose whether".split())
_SUBORDINATORS = frozenset("if when once while unless whenever wherever".split())
# Words that open a noun phrase and are lower case inside a sentence whatever the heading did.
_DETERMINERS = frozenset(
    """
    a an the this that these those my your our their its his her some any all each every
    other another more most additional further both either neither many few several no such
    own same various different
    """.split()
)
# Small words Title Case leaves in lower case ("Left to Right Mode").
_MINOR = frozenset(
    "a an the and or but nor for of on in to with by at from as via vs into per".split()
)
# What a verb's object can open with at a heading's start: a determiner or an object pronoun.
_OBJECT_OPENERS = _DETERMINERS | frozenset("it them me us him one".split())
_YES_NO = frozenset(
    "is are was were can could should would will do does did has have may might must".split()
)
# Participles a changelog states things with ("`foo` deprecated in favour of `bar`").
_CHANGE_PARTICIPLES = frozenset(
    """
    added changed deprecated dropped fixed introduced merged moved removed renamed replaced
    split updated
    """.split()
)
_VERSION = r"v?\d+(?:\.\d+)+(?:[-.]?(?:a|b|rc|dev|post|alpha|beta|final)\.?\d*)?"
_DATE = r"\d{4}-\d{2}-\d{2}|\d{1,2} \w+ \d{4}|\w+ \d{1,2},? \d{4}|unreleased|\d{4}"
_VERSION_RE = re.compile(
    rf"^\[?(?P<name>(?:[A-Za-z][\w.+]*[ -]){{0,3}}?)(?P<version>{_VERSION})\]?"
    rf"(?:\s*(?:[-–—]\s*)?\(?(?:{_DATE})\)?)?(?:\s*\([^()]*\))?\s*(?::\s*.*|[-–—]\s+.*)?$",
    re.IGNORECASE,
)
_CHANGES_RE = re.compile(
    r"^(?:changes|changelog|release notes|what's new|what is new)\s+"
    r"(?P<prep>in|between|since|for|from)\s+(?P<rest>.*\d.*)$",
    re.IGNORECASE,
)


def _bare(word: str) -> str:
    """A word without the punctuation around it, in lower case."""
    return word.strip(".,;:!?()[]\"'’").lower()


def _is_name(word: str) -> bool:
    """Whether a word is written as a name: code, an acronym, CamelCase, a version, a dotted id."""
    core = word.strip(".,;:!?()[]\"'’")
    return bool(core) and (
        core.startswith("`")
        or any(c.isdigit() for c in core)
        or any(c in "_./@®™" for c in core)
        or any(c.isupper() for c in core[1:])
    )


def _sentence_case(words: list[str]) -> list[str]:
    """A heading's words inside a sentence: its first word in lower case unless it names something.

    Title Case ("Experimental Features") and a first word followed by another capitalized one
    ("Azure Container apps", "Pipeline API") read as names and stay as written; a determiner is
    lower case whatever follows ("Other Google products" → "other Google products").
    """
    if not words:
        return words
    first = words[0]
    core = first.rstrip(",;:")
    if (
        not core[:1].isupper()
        or _is_name(core)
        or not (core[1:].replace("-", "").isalpha() or len(core) == 1)
    ):
        return words
    if core == "I":
        return words
    lowered = [first[0].lower() + first[1:], *words[1:]]
    if core.lower() in ("the", "a", "an"):
        return lowered
    content = [w for w in words if w[:1].isalpha() and w.lower() not in _MINOR]
    if len(content) >= 2 and all(w[:1].isupper() for w in content):
        return words  # Title Case: a name
    if core.lower() in _COMMON_OPENERS:
        return lowered  # "Other Google products", "Example with `Agent`"
    if len(words) > 1 and words[1][:1].isupper() and words[1].lower() not in _MINOR:
        return words  # "Azure Container apps": the name goes on
    if len(words) > 1 and re.fullmatch(r"v?\d+(?:\.\d+)*", words[1], re.IGNORECASE):
        return words  # "Python 3.12 support": a name and its version
    return lowered


def _join(words: list[str]) -> str:
    return " ".join(words)


def _question(text: str) -> str:
    """A sentence as a question: capital first letter, one question mark."""
    text = re.sub(r"\s+", " ", text).strip().rstrip(".:;,!?… ")
    return text[:1].upper() + text[1:] + "?"


# -- versions and changes --------------------------------------------------------------------------


def _version_question(topic: str) -> str | None:
    """A version heading as what changed in it: "tool 3.9.1 (2018-10-16)" → "… in tool 3.9.1?"."""
    m = _CHANGES_RE.match(topic)
    if m:
        return _question(f"What changed {m['prep'].lower()} {m['rest']}")
    m = _VERSION_RE.match(topic)
    if not m:
        return None
    name = m["name"].strip()
    version = m["version"]
    if not name or name.lower() in ("version", "release", "v"):
        return _question(f"What changed in version {version.lstrip('vV') if name else version}")
    joined = f"{name}{version}" if m["name"].endswith("-") else f"{name} {version}"
    return _question(f"What changed in {joined}")


# -- clauses ---------------------------------------------------------------------------------------


def _aux_inversion(wh: str, clause: list[str]) -> str | None:
    """A wh-word and a clause in question order ("How the model is chosen" → "How is …?")."""
    for j, word in enumerate(clause[1:], 1):
        lower = _bare(word)
        if lower in AUXILIARIES:
            aux = "can't" if lower == "cannot" else lower
            rest = clause[j + 1 :]
            if not rest and aux in ("does", "do", "did"):
                rest = ["do"]  # "What the worker does" → "What does the worker do?"
            return _question(_join([wh, aux, *_sentence_case(clause[:j]), *rest]))
    for j, word in enumerate(clause[1:], 1):
        lower = _bare(word)
        if lower in PREPOSITIONS or lower in ("and", "or"):
            continue
        for base, do in (
            (base_of_third_person(lower), "does"),
            (base_of_past(lower) if lower.endswith("ed") else None, "did"),
        ):
            if base:
                rest = [base, *clause[j + 1 :]]
                return _question(_join([wh, do, *_sentence_case(clause[:j]), *rest]))
        if lower in VERBS and is_plural(clause[j - 1]):
            return _question(_join([wh, "do", *_sentence_case(clause[:j]), *clause[j:]]))
    return None


def _wh_question(words: list[str]) -> str | None:
    """A heading opening with a wh-word or a subordinator, as the question it stands for."""
    first = words[0].lower()
    rest = first_person(words[1:])
    if first == "how" and rest and _bare(rest[0]) in _HOW_DEGREE:
        # "How often a job runs" → "How often does a job run?": "how often" is the wh-word.
        inverted = _aux_inversion(f"{words[0]} {rest[0]}", rest[1:]) if len(rest) > 2 else None
        if inverted:
            return inverted
    if first in _WH:
        # "How to X" → "How do I X?"; "When to X" → "When should I X?"; "Which model to use" →
        # "Which model should I use?"; "Whether to X" → "Should I X?".
        for j in range(len(rest)):
            if j > 2:
                break
            if rest[j].lower() == "to" and j + 1 < len(rest):
                verb_phrase = rest[j + 1 :]
                if first == "whether":
                    return _question(_join(["Should I", *verb_phrase]))
                aux = "do I" if first == "how" and j == 0 else "should I"
                return _question(_join([words[0], *rest[:j], aux, *verb_phrase]))
        if not rest:
            return None
        second = _bare(rest[0])
        if (
            second in AUXILIARIES
            or (
                first in ("what", "who", "which")
                and (base_of_third_person(second) or base_of_past(second) or second == "happens")
            )
            or (first in ("why", "how") and second in VERBS and second not in NOUN_TOO)
        ):
            return _question(_join([words[0], *rest]))  # already in question order: "Why use X"
        if first == "when":
            # "When Studio cannot reach the server" → "What happens when …?"
            return _question(_join(["What happens when", *rest])) if _has_verb(rest) else None
        if first in ("where", "why", "how"):
            inverted = _aux_inversion(words[0], rest)
            if inverted:
                return inverted
        if first in ("what", "which", "whose") and len(rest) > 1:
            if second not in _DETERMINERS and _subject_question(rest):
                return _question(_join([words[0], *rest]))  # "Which pages may call the API"
            inverted = _aux_inversion(words[0], rest)
            if inverted:
                return inverted
        return _question(_join(["What should I know about", words[0].lower(), *rest]))
    if first in _SUBORDINATORS and len(rest) >= 2:
        return _question(_join(["What happens", first, *rest]))
    if first in ("before", "after") and len(rest) >= 1:
        return _question(_join(["What should I do", first, *rest]))
    if first == "about" and rest:
        return _question(_join(["What should I know about", *rest]))
    if first in _SETTING_PREPOSITIONS and rest:
        # "In production", "As a `ToolCall`", "With agents": the setting of something unnamed.
        return _question(_join(["How does it work", first, *rest]))
    return None


# Prepositions a heading can open with to name a setting ("In production", "Without filters").
_SETTING_PREPOSITIONS = frozenset(
    """
    across as at behind between beyond by for from in inside on outside over through under
    via with within without
    """.split()
)


_HOW_DEGREE = frozenset("often many much long far fast soon big large well".split())


def _subject_question(clause: list[str]) -> bool:
    """Whether "what/which N" is the subject of the clause after it.

    A verb follows its noun and more follows the verb ("Which pages may call the API"), unlike
    "What fixtures are".
    """
    for j, word in enumerate(clause[1:], 1):
        lower = _bare(word)
        if lower in AUXILIARIES or base_of_third_person(lower):
            return j + 1 < len(clause)
    return False


def _has_verb(words: list[str]) -> bool:
    return any(
        _bare(w) in AUXILIARIES or base_of_third_person(_bare(w)) or base_of_past(_bare(w))
        for w in words
    )


def _prohibition(words: list[str]) -> str | None:
    """A prohibition as why: "Do not X" → "Why shouldn't I X?", "Never X", "Avoid X"."""
    lower = [w.lower() for w in words[:2]]
    if lower[:2] == ["do", "not"] and len(words) > 2:
        return _question(_join(["Why shouldn't I", *first_person(words[2:])]))
    if lower[0] in ("don't", "don’t") and len(words) > 1:
        return _question(_join(["Why shouldn't I", *first_person(words[1:])]))
    if lower[0] == "never" and len(words) > 1:
        return _question(_join(["Why should I never", *first_person(words[1:])]))
    if lower[0] == "avoid" and len(words) > 1:
        return _question(_join(["Why should I avoid", *first_person(words[1:])]))
    return None


# What a yes/no question's subject opens with ("Is the server up", "Do I need a key").
_SUBJECTS = frozenset(
    "the a an this that these those my your our their its it i you we they there".split()
)


def _yes_no(words: list[str]) -> str | None:
    """A heading already asking, without its mark: "Is the server up" → "Is the server up?"."""
    if words[0].lower() in _YES_NO and len(words) > 2 and _bare(words[1]) in _SUBJECTS:
        return _question(_join(first_person(words)))
    return None


# -- actions ---------------------------------------------------------------------------------------


def _verb_form(word: str, following: str = "") -> tuple[str, str] | None:
    """(base, "base" | "ing") for a lexicon verb's base or -ing form; None otherwise.

    An -ing word that is mostly a noun ("Settings", "Building blocks") is the verb only before
    an object ("Building a dashboard", "Setting up the app").
    """
    lower = word.rstrip(",").lower()
    if not lower.isalpha() and "-" not in lower:
        return None
    if lower in VERBS:
        return lower, "base"
    base = base_of_gerund(lower)
    if base and (
        lower not in ING_NOUNS
        or _bare(following) in _OBJECT_OPENERS | PARTICLES
        or following.startswith("`")
    ):
        return base, "ing"
    return None


# Words that open a heading and are no verb although an article may follow ("With the client").
_NO_VERB = (
    PREPOSITIONS
    | _DETERMINERS
    | _WH
    | AUXILIARIES
    | frozenset("and or but nor so yet not only also just even then there here be been".split())
)
# What only a verb's object opens with right after a heading's first word.
_ARTICLES_AND_OBJECTS = frozenset("the a an your my our their this these those it its them".split())


def _unlisted_verb(words: list[str]) -> str | None:
    """A first word no list knows, read as a verb because an article or object pronoun follows.

    "Summon the daemon": only a verb's object opens that way at a heading's start.
    """
    if len(words) < 2 or _bare(words[1]) not in _ARTICLES_AND_OBJECTS:
        return None
    first = words[0]
    lower = first.lower()
    if (
        not lower.isalpha()
        or lower in _NO_VERB
        or lower.endswith(("ing", "s"))  # "Declaring the…", "Fields the…": no bare verbs
        or not first[1:].islower()  # "OAuth the…", "API a…": names
    ):
        return None
    return lower


def _suffix_verb(words: list[str]) -> str | None:
    """A first word no list knows that only a verb is spelled like ("Quantify results").

    -ify and -ize make verbs, and nothing else.
    """
    first = words[0]
    lower = first.lower()
    if (
        len(words) > 1
        and lower.isalpha()
        and first[1:].islower()
        and lower.endswith(("ify", "ize"))
    ):
        return lower
    return None


def _leading_verbs(words: list[str]) -> tuple[list[str], str, int] | None:
    """The coordinated verbs a heading opens with: (bases, form, words used).

    "Setting and disabling timeouts" → (["set", "disable"], "ing", 3).
    """
    form = _verb_form(words[0], words[1] if len(words) > 1 else "")
    if not form:
        unlisted = _unlisted_verb(words) or _suffix_verb(words)
        return ([unlisted], "base", 1) if unlisted else None
    bases, kind = [form[0]], form[1]
    i = 1
    while i < len(words):
        joined = words[i - 1].endswith(",")
        j = i
        if words[j].lower() in ("and", "or", "&", "and/or"):
            j += 1
        elif not joined:
            break
        if j >= len(words):
            break
        nxt = _verb_form(words[j], words[j + 1] if j + 1 < len(words) else "")
        if not nxt or nxt[1] != kind:
            break
        bases.append(nxt[0])
        i = j + 1
        if words[j - 1].lower() in ("and", "or", "&", "and/or") and not words[j].endswith(","):
            break
    return bases, kind, i


def _reads_as_verb(words: list[str], bases: list[str], kind: str, used: int) -> bool | None:
    """Whether an opening verb is one: True, False, or None when both readings stand.

    A verb that is as often a noun ("Stream modes", "Test fixtures") needs evidence that follows
    it: an article or pronoun, code, a possessive, an adverb, a particle, a preposition other
    than "for"/"to"/"of" (which nouns take: "Support for X"), or another verb beside it.
    """
    first = words[0].lower()
    if len(bases) > 1:
        return True  # "Review and edit state", "Setting and disabling timeouts"
    if len(words) == used:
        return "-" not in first  # "Install", "Set up", "Streaming" alone
    nxt = words[used]
    lower = _bare(nxt)
    if lower in AUXILIARIES:
        return False  # "Access is denied", "Caching is disabled": a statement
    if kind == "ing":
        # "Ordering of validators", "Caching layer": nouns, not how-tos.
        if "-" in first or lower == "of":
            return False
        if lower in GERUND_COMPOUND_HEADS and used + 1 == len(words):
            return False
        ambiguous = first in ING_NOUN_TOO
    else:
        ends_phrase = used + 1 == len(words) or _bare(words[used + 1]) in PREPOSITIONS
        if (
            lower in COMPOUND_HEADS
            and ends_phrase
            and (bases[0] in NOUN_TOO or bases[0] in NOUN_IN_COMPOUNDS)
        ):
            return False  # "Use cases", "Read replicas", "Stream modes"
        if bases[0] in NOUN_IN_COMPOUNDS and lower in ("for", "to", "of"):
            return None if lower != "of" else False  # "Access to the API", "Use of X"
        ambiguous = bases[0] in NOUN_TOO
    if not ambiguous:
        return True
    if (
        lower in _OBJECT_OPENERS
        or nxt.startswith("`")
        or nxt.endswith(("'s", "’s"))
        or lower in PARTICLES
        or any(_is_adverb(w) for w in words[used:])
        or _verb_to_pattern(words[used:])
    ):
        return True
    if lower in ("for", "to", "of"):
        return None if lower != "of" else False
    if lower in PREPOSITIONS:
        return True
    return None if kind == "ing" else False


# Words ending in -ly that are no adverbs, or no evidence of a verb before them.
_NOT_ADVERBS = frozenset(
    """
    only early family assembly friendly daily weekly monthly yearly hourly likely anomaly
    italy butterfly ally rally jelly belly holy ugly lovely lonely costly timely orderly
    elderly silly supply apply reply multiply imply comply rely fly
    """.split()
)


def _is_adverb(word: str) -> bool:
    """An adverb ("locally", "progressively"): evidence that a verb comes before it."""
    lower = _bare(word)
    return lower.endswith("ly") and len(lower) > 5 and lower.isalpha() and lower not in _NOT_ADVERBS


def _verb_to_pattern(rest: list[str]) -> bool:
    """Whether the words after a first word follow a verb's pattern "V A to B".

    "Map dataset items to documents": an object, then "to"/"into"/"onto" and a noun phrase, as in
    "convert A to B"; "Chat model to use" has a verb after "to" and is no such.
    """
    for i, word in enumerate(rest[:4]):
        lower = _bare(word)
        if lower in ("to", "into", "onto"):
            after = _bare(rest[i + 1]) if i + 1 < len(rest) else ""
            return i > 0 and bool(after) and after not in VERBS
        if lower in PREPOSITIONS or word.endswith((",", ":")):
            return False
    return False


def _coordinate(bases: list[str]) -> str:
    """["retrieve", "list", "delete"] → "retrieve, list and delete"."""
    if len(bases) == 1:
        return bases[0]
    return ", ".join(bases[:-1]) + " and " + bases[-1]


def _action(words: list[str]) -> str | None | bool:
    """How to do what a heading's opening verbs say, or why not.

    None for no action; False when a verb that is as often a noun has no evidence either way
    (the caller phrases for both readings).
    """
    if len(words) > 2 and words[0].lower() in ("let's", "let’s"):
        return _action(words[1:])  # "Let's build an agent" → "How do I build an agent?"
    if len(words) > 1 and _is_adverb(words[0]) and _verb_form(words[1]):
        # "Quickly creating tools" → "How do I quickly create tools?"
        asked = _action(words[1:])
        if isinstance(asked, str):
            return asked.replace("How do I ", f"How do I {words[0].lower()} ", 1)
        return asked
    lead = _leading_verbs(words)
    if not lead:
        return None
    bases, kind, used = lead
    verdict = _reads_as_verb(words, bases, kind, used)
    if verdict is None:
        return False
    if not verdict:
        return None
    rest = first_person(words[used:])
    if (
        rest
        and bases[-1] in NEEDS_OBJECT
        and _bare(rest[0]) in PREPOSITIONS
        and _bare(rest[0]) not in PARTICLES
    ):
        rest = ["it", *rest]  # "Use in production" → "use it in production"
    return _question(_join(["How do I", _coordinate(bases), *rest]))


# -- statements ------------------------------------------------------------------------------------


def _statement(words: list[str]) -> str | None:
    """A heading that is a sentence, as the question it answers.

    "Text nobody sees is dropped" → "Why is text nobody sees dropped?"; "Clients must handle
    expired threads" → "Why must clients handle …?"; "X can Y" → "How can X Y?"; "X has been
    renamed" → "Why has X been renamed?"; "`foo` deprecated in favour of `bar`" → "Why was `foo`
    deprecated in favour of `bar`?". The subject is what comes before the verb, and must look like
    one: no preposition, relative pronoun or punctuation opens or ends it.
    """
    if _bare(words[0]) in PREPOSITIONS or _bare(words[0]) in _WH:
        return None
    words = first_person(words)  # "You can also create…" → "How can I also create…?"
    aside = next((i for i, w in enumerate(words) if w.startswith("(")), len(words))
    words_before_aside = words[:aside]  # "(flat is better than nested)" is no main clause
    # An auxiliary is the verb, whatever -s word comes before it ("Text nobody sees is dropped").
    start = next(
        (i for i, w in enumerate(words_before_aside[1:9], 1) if _bare(w) in AUXILIARIES), 1
    )
    for i, word in enumerate(words_before_aside[start:9], start):
        lower = _bare(word)
        subject = words[:i]
        if any(w.endswith((",", ":", ";")) for w in subject[:-1]) or _bare(subject[-1]) in (
            "that",
            "which",
            "who",
        ):
            return None
        if _bare(subject[-1]) in ("and", "or") or subject[-1].endswith(","):
            continue
        if any(_bare(w) in PREPOSITIONS for w in subject) and lower not in AUXILIARIES:
            return None
        rest = words[i + 1 :]
        if lower in AUXILIARIES and rest:
            aux = {"cannot": "can't"}.get(lower, lower)
            if aux in ("has", "have", "had") and not (
                _bare(rest[0]) in ("been", "not", "no") or is_past_participle(rest[0])
            ):
                do = {"has": "does", "have": "do", "had": "did"}[aux]
                return _question(_join(["Why", do, *_sentence_case(subject), "have", *rest]))
            wh = "How" if aux in ("can", "could") else "Why"
            return _question(_join([wh, aux, *_sentence_case(subject), *rest]))
        if (
            lower in _CHANGE_PARTICIPLES
            and any(_is_name(w) or w[:1].isupper() for w in subject[1:] or subject)
            and (subject[0].startswith("`") or len(subject) > 1 or _is_name(subject[0]))
        ):
            be = "were" if _is_plural_phrase(subject) else "was"
            return _question(_join(["Why", be, *_sentence_case(subject), lower, *rest]))
        if (
            lower in VERBS
            and lower not in NOUN_TOO
            and rest
            and len(subject) <= 3
            and is_plural(subject[-1])
            and not _is_name(subject[-1])
        ):
            # "Tool groups appear only when…" → "Why do tool groups appear only when…?"
            return _question(_join(["Why do", *_sentence_case(subject), lower, *rest]))
        base = base_of_third_person(lower)
        named = len(subject) == 1 and _is_name(subject[0])  # "`Client` supports…"
        adverb = _bare(subject[-1]) in _SENTENCE_ADVERBS  # "X also supports…"
        if base and rest and len(subject) <= 4 and (base not in NOUN_TOO or named or adverb):
            return _question(_join(["How does", *_sentence_case(subject), base, *rest]))
    return None


# Adverbs that stand between a subject and its verb, and so mark a sentence.
_SENTENCE_ADVERBS = frozenset("also now still only always never already automatically".split())


# -- names and noun phrases ------------------------------------------------------------------------

_CUT_WORDS = PREPOSITIONS | frozenset("that which who whose where when if".split())


def _head_index(words: list[str]) -> int:
    """The index of a noun phrase's head: the last word before what modifies it after.

    A parenthesis inside the phrase is skipped: "Long-term support (LTS) releases" → "releases".
    """
    inside = False
    for i, word in enumerate(words[1:], 1):
        lower = _bare(word)
        if inside:
            inside = ")" not in word
            continue
        if word.startswith("("):
            closes = next((j for j in range(i, len(words)) if ")" in words[j]), len(words) - 1)
            if closes + 1 < len(words) and _bare(words[closes + 1]) not in _CUT_WORDS:
                inside = ")" not in word
                continue
            return i - 1
        if (
            lower in _CUT_WORDS
            or word.startswith(("—", "–"))
            or (is_past_participle(word) and not word[:1].isupper())
        ):
            return i - 1
        if words[i - 1].endswith((",", ":", ";")):
            return i - 1
    return len(words) - 1


def plural_by_coordination(words: list[str]) -> bool:
    """Whether nouns are joined before what modifies them: "`A` and `B`", "X, Y and Z"."""
    core: list[str] = []
    for word in words:
        if core and (_bare(word) in _CUT_WORDS or word.startswith(("(", "—", "–"))):
            break
        core.append(word)
    if any(w.endswith(",") for w in core[:-1]) and any(w.lower() in ("and", "or") for w in core):
        return True
    for i, word in enumerate(core[1:-1], 1):
        if word.lower() in ("and", "&"):
            # Nouns joined ("`A` and `B`", "Retries and error handling"), not modifiers of one
            # head ("Async and streaming functionality").
            before = core[i - 1]
            if i == len(core) - 2 or is_plural(before) or _is_name(before):
                return True
    return False


def _is_plural_phrase(words: list[str]) -> bool:
    """Plural by its head noun, or by coordination before the head ("`A` and `B`", "X, Y and Z")."""
    return plural_by_coordination(words) or is_plural(words[_head_index(words)])


def _noun_phrase_question(words: list[str], page: str) -> str:
    """What a noun phrase is or are, by its head noun; one-word and page-bound ones name the page."""
    text = _join(words)
    lower = text.lower()
    on = f" in {page}" if page and page.lower() != lower else ""
    if len(words) == 1:
        word = words[0]
        if lower in REMAINDER:
            return f"What else does {page} cover?" if page else "What else should I know?"
        if lower in PREDICATE_ADJECTIVES:
            return _question(f"What is {lower}{on}")
        if _is_name(word) and not is_plural(word):
            return _question(f"What is {word}")
    if lower in _PAGE_BOUND or (len(words) == 1 and on) or _BARE_LABEL_RE.match(text):
        return _question(f"What should I know about {_join(_sentence_case(words))}{on}")
    if words[0].lower() == "your" and len(words) > 1:
        # "Your own knowledge base": the reader's own thing, which they come to use.
        return _question(_join(["How do I use", *first_person(["your", *words[1:]])]))
    cased = _sentence_case(first_person(words))
    opener = _bare(words[0])
    if (opener in PREDICATE_ADJECTIVES or is_past_participle(words[0])) and (
        len(words) == 1 or _bare(words[1]) in PREPOSITIONS | {"and", "or", "by"}
    ):
        return _question(_join(["What is", *cased]))  # "Deprecated and moved in V2"
    head = _head_index(words)
    plural = _is_plural_phrase(words)
    # A plural head followed by a bare participle reads as a question without "the" ("What are
    # types supported?"): "What are the types supported?".
    the = (
        ["the"]
        if head + 1 < len(words)
        and not plural_by_coordination(words)
        and is_past_participle(words[head + 1])
        and _bare(words[0]) not in _DETERMINERS
        and not _is_name(words[0])
        else []
    )
    if len(words) > 8:
        return _question(_join(["What does the documentation say about", *cased]))
    return _question(_join(["What", "are" if plural else "is", *the, *cased]))


# Headings that only make sense on their page: the page's title must come along.
_PAGE_BOUND = frozenset(
    """
    overview introduction summary feedback example examples usage notes note details reference
    api faq troubleshooting limitations caveats conclusion background prerequisites requirements
    setup installation configuration options parameters arguments returns fields attributes
    methods properties settings
    """.split()
) | frozenset(("next steps", "see also", "related", "further reading", "learn more"))


# First words that are common nouns or adjectives whatever follows: lower case inside a question.
_COMMON_OPENERS = (
    _DETERMINERS
    | _PAGE_BOUND
    | PREDICATE_ADJECTIVES
    | frozenset(re.sub(r"[^a-z|]", "", _LABEL_WORDS).split("|"))
)


def _name_and_description(topic: str) -> tuple[str, str] | None:
    """A "Name: description" or "Name — description" heading split at its separator."""
    outside = re.sub(r"`[^`]*`", lambda m: "x" * len(m.group()), topic)
    m = re.search(r":\s|\s[—–]\s|\s-\s", outside)
    if not m or m.start() == 0:
        return None
    name, description = topic[: m.start()].strip(), topic[m.end() :].strip()
    if not description or len(name.split()) > 6:
        return None
    return name, description


def english_question(topic: str, page: str) -> str:
    """The question a user would ask next about a heading (already cleaned of markup and labels)."""
    topic = topic.strip()
    if not topic:
        return _question(f"What should I know about {page}") if page else "What can I ask?"
    head, mark, _tail = topic.partition("? ")
    if mark and len(head.split()) >= 2:
        return head[:1].upper() + head[1:] + "?"  # "No model configured? It still works"
    if topic.endswith("?"):
        return topic[:1].upper() + topic[1:]
    version = _version_question(topic)
    if version:
        return version
    split = _name_and_description(topic)
    if split:
        name, description = split
        identifier = "_" in name or "`" in name or "(" in name  # "max_retries (int): Whether…"
        if (
            not identifier
            and len(description.split()) <= 12
            and (description.split()[0].lower() in _WH or description.endswith("?"))
        ):
            asked = english_question(description, page)
            if not asked.startswith("What should I know about"):
                return asked  # "Browsers: which pages may call the API" asks the description
        name = re.sub(r"\s*\([^()]*\)$", "", name) or name  # "dtype (string)" → "dtype"
        return english_question(name, page)
    words = topic.split()
    for rule in (_wh_question, _prohibition, _yes_no):
        question = rule(words)
        if question:
            return question
    action = _action(words)
    if isinstance(action, str):
        return action
    if action is False:
        # A verb as often a noun, no evidence either way ("Support for X", "Access to X"):
        # a question that reads well both ways.
        return _question(_join(["What should I know about", *_sentence_case(words)]))
    statement = _statement(words)
    if statement:
        return statement
    first = words[0].lower()
    if (
        len(first) >= 6
        and first.endswith("ing")
        and first.isalpha()
        and first not in ING_NOUNS
        and base_of_gerund(first) is None  # a listed verb's -ing form was read above
        and not _is_name(words[0])
    ):
        return _question(_join(["How does", *_sentence_case(words), "work"]))
    return _noun_phrase_question(words, page)
