"""The English words the offline follow-up questions need: verbs of technical docs and their forms.

Written here rather than taken from a package: the question grammar (`graphs.offline.questions`)
needs a few hundred verbs *with* what a dictionary does not say — which ones open a heading as a
noun as often as a verb ("Stream modes", "Test fixtures"), which ones cannot end before a
preposition without an object ("Use in production" → "use it in production") — and their
inflected forms to read a heading's first word back to its base form ("Setting" → "set",
"carries" → "carry"). WordNet or lemminflect would bring megabytes of data and still not know the
first two. Every list is general English of software documentation; none comes from one corpus.
"""

from __future__ import annotations

import re
from functools import cache

# Verbs that open how-to headings in technical documentation, base forms. British -ise spellings
# sit beside the -ize ones because documentation is written in both.
VERBS = frozenset(
    """
    accept access accumulate acknowledge acquire activate adapt add address adjust administer
    adopt aggregate alert align allocate allow alter analyse analyze annotate anonymise anonymize
    append apply approve archive arrange ask assemble assert assess assign associate attach
    attempt audit augment authenticate author authorise authorize autocomplete automate avoid
    appear await back backfill behave belong carry cover differ exist happen matter mean occur
    quantify backup balance batch begin benchmark bind block boost boot bootstrap
    bound branch break bring broadcast browse buffer build bump bundle burn cache calculate
    calibrate call cancel capture cast catch categorise categorize chain change chat check
    checkout choose chunk cite clarify classify clean cleanup clear click clip clone close
    cluster coerce collect combine comment commit compare compile complete compose compress
    compute concatenate condense configure confirm connect consolidate constrain construct
    consume contain containerise containerize continue contribute control convert copy correct
    count crawl create crop curate customise customize cut debug declare decode decompose
    decorate decouple decrypt deduplicate define delegate delete deliver demonstrate deny
    deploy deprecate derive describe deserialise deserialize design destroy detach detect
    determine develop diagnose diff digest disable disallow discard disconnect discover
    dispatch display dispose distil distill distinguish distribute divide do dockerize document
    download downgrade drag draw drive drop dump duplicate edit elevate embed emit emulate
    enable encapsulate encode encrypt end enforce enhance enqueue enrich ensure enter enumerate
    escape establish estimate evaluate evict examine exchange exclude execute exit expand
    expect experiment expire explain explore export expose express extend extract fail fall
    fetch fill filter finalise finalize find finetune fine-tune finish fit fix flag flatten
    flush focus fold follow force forget fork format forward freeze gather generate get give
    go grant graph group guard guide handle hash help hide highlight hook host hydrate identify
    ignore illustrate implement import improve include increase increment index infer inherit
    initialise initialize inject insert inspect install instantiate instruct instrument
    integrate intercept interpret interrupt introduce invalidate invert investigate invoke
    isolate iterate join keep kill label launch learn leave let leverage limit link lint list
    listen load localise localize locate lock log look loop maintain make manage map mark
    mask match measure memoise memoize merge migrate minimise minimize mirror mitigate mix mock
    model modify monitor monkeypatch mount move multiply mutate name narrow navigate negotiate
    nest normalise normalize notify obtain observe offload omit open operate opt optimise
    optimize orchestrate order organise organize output override own package paginate pair
    parallelise parallelize parameterise parameterize parametrise parametrize paraphrase parse
    partition pass paste patch pause perform permit persist pick pin ping pipe place plan play
    plot plug point poll populate port post precompute predict prefer prefetch prefix prepare
    preprocess preserve prevent preview print prioritise prioritize process produce profile
    program prompt propagate protect prototype provide provision proxy prune publish pull push
    put query queue quote raise rank rate reach react read rebuild receive recognise recognize
    recommend record recover redact redeploy redirect reduce refactor refer refine reformat
    refresh regenerate register reindex reject relate release reload remember remove rename
    render reorder repair repeat rephrase replace replay reply report represent reproduce
    request require rerank rerun reset reshape resize resolve respect respond restart restore
    restrict restructure resume retain retrieve retry return reuse revert review revise revoke
    rewrite rollback roll rotate round route run sample sandbox sanitise sanitize save scaffold
    scale scan schedule score scrape script scroll search secure see seed select send separate
    serialise serialize serve set share shard shift ship show shorten shut sign simplify
    simulate skip slice snapshot sort source specify speed split spin stage standardise
    standardize start stash stay steer step stop store stream streamline strip structure
    stub style submit subclass subscribe substitute subtract suggest summarise summarize
    supply support suppress swap switch sync synchronise synchronize tag tail take talk target
    teach tell template terminate test throttle throw tidy time toggle tokenise tokenize trace
    track train transcribe transfer transform transition translate transmit traverse treat
    trigger trim troubleshoot truncate trust try tune turn type uncomment understand undo
    uninstall unpack unregister unset unsubscribe unwrap update upgrade upload upsert use
    validate vary vectorise vectorize verify version view visualise visualize wait walk want
    warn watch wire work wrap write yield zip
    """.split()
)

