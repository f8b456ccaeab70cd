"""Offline follow-up questions: every heading shape asked in grammatical English.

The headings are invented, written in the shapes documentation uses (numbered steps, changelog
versions, "Name: description", wh-clauses, prohibitions, coordinated verbs, statements), never
copied from a corpus: the rules must hold for a project nobody has seen. A property test then
checks what no question may contain, on generated headings and, when ../shared is present, on
every heading of the shared corpora and this project's docs.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from graphs.offline.lexicon import VERBS, base_of_gerund, first_person, is_plural
from graphs.offline.questions import strip_labels
from graphs.offline.suggestions import follow_up_question
from tests.conftest import REPO_ROOT, SHARED_CORPUS


def ask(topic: str, page: str = "Guide") -> str:
    return follow_up_question(topic, page, "en")


# -- one table per rule ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("3. Vector indexes", "What are vector indexes?"),
        ("1.2. Configure the cache", "How do I configure the cache?"),
        ("2.1 Add items to the queue", "How do I add items to the queue?"),
        ("b) Configure the cache", "How do I configure the cache?"),
        ("iv. Rotate the keys", "How do I rotate the keys?"),
        ("(2) Rotate the keys", "How do I rotate the keys?"),
        ("Step 2: Install the CLI", "How do I install the CLI?"),
        ("Step 3 - Verify the install", "How do I verify the install?"),
        ("Part 5: Building a dashboard", "How do I build a dashboard?"),
        ("Example 2: Streaming with callbacks", "How do I stream with callbacks?"),
        ("Scenario 1: Using a local model", "How do I use a local model?"),
        ("Lesson 4: Writing plugins", "How do I write plugins?"),
        ("Case 2: Retrying failed jobs", "How do I retry failed jobs?"),
        ("Question: How do I rotate keys?", "How do I rotate keys?"),
        ("Q: Can I pin a version?", "Can I pin a version?"),
        ("(Optional) Enable tracing", "How do I enable tracing?"),
        ("Enable tracing (optional)", "How do I enable tracing?"),
        ("Advanced: Custom serializers", "What are custom serializers?"),
        (":rocket: Deploy the app", "How do I deploy the app?"),
        (":material-check-bold: Health checks", "What are health checks?"),
        ("☁ Set your cloud region", "How do I set my cloud region?"),
        ("🚀 Quick tour", "What is quick tour?"),
        ("→ Next chapter", "What is next chapter?"),
        ("*Can I cancel a running job?*", "Can I cancel a running job?"),
        ("Step 1", "What should I know about step 1 in Guide?"),
    ],
)
def test_structural_labels_are_no_part_of_the_question(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("max_retries (int): Number of attempts before giving up.", "What is max_retries?"),
        ("The dashboard: `/admin`", "What is the dashboard?"),
        ("Bearer tokens: `AUTH_TOKENS`", "What are bearer tokens?"),
        ("`worker` — the background process", "What is `worker`?"),
        ("Relay proxy – an optional hop", "What is relay proxy?"),
        ("Proxies: which hosts may be reached", "Which hosts may be reached?"),
        ("retry_limit (int): Whether to retry at all.", "What is retry_limit?"),
        ("Retries: how often a job runs again", "How often does a job run again?"),
    ],
)
def test_a_name_and_its_description_ask_about_the_name(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("3.4.1 (2021-05-02)", "What changed in version 3.4.1?"),
        ("v2.0.0", "What changed in version v2.0.0?"),
        ("widgetlib 2.0.0 (2020-01-01)", "What changed in widgetlib 2.0.0?"),
        ("widgetlib-1.5.2", "What changed in widgetlib-1.5.2?"),
        ("widgetlib 1.2: bug fixes and speedups", "What changed in widgetlib 1.2?"),
        ("Version 4.0", "What changed in version 4.0?"),
        ("Release 4.1.0 - 2023-02-11", "What changed in version 4.1.0?"),
        ("[2.3.0] - 2022-03-01", "What changed in version 2.3.0?"),
        ("1.4.0 (compared to 1.3.2)", "What changed in version 1.4.0?"),
        ("2.0.0rc1", "What changed in version 2.0.0rc1?"),
        ("Changes between 1.1 and 1.2", "What changed between 1.1 and 1.2?"),
        ("Changes in 3.0", "What changed in 3.0?"),
        ("Python 3.12 support", "What is Python 3.12 support?"),
    ],
)
def test_a_version_asks_what_changed_in_it(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("How to rotate your keys", "How do I rotate my keys?"),
        ("How caching works", "How does caching work?"),
        ("How retries work", "How do retries work?"),
        ("How the scheduler is configured", "How is the scheduler configured?"),
        ("How this is tested", "How is this tested?"),
        ("How it works", "How does it work?"),
        ("Why retries matter", "Why do retries matter?"),
        ("Why use a queue", "Why use a queue?"),
        ("When to use a queue", "When should I use a queue?"),
        ("Where to go next", "Where should I go next?"),
        ("Which backend to choose", "Which backend should I choose?"),
        ("What to do when a job hangs", "What should I do when a job hangs?"),
        ("Whether to enable retries", "Should I enable retries?"),
        ("What plugins are", "What are plugins?"),
        ("What the worker returns", "What does the worker return?"),
        ("What the worker does", "What does the worker do?"),
        ("What is stored where", "What is stored where?"),
        ("Which hosts may call the API", "Which hosts may call the API?"),
        ("When the cache is full", "What happens when the cache is full?"),
        ("If the upload fails", "What happens if the upload fails?"),
        ("Before you start", "What should I do before I start?"),
        ("After the upgrade", "What should I do after the upgrade?"),
        ("Is the worker idle", "Is the worker idle?"),
    ],
)
def test_a_wh_clause_is_inverted_into_its_question(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("Do not share tokens between users", "Why shouldn't I share tokens between users?"),
        ("Don't block the event loop", "Why shouldn't I block the event loop?"),
        ("Never commit your secrets", "Why should I never commit my secrets?"),
        ("Avoid global state", "Why should I avoid global state?"),
        (
            "Avoid retries if you need exactly-once delivery",
            "Why should I avoid retries if I need exactly-once delivery?",
        ),
    ],
)
def test_a_prohibition_asks_why(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("Install the client", "How do I install the client?"),
        ("Install", "How do I install?"),
        ("Using validators", "How do I use validators?"),
        ("Retrieving a record by id", "How do I retrieve a record by id?"),
        ("Wrapping external services", "How do I wrap external services?"),
        ("Committing changes", "How do I commit changes?"),
        ("Doing retries with a budget", "How do I do retries with a budget?"),
        ("Do more with less", "How do I do more with less?"),
        ("Understand message headers", "How do I understand message headers?"),
        ("Try out your agent", "How do I try out my agent?"),
        ("Read long-term settings in handlers", "How do I read long-term settings in handlers?"),
        ("Enabling and disabling plugins", "How do I enable and disable plugins?"),
        ("Fetch and render lazily", "How do I fetch and render lazily?"),
        ("Review and edit drafts", "How do I review and edit drafts?"),
        ("Create, update, delete", "How do I create, update and delete?"),
        ("Use in production", "How do I use it in production?"),
        ("Using with async clients", "How do I use it with async clients?"),
        ("Configure for staging", "How do I configure it for staging?"),
        ("Deploy to a cluster", "How do I deploy to a cluster?"),
        ("Connecting to the broker", "How do I connect to the broker?"),
        ("Set up the workspace", "How do I set up the workspace?"),
        ("Configure your workspace", "How do I configure my workspace?"),
        ("Secure it if you expose the port", "How do I secure it if I expose the port?"),
        ("Quantify the drift", "How do I quantify the drift?"),
        ("Summon the daemon", "How do I summon the daemon?"),
        ("Launch the worker locally", "How do I launch the worker locally?"),
        ("Map request fields to columns", "How do I map request fields to columns?"),
        ("Quickly adding filters", "How do I quickly add filters?"),
        ("Let's build a dashboard", "How do I build a dashboard?"),
    ],
)
def test_an_action_asks_how_with_every_verb_in_its_base_form(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        # A word as often a noun reads as a verb only with evidence after it.
        ("Stream modes", "What are stream modes?"),
        ("Stream the response", "How do I stream the response?"),
        ("Stream with callbacks", "How do I stream with callbacks?"),
        ("Test fixtures", "What are test fixtures?"),
        ("Test `parse_header`", "How do I test `parse_header`?"),
        ("Use cases", "What are use cases?"),
        ("Return value", "What is return value?"),
        ("Caching layer", "What is caching layer?"),
        ("Caching the results", "How do I cache the results?"),
        ("Ordering of hooks", "What is ordering of hooks?"),
        ("Breaking changes", "What are breaking changes?"),
        ("Building blocks", "What are building blocks?"),
        ("Settings", "What should I know about settings in Guide?"),
        # No evidence either way: a question both readings make grammatical.
        ("Support for plugins", "What should I know about support for plugins?"),
        ("Access to the admin API", "What should I know about access to the admin API?"),
        ("Caching results", "What should I know about caching results?"),
    ],
)
def test_a_verb_that_is_as_often_a_noun_needs_evidence(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        ("The legacy client is deprecated", "Why is the legacy client deprecated?"),
        ("Workers must be idempotent", "Why must workers be idempotent?"),
        ("`run_sync` has been removed", "Why has `run_sync` been removed?"),
        ("`A` and `B` are deprecated", "Why are `A` and `B` deprecated?"),
        ("The cache does not survive restarts", "Why does the cache not survive restarts?"),
        ("Plugins can extend the parser", "How can plugins extend the parser?"),
        ("You can also pin the version", "How can I also pin the version?"),
        ("Text nobody reads is dropped", "Why is text nobody reads dropped?"),
        (
            "`parse_raw` deprecated in favour of `validate_json`",
            "Why was `parse_raw` deprecated in favour of `validate_json`?",
        ),
        ("Old Flags moved to `extras`", "Why were Old Flags moved to `extras`?"),
        ("Caching is disabled by default", "Why is caching disabled by default?"),
        (
            "Workers appear only when a queue exists",
            "Why do workers appear only when a queue exists?",
        ),
        ("`Client` also supports retries", "How does `Client` also support retries?"),
    ],
)
def test_a_statement_asks_why_or_how(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        # The head noun decides, not the last word.
        ("Changes to the retry policy", "What are changes to the retry policy?"),
        ("Similarity search using other metrics", "What is similarity search using other metrics?"),
        ("Updated return type for handlers", "What is updated return type for handlers?"),
        ("Serialization of nested types", "What is serialization of nested types?"),
        ("Limitations of batch mode", "What are limitations of batch mode?"),
        ("Live sources (files, feeds)", "What are live sources (files, feeds)?"),
        ("Long-term support (LTS) branches", "What are long-term support (LTS) branches?"),
        ("Reasoning traces", "What are reasoning traces?"),
        ("`Reader` and `Writer`", "What are `Reader` and `Writer`?"),
        ("`alpha`, `beta`, and `gamma`", "What are `alpha`, `beta`, and `gamma`?"),
        ("Limits, quotas and budgets", "What are limits, quotas and budgets?"),
        ("Async and batch processing", "What is async and batch processing?"),
        ("Retries and error handling", "What are retries and error handling?"),
        ("Naming Rules", "What are Naming Rules?"),
        ("APIs for admins", "What are APIs for admins?"),
        ("Status of the index", "What is status of the index?"),
        ("ReportResults", "What is ReportResults?"),
        ("Formats supported", "What are the formats supported?"),
        ("Deprecated and moved in 3.0", "What is deprecated and moved in 3.0?"),
        # Sentence case: a determiner goes to lower case, a name stays as written.
        ("Other cloud providers", "What are other cloud providers?"),
        ("The Admin API", "What is the Admin API?"),
        ("A plain folder", "What is a plain folder?"),
        ("Azure Blob storage", "What is Azure Blob storage?"),
        ("Experimental Features", "What are Experimental Features?"),
        ("Your own knowledge base", "How do I use my own knowledge base?"),
        # One word: a name is asked about, a common word with its page, a catch-all as the rest.
        ("`max_tokens`", "What is `max_tokens`?"),
        ("QueueClient", "What is QueueClient?"),
        ("Feedback", "What should I know about feedback in Guide?"),
        ("Optional", "What is optional in Guide?"),
        ("Other", "What else does Guide cover?"),
        # A setting named by its preposition.
        ("In production", "How does it work in production?"),
        ("As a context manager", "How does it work as a context manager?"),
        ("About this project", "What should I know about this project?"),
    ],
)
def test_a_noun_phrase_agrees_with_its_head(heading: str, question: str) -> None:
    assert ask(heading) == question


@pytest.mark.parametrize(
    ("topic", "page", "question"),
    [
        # The cases the questions were first written for keep their answers.
        ("Import `Form` { #import-form }", "Forms", "How do I import `Form`?"),
        ("Using the annotated pattern", "Validators", "How do I use the annotated pattern?"),
        ("Set up the client", "", "How do I set up the client?"),
        ("Stream modes", "Streaming", "What are stream modes?"),
        ("Pipeline API", "Pipelines", "What is Pipeline API?"),
        ("Feedback", "Streaming", "What should I know about feedback in Streaming?"),
        ("Inspecting model fields", "Models", "How do I inspect model fields?"),
        ("Probing model fields", "Models", "How does probing model fields work?"),
        (
            "[`model_dump`][pydantic.BaseModel.model_dump] options",
            "",
            "What are `model_dump` options?",
        ),
        ('!!! note "Why use it?"', "", "Why use it?"),
        ("Import Pydantic's `BaseModel`", "Models", "How do I import Pydantic's `BaseModel`?"),
        ("Declare it as a parameter", "Body", "How do I declare it as a parameter?"),
        ("Wrap the handler", "", "How do I wrap the handler?"),
        ("Declaring the schema", "", "How do I declare the schema?"),
        # A word before an article is no verb when it cannot be one.
        ("With the client", "", "How does it work with the client?"),
        ("Fields the model keeps", "", "What are fields the model keeps?"),
        ("OAuth the app", "", "What is OAuth the app?"),
    ],
)
def test_earlier_follow_ups_still_read_as_the_next_question(
    topic: str, page: str, question: str
) -> None:
    assert follow_up_question(topic, page, "en") == question


# -- other languages: the same labels stripped, the heading quoted ---------------------------------


@pytest.mark.parametrize(
    ("heading", "lang", "question"),
    [
        ("3. Vektorspeicher", "de", "Was sagt die Dokumentation zu „Vektorspeicher“?"),
        (
            "Step 2: Installer le client",
            "fr",
            "Que dit la documentation sur « Installer le client » ?",
        ),
        (":rocket: Despliegue", "es", "¿Qué dice la documentación sobre «Despliegue»?"),
        ("☁ (Optional) Настройка", "ru", "Что в документации сказано о «Настройка»?"),
    ],
)
def test_other_languages_keep_the_heading_without_its_labels(
    heading: str, lang: str, question: str
) -> None:
    assert follow_up_question(heading, "", lang) == question


# -- the parts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "stripped"),
    [
        ("3. Step 2: ☁ Set up", "Set up"),
        ("1.2.3 (2020-01-01)", "1.2.3 (2020-01-01)"),  # a version is no ordinal
        ("--verbose flag", "--verbose flag"),  # an option's dashes stay
        ("Model ⇄ tools", "Model ⇄ tools"),  # an arrow means something
        ("Intel® extensions", "Intel® extensions"),
        ("Step 1:", "Step 1"),  # nothing but a label: kept, less its colon
        ("3 ways to deploy", "3 ways to deploy"),  # a count, no ordinal
    ],
)
def test_strip_labels(heading: str, stripped: str) -> None:
    assert strip_labels(heading) == stripped


def test_first_person_reads_you_as_the_asking_user() -> None:
    assert " ".join(first_person("if you need your keys".split())) == "if I need my keys"
    assert " ".join(first_person("lets you choose".split())) == "lets me choose"
    assert " ".join(first_person("tools for you".split())) == "tools for me"
    assert " ".join(first_person("when you are offline".split())) == "when I am offline"


@pytest.mark.parametrize(
    ("word", "plural"),
    [
        ("changes", True),
        ("APIs", True),
        ("status", False),
        ("analysis", False),
        ("`kwargs`", False),
        ("ReportResults", False),
        ("data", False),
    ],
)
def test_plural_head_nouns(word: str, plural: bool) -> None:
    assert is_plural(word) is plural


def test_every_listed_verb_reads_back_from_its_ing_form() -> None:
    """A verb the lexicon lists is recognised in the -ing form English spells for it."""
    spelled = {"set": "setting", "create": "creating", "commit": "committing", "tie": "tying"}
    for verb, ing in spelled.items():
        if verb in VERBS:
            assert base_of_gerund(ing) == verb


# -- properties: what no question may contain ------------------------------------------------------

_CODE_RE = re.compile(r"`+[^`]*`+")
_MARKUP_RE = re.compile(
    r"\{\s*[#:]|\]\(|\]\[|\*\*|:::|!!!|<[a-z/][^>]*>|(?<![\w:]):[a-z][a-z0-9-]+:(?![\w])|--8<--"
)
_LABEL_LEFT_RE = re.compile(
    r"^(?:What|How|Why)\b.*?\b(?:is|are|about|do I|does) (?:\d+(?:\.\d+)*[.)]|[a-z]\)|"
    r"(?:Step|Part|Example|Scenario|Question|Option|Lesson) \d+:)",
    re.IGNORECASE,
)


def problems(question: str) -> list[str]:
    """What makes a follow-up question unfit to show, whatever heading it came from."""
    prose = _CODE_RE.sub("code", question)
    found = []
    if not question.endswith("?") or "??" in question or prose.count("?") != 1:
        found.append("not one question mark at the end")
    if _MARKUP_RE.search(prose):
        found.append("markup left")
    if _LABEL_LEFT_RE.search(prose):
        found.append("a list label left")
    after = re.match(r"How do I (\S+)", question)
    if after and after.group(1).endswith("ing") and after.group(1) not in VERBS:
        found.append("a gerund after 'How do I'")
    if re.match(r"(?:How do I|Why should(?:n't)? I)\b", question) and re.search(
        r"\byour?\b", prose
    ):
        found.append("'you' in a first-person question")
    if re.search(r"\b(?:is|are|about) (?:The|A|An)\b", prose):
        found.append("a capitalized article inside the sentence")
    if not question[:1].isupper() or "  " in question:
        found.append("not a sentence")
    return found


_LABELS = ["", "3. ", "b) ", "Step 2: ", "Part 5: ", "Example: ", "(Optional) ", ":zap: ", "☁ "]
_BODIES = [
    "Set up the client",
    "Setting and disabling timeouts",
    "How to write assertions",
    "How rendering works",
    "Do not reorder calls within a node",
    "2.6.1 (2014-08-07)",
    "dtype (string): Reserve for later.",
    "Changes to `@hook`'s allowed signatures",
    "Try out your agent",
    "Using with nested graphs",
    "Other vendor products",
    "Question: What is the difference between A and B?",
    "Stream and render progressively",
    "Read memory in tools",
    "Use `Model` **carefully**",
    "[Link text](https://example.com) options {#opts}",
    "The `legacy` flag is gone",
    "Callbacks",
]


@pytest.mark.parametrize(("label", "body"), list(itertools.product(_LABELS, _BODIES)))
def test_no_label_or_markup_is_left_in_any_generated_heading(label: str, body: str) -> None:
    question = ask(label + body)
    assert problems(question) == [], question


def _headings(root: Path) -> list[str]:
    """The ##–#### Markdown headings (outside fences) and underlined rst titles of a folder."""
    found: list[str] = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".md", ".mdx", ".rst") or not path.is_file():
            continue
        lines = path.read_text(errors="replace").splitlines()
        if path.suffix == ".rst":
            for above, line in itertools.pairwise(lines):
                title = above.strip()
                if (
                    re.fullmatch(r"([=\-~^\"'`#*+_.:])\1{2,}\s*", line)
                    and title
                    and not title.startswith("..")
                    and len(line.strip()) >= len(title) - 1
                    and not re.fullmatch(r"([=\-~^\"'`#*+_.:])\1{2,}", title)
                ):
                    found.append(title)
            continue
        fence = ""
        for line in lines:
            opener = re.match(r"\s*(`{3,}|~{3,})", line)
            if opener:
                fence = (
                    "" if fence and opener.group(1).startswith(fence) else fence or opener.group(1)
                )
                continue
            heading = re.match(r"(#{2,4})\s+(.+?)\s*#*\s*$", line)
            if heading and not fence:
                found.append(heading.group(2))
    return found


@pytest.mark.parametrize("folder", ["corpus", "corpus-pydantic", "corpus-pytest", "docs"])
def test_no_question_from_a_real_heading_breaks_a_property(folder: str) -> None:
    """Every heading of the shared corpora and of this project's docs: no leftover markup, list
    label, doubled question mark, gerund after "How do I" or "you" in a first-person question."""
    root = REPO_ROOT / "docs" if folder == "docs" else SHARED_CORPUS.parent / folder
    if not root.is_dir():
        pytest.skip(f"{root} not found")
    headings = sorted(set(_headings(root)))
    assert headings
    bad = [(h, q, p) for h in headings if (p := problems(q := ask(h, "Some page")))]
    assert bad == [], f"{len(bad)} of {len(headings)}: {bad[:10]}"
