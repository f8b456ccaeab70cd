"""Function words of the other languages users write in, dropped from a weak query's lexical search.

Why: the index drops English function words (tools/text.STOPWORDS) because they say nothing
about a topic. A question in Spanish brings its own ("el", "de", "del", "cómo"), which an
English index cannot tell from content words: they are rare in it, so they weigh as much as
the rarest technical terms, and the few pages that quote Spanish text (translation examples)
match them and outrank the page that answers. So when the lexical ranking is weak (below the
fusion gate, tools/search/fusion.py) the lexical side is searched again without them, and the
sentence encoder still reads the whole question. A confident ranking never gets here, so an
English question is searched exactly as before.

The lists are the articles, prepositions, pronouns, conjunctions and auxiliaries of each
language (the languages the encoder knows that our users write in), not tuned on any question.
"""

from __future__ import annotations

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "es": frozenset(
        """
        el la los las lo un una unos unas de del al a en y e o u que qué por para con sin sobre
        entre hasta desde como cómo cuando cuándo donde dónde cual cuál cuales quien quién se su
        sus le les me mi mis te tu tus nos es son está están estoy ser fue era hay ha han he no
        sí pero más muy ya este esta estos estas ese esa eso esto puedo puede pueden debo
        """.split()
    ),
    "de": frozenset(
        """
        der die das den dem des ein eine einen einem einer eines und oder aber nicht kein keine
        keinen mit von zu zum zur im ins am an auf aus bei für über unter nach vor wie was warum
        wo wann wer welche welcher welches ich du er sie es wir ihr mein meine mich mir ist sind
        war wird werden wurde kann können muss soll sollte auch noch nur schon sich dass ob wenn
        als man
        """.split()
    ),
    "pl": frozenset(
        """
        i w we z ze na do od po za o u dla przy przez bez nad pod przed jak jaki jaka jakie co
        czy gdzie kiedy dlaczego ten ta te tego tej tym się sie nie jest są był była było być
        mogę może można mam ma który która które którego oraz lub albo ale a że aby żeby jeśli
        gdy mój moja moje mnie mi mój
        """.split()
    ),
    "ru": frozenset(
        """
        и в во на с со к ко по о об от до из за для при без над под про как какой какая какие
        что чтобы где когда почему зачем это этот эта эти то тот не ни ли же бы я мы вы он она
        они его её их мой моя мне меня есть был была было быть можно нужно может или но а если
        уже ещё также
        """.split()
    ),
    "fr": frozenset(
        """
        le la les l un une des du de d au aux et ou mais que qu qui quoi comment pourquoi où
        quand dans en sur sous avec sans pour par ce cette ces se sa son ses je tu il elle nous
        vous ils elles mon ma mes est sont été être avoir ai a ne pas plus peut peux
        """.split()
    ),
    "it": frozenset(
        """
        il lo la i gli le un uno una di del della dei delle da dal dalla in nel nella con su per
        tra fra e o ma che chi come perché dove quando cosa non si mi ti ci è sono essere ha
        hanno posso può questo questa quello quella
        """.split()
    ),
}

_ALL = frozenset().union(*FUNCTION_WORDS.values())
_PUNCTUATION = "¿?¡!.,;:()\"'«»„“”"


def content_query(query: str) -> str:
    """The query without the function words of other languages; every other token is kept.

    Only whole words are dropped: a word inside an identifier (`de_duplicate`, `LaTeX`) is part
    of a longer token and stays.
    """
    kept = [token for token in query.split() if token.strip(_PUNCTUATION).lower() not in _ALL]
    return " ".join(kept)