# Of those, the ones a heading opens with as a noun as often as a verb ("Stream modes", "Test
# fixtures", "Batch size"): read as a verb only when what follows says so.
NOUN_TOO = frozenset(
    """
    alert archive audit back backup batch benchmark block boost branch break buffer bundle cache
    call cast catch chain change chat check checkout chunk cleanup click clip cluster comment
    commit control count crawl cut debug design diff digest display document drag draw drive
    drop dump edit end escape exchange exit experiment export fall fill filter finish fit fix
    flag focus fold fork format freeze graph group guard guide hash help hook host import
    increase index label launch limit link list lock log look loop map mark mask match measure
    mirror mix mock model monitor name order output package pair patch pause permit pin ping
    pipe place plan play plot plug point poll port post preview print process profile program
    prompt prototype proxy pull push query queue quote rank rate reach record release reply
    report request rerun reset retry review rollback roll round route sample sandbox scaffold
    scale scan schedule score script scroll search seed shift ship sign slice snapshot sort
    source speed split spin stage start stash step stop store stream structure stub style
    subclass supply support swap switch sync tag tail talk target template test time toggle trace
    track train transfer transition trust turn type upsert version view wait walk watch wire
    work yield zip
    """.split()
)

# Verbs far more often than nouns at a heading's start ("Load documents", "Read memory"), but
# nouns before a compound's head ("Load balancing", "Use cases", "Return value").
NOUN_IN_COMPOUNDS = frozenset(
    "access copy download fetch load read return run set update upgrade upload use write".split()
)

# -ing words that name a field as often as they do the verb ("Embedding models", "Routing
# logic", "Caching results"): a how-to only with evidence, like the base forms in NOUN_TOO.
ING_NOUN_TOO = frozenset(
    """
    batching benchmarking caching chunking debugging embedding filtering formatting hosting
    indexing licensing logging mapping matching monitoring networking packaging parsing
    pooling profiling prompting ranking reasoning rendering reranking routing sampling scaling
    scheduling serving streaming tagging testing tracing training versioning
    """.split()
)

# Nouns that follow an ambiguous first word and say it is a noun, compound-style ("Read
# replicas", "Use cases", "Write operations"). English compounds, no corpus's names.
COMPOUND_HEADS = frozenset(
    """
    access api apis balancer balancing case cases error errors flow format formats id ids key
    keys level levels limit limits mode modes model models only operation operations option
    options path paths permission permissions rate replica replicas request requests result
    results size sizes speed status time timeout timeouts type types value values
    """.split()
)

# Nouns that make a gerund before them a modifier when they end the heading ("Caching layer",
# "Loading strategy"): what is asked about is the thing, not how to do the verb.
GERUND_COMPOUND_HEADS = frozenset(
    """
    algorithm algorithms backends basics behavior behaviour capabilities concepts
    considerations conventions engine features framework function functions guidelines helpers
    integrations latency layer limitations logic mechanism mode modes notes overhead patterns
    performance pipeline pipelines practices primitives requirements rules scheme speed
    strategies strategy
    techniques time tips utilities
    """.split()
)

# Verbs that need their object before a preposition: "Use in production" is "use it in
# production", "Call from JavaScript" is "call it from JavaScript". Verbs not listed read well
# without one ("Deploy to Kubernetes", "Connect to the database", "Install from source").
NEEDS_OBJECT = frozenset(
    """
    access apply call configure customise customize declare define disable display embed
    enable expose host initialise initialize inject instantiate invoke mock override render
    specify store use wrap
    """.split()
)

# Words that follow a verb as its particle, not as a preposition wanting the verb's object.
PARTICLES = frozenset("up out off down back away over around along ahead".split())

PREPOSITIONS = frozenset(
    """
    about above across after against along alongside among around as at before behind below
    beneath beside besides between beyond by despite during except for from in inside into
    like near of off on onto out outside over past per since than through throughout to
    toward towards under underneath unlike until upon using via with within without
    """.split()
)

# Words ending in -ing that are nouns or adjectives at a heading's start, never a how-to
# ("Settings", "Building blocks", "Breaking changes", "Missing values").
ING_NOUNS = frozenset(
    """
    anything beginning building ceiling clothing drawing during everything evening feeling
    heading king learning listing listings meaning meeting morning nothing offering
    offerings opening padding painting pending pricing ring rising setting settings
    something spring string strings thing things timing warning warnings wedding wing
    wording
    breaking corresponding existing following incoming leading missing ongoing outgoing
    outstanding reasoning remaining resulting rolling surrounding trailing underlying upcoming
    """.split()
)

# Auxiliaries and modals that invert in a question ("How the model is chosen" → "How is the
# model chosen?"), with the negative forms a heading may carry.
AUXILIARIES = frozenset(
    """
    is are was were am can could should will would must may might shall has have had does do
    did cannot can't isn't aren't wasn't weren't won't wouldn't shouldn't couldn't mustn't
    doesn't don't didn't hasn't haven't hadn't needn't
    """.split()
)

# Adjectives and participles a heading can be all by itself ("Required", "Optional").
PREDICATE_ADJECTIVES = frozenset(
    """
    advanced available basic common configurable custom default deprecated experimental
    general internal legacy new old optional private public recommended removed required
    stable supported unstable unsupported
    """.split()
)

# Words that only say a heading is a catch-all for what is left ("Other", "Miscellaneous").
REMAINDER = frozenset("other others misc miscellaneous more else rest".split())

# Words ending in -s that are singular ("Status", "Kubernetes"): the plural test skips them.
SINGULAR_S = frozenset(
    """
    alias analysis atlas axis basis bias bonus bus campus canvas chaos class corpus crisis
    diagnosis emphasis express focus gas genesis kubernetes lens news physics plus postgres
    process progress redis series species status success synopsis syntax thesis this virus
    analytics mathematics statistics
    """.split()
)

# Verbs after which "you" is their object ("lets you choose"), and verbs that say the "you" before
# them is a subject ("before you begin", "if you need").
_TAKES_YOU = frozenset(
    "let lets help helps make makes allow allows tell tells show shows give gives".split()
)
_AFTER_SUBJECT = AUXILIARIES | frozenset("need needs have know like wish".split())
_YOU_SWAPS = {
    "your": "my",
    "yours": "mine",
    "yourself": "myself",
    "yourselves": "ourselves",
    "you're": "I'm",
    "you've": "I've",
    "you'll": "I'll",
    "you'd": "I'd",
}


def third_person(verb: str) -> str:
    """The -s form of a base verb: "carry" → "carries", "push" → "pushes"."""
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    if verb.endswith(("s", "x", "z", "ch", "sh", "o")):
        return verb + "es"
    return verb + "s"


def _doubles(verb: str) -> bool:
    """Whether the final consonant doubles before -ing/-ed: "set" → "setting", "commit" → "committing".

    One-syllable verbs ending in one vowel and one consonant double it; longer ones only when the
    last syllable is stressed, which spelling cannot tell — both forms are then accepted.
    """
    return bool(re.search(r"(?:^|[^aeiou])[aeiou][bdgklmnprtv]$", verb)) and not verb.endswith(
        ("w", "x", "y")
    )


def _ing_forms(verb: str) -> set[str]:
    if verb.endswith("ie"):
        return {verb[:-2] + "ying"}
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and verb != "be":
        return {verb[:-1] + "ing"}
    forms = {verb + "ing"}
    if _doubles(verb):
        doubled = verb + verb[-1] + "ing"
        one_syllable = len(re.findall(r"[aeiouy]+", verb)) == 1
        forms = {doubled} if one_syllable else forms | {doubled}
    if verb.endswith("c"):
        forms.add(verb + "king")  # "sync" → "syncing", "mimic" → "mimicking"
    return forms


def _ed_forms(verb: str) -> set[str]:
    if verb.endswith("e"):
        return {verb + "d"}
    if re.search(r"[^aeiou]y$", verb):
        return {verb[:-1] + "ied"}
    forms = {verb + "ed"}
    if _doubles(verb):
        doubled = verb + verb[-1] + "ed"
        one_syllable = len(re.findall(r"[aeiouy]+", verb)) == 1
        forms = {doubled} if one_syllable else forms | {doubled}
    return forms


# Past forms that no rule makes, for the verbs above that have them.
_IRREGULAR_PAST = {
    "begin": "began begun",
    "bind": "bound",
    "break": "broke broken",
    "bring": "brought",
    "build": "built",
    "catch": "caught",
    "choose": "chose chosen",
    "cut": "cut",
    "do": "did done",
    "draw": "drew drawn",
    "drive": "drove driven",
    "fall": "fell fallen",
    "find": "found",
    "forget": "forgot forgotten",
    "freeze": "froze frozen",
    "get": "got gotten",
    "give": "gave given",
    "go": "went gone",
    "hide": "hid hidden",
    "keep": "kept",
    "learn": "learnt learned",
    "leave": "left",
    "let": "let",
    "make": "made",
    "put": "put",
    "read": "read",
    "rebuild": "rebuilt",
    "rerun": "reran rerun",
    "reset": "reset",
    "rewrite": "rewrote rewritten",
    "run": "ran run",
    "see": "saw seen",
    "send": "sent",
    "set": "set",
    "shut": "shut",
    "spin": "spun",
    "split": "split",
    "take": "took taken",
    "teach": "taught",
    "tell": "told",
    "throw": "threw thrown",
    "understand": "understood",
    "undo": "undid undone",
    "unset": "unset",
    "write": "wrote written",
    "override": "overrode overridden",
}
# "does"/"goes" and the like come from third_person; "do" itself is no how-to verb.


@cache
def _forms() -> dict[str, dict[str, str]]:
    """Every inflected form of every verb above, by kind, mapped back to its base form."""
    ing: dict[str, str] = {}
    third: dict[str, str] = {}
    past: dict[str, str] = {}
    for verb in sorted(VERBS):
        for form in _ing_forms(verb):
            ing.setdefault(form, verb)
        third.setdefault(third_person(verb), verb)
        for form in _ed_forms(verb) | set(_IRREGULAR_PAST.get(verb, "").split()):
            past.setdefault(form, verb)
    return {"ing": ing, "third": third, "past": past}


def base_of_gerund(word: str) -> str | None:
    """The base form of a known verb's -ing form ("setting" → "set"), or None."""
    return _forms()["ing"].get(word.lower())


def base_of_third_person(word: str) -> str | None:
    """The base form of a known verb's -s form ("carries" → "carry"), or None."""
    return _forms()["third"].get(word.lower())


def base_of_past(word: str) -> str | None:
    """The base form of a known verb's past form ("moved" → "move", "built" → "build"), or None."""
    return _forms()["past"].get(word.lower())


def is_past_participle(word: str) -> bool:
    """A known verb's past form, or any plain word ending in -ed ("measured", "parsed")."""
    lower = word.lower()
    return base_of_past(lower) is not None or (
        len(lower) > 4 and lower.endswith("ed") and lower.isalpha() and lower not in ("need",)
    )


def is_plural(word: str) -> bool:
    """Whether a head noun is plural: "changes", "APIs", "sources" yes; "status", "`kwargs`" no."""
    if word.startswith("`") or not word:
        return False  # a code name is one thing, whatever its spelling
    stripped = word.rstrip(").,;:!?'\"’")
    lower = stripped.lower()
    if lower in SINGULAR_S or lower in ("data", "criteria", "media", "people", "children"):
        return lower in ("criteria", "people", "children")
    if re.fullmatch(r"[A-Z][A-Z0-9]+s", stripped):
        return True  # "APIs", "LLMs", "URLs"
    if any(c.isupper() for c in stripped[1:]):
        return False  # "PerplexitySearchResults": a CamelCase name is one thing
    return (
        lower.endswith("s")
        and not lower.endswith(("ss", "us", "is", "ys", "'s", "’s"))
        and len(lower) > 2
        and lower[:-1].isalpha()
    )


def first_person(words: list[str]) -> list[str]:
    """A heading's "you" as the asking user: "your" → "my", "you" → "I" or "me", "you are" → "I am"."""
    out: list[str] = []
    for i, word in enumerate(words):
        core = word.strip(".,;:!?()\"'")
        lower = core.lower()
        swap = _YOU_SWAPS.get(lower)
        if lower == "you":
            before = words[i - 1].lower().strip(".,;:!?()") if i else ""
            after = words[i + 1].lower().strip(".,;:!?()") if i + 1 < len(words) else ""
            if before in _TAKES_YOU or base_of_third_person(before) or before in VERBS:
                swap = "me"
            elif after in _AFTER_SUBJECT or after in VERBS or base_of_past(after):
                swap = "I"
            else:
                swap = "me" if before in PREPOSITIONS else "I"
        elif lower in ("are", "were") and i and words[i - 1].lower() == "you":
            swap = "am" if lower == "are" else "was"
        if swap is None or not core:
            out.append(word)
            continue
        if core[:1].isupper() and not swap.startswith("I"):
            swap = swap[0].upper() + swap[1:]
        out.append(word.replace(core, swap, 1))
    return out
