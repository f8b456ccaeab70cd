"""Tiny deterministic language detection and the offline model's localized phrases.

Used only where no language model is available (offline model, feedback, suggestions); real
models detect the language themselves from the system prompt's rule.
"""

from __future__ import annotations

import re

_MARKERS: dict[str, set[str]] = {
    "ru": set(
        "как что это где почему можно нужно или для при что-то какой если не в на с и".split()
    ),
    "pl": set(
        "jak co czy gdzie dlaczego jest nie się mogę można dla przy aby który oraz w z i".split()
    ),
    "it": set(
        "come cosa perché dove posso è il lo la gli non per con una uno del della che".split()
    ),
    "de": set("wie was warum wo kann ist der die das nicht mit für ein eine und ich".split()),
    "es": set(
        "cómo como qué que por qué dónde puedo es el la los las no para con una un del".split()
    ),
    "fr": set(
        "comment quoi pourquoi où puis est le la les ne pas pour avec une un des du je".split()
    ),
    "en": set("how what why where can is the a an not for with do does i to of in".split()),
}
_SPECIAL = {"pl": "ąćęłńóśźż", "de": "äöüß", "es": "ñ¿¡", "fr": "çèêàùœ", "it": "àèìòù"}

LANGUAGE_NAMES = {
    "en": "English",
    "ru": "Russian",
    "pl": "Polish",
    "it": "Italian",
    "de": "German",
    "es": "Spanish",
    "fr": "French",
}


def detect_language(text: str) -> str:
    """Best guess among en, ru, pl, it, de, es, fr; English when unsure."""
    lower = text.lower()
    if re.search(r"[а-яё]", lower):
        return "ru"
    words = re.findall(r"[^\W\d_]+", lower)
    scores = {lang: sum(w in markers for w in words) for lang, markers in _MARKERS.items()}
    for lang, chars in _SPECIAL.items():
        scores[lang] += 2 * sum(lower.count(c) for c in chars)
    best = max(scores, key=lambda k: (scores[k], k == "en"))
    return best if scores[best] > 0 else "en"


def resolve_language(setting: str, text: str) -> str:
    """A language code from the Context setting ('auto' or a name/code) and the user's text."""
    setting = (setting or "auto").strip().lower()
    if setting in {"", "auto"}:
        return detect_language(text)
    for code, name in LANGUAGE_NAMES.items():
        if setting in {code, name.lower()}:
            return code
    return "en"


PHRASES: dict[str, dict[str, str]] = {
    "search_docs": {
        "en": "Searching the documentation",
        "ru": "Ищу в документации",
        "pl": "Przeszukuję dokumentację",
        "it": "Cerco nella documentazione",
        "de": "Durchsuche die Dokumentation",
        "es": "Buscando en la documentación",
        "fr": "Recherche dans la documentation",
    },
    "read_page": {
        "en": "Reading the page",
        "ru": "Читаю страницу",
        "pl": "Czytam stronę",
        "it": "Leggo la pagina",
        "de": "Lese die Seite",
        "es": "Leyendo la página",
        "fr": "Lecture de la page",
    },
    "search_kb": {
        "en": "Looking for support articles",
        "ru": "Ищу статьи поддержки",
        "pl": "Szukam artykułów pomocy",
        "it": "Cerco articoli di supporto",
        "de": "Suche Support-Artikel",
        "es": "Buscando artículos de soporte",
        "fr": "Recherche d'articles d'assistance",
    },
    "read_kb": {
        "en": "Reading support articles",
        "ru": "Читаю статьи поддержки",
        "pl": "Czytam artykuły pomocy",
        "it": "Leggo gli articoli di supporto",
        "de": "Lese Support-Artikel",
        "es": "Leyendo artículos de soporte",
        "fr": "Lecture des articles d'assistance",
    },
    "search_code": {
        "en": "Searching the source code for",
        "ru": "Ищу в исходном коде",
        "pl": "Szukam w kodzie źródłowym",
        "it": "Cerco nel codice sorgente",
        "de": "Durchsuche den Quellcode nach",
        "es": "Buscando en el código fuente",
        "fr": "Recherche dans le code source de",
    },
    "read_code": {
        "en": "Reading the code of",
        "ru": "Читаю код",
        "pl": "Czytam kod",
        "it": "Leggo il codice di",
        "de": "Lese den Code von",
        "es": "Leyendo el código de",
        "fr": "Lecture du code de",
    },
    "extractive": {
        "en": "This is an extractive answer: no language model is configured, so here are the most relevant passages from the sources, quoted as written.",
        "ru": "Это извлечённый ответ: языковая модель не настроена, поэтому ниже приведены самые подходящие фрагменты источников как есть.",
        "pl": "To odpowiedź ekstrakcyjna: nie skonfigurowano modelu językowego, więc poniżej cytuję najtrafniejsze fragmenty źródeł.",
        "it": "Questa è una risposta estrattiva: nessun modello linguistico è configurato, quindi ecco i passaggi più pertinenti delle fonti, citati testualmente.",
        "de": "Dies ist eine extraktive Antwort: Es ist kein Sprachmodell konfiguriert, daher folgen die passendsten Stellen der Quellen im Wortlaut.",
        "es": "Esta es una respuesta extractiva: no hay ningún modelo de lenguaje configurado, así que cito los pasajes más relevantes de las fuentes.",
        "fr": "Ceci est une réponse extractive : aucun modèle de langage n'est configuré, voici donc les passages les plus pertinents des sources, cités tels quels.",
    },
    "extractive_fallback": {
        "en": "This is an extractive answer: the configured language model ({model}) failed, so here are the most relevant passages from the sources, quoted as written.",
        "ru": "Это извлечённый ответ: настроенная языковая модель ({model}) не ответила, поэтому ниже приведены самые подходящие фрагменты источников как есть.",
        "pl": "To odpowiedź ekstrakcyjna: skonfigurowany model językowy ({model}) zawiódł, więc poniżej cytuję najtrafniejsze fragmenty źródeł.",
        "it": "Questa è una risposta estrattiva: il modello linguistico configurato ({model}) non ha risposto, quindi ecco i passaggi più pertinenti delle fonti, citati testualmente.",
        "de": "Dies ist eine extraktive Antwort: Das konfigurierte Sprachmodell ({model}) ist ausgefallen, daher folgen die passendsten Stellen der Quellen im Wortlaut.",
        "es": "Esta es una respuesta extractiva: el modelo de lenguaje configurado ({model}) falló, así que cito los pasajes más relevantes de las fuentes.",
        "fr": "Ceci est une réponse extractive : le modèle de langage configuré ({model}) a échoué, voici donc les passages les plus pertinents des sources, cités tels quels.",
    },
    "nothing": {
        "en": "I found nothing about this in the documentation, the support articles or the code.",
        "ru": "Я ничего не нашёл об этом ни в документации, ни в статьях поддержки, ни в коде.",
        "pl": "Nie znalazłem nic na ten temat w dokumentacji, artykułach pomocy ani w kodzie.",
        "it": "Non ho trovato nulla su questo nella documentazione, negli articoli di supporto o nel codice.",
        "de": "Dazu habe ich weder in der Dokumentation noch in den Support-Artikeln oder im Code etwas gefunden.",
        "es": "No encontré nada sobre esto en la documentación, los artículos de soporte ni el código.",
        "fr": "Je n'ai rien trouvé à ce sujet dans la documentation, les articles d'assistance ou le code.",
    },
    # A source that failed (tools/presentation/failures.py): named, never passed off as "nothing".
    "source_docs": {
        "en": "The documentation",
        "ru": "Документация",
        "pl": "Dokumentacja",
        "it": "La documentazione",
        "de": "Die Dokumentation",
        "es": "La documentación",
        "fr": "La documentation",
    },
    "source_kb": {
        "en": "The support articles",
        "ru": "Статьи поддержки",
        "pl": "Artykuły pomocy",
        "it": "Gli articoli di supporto",
        "de": "Die Support-Artikel",
        "es": "Los artículos de soporte",
        "fr": "Les articles d'assistance",
    },
    "source_code": {
        "en": "The code",
        "ru": "Код",
        "pl": "Kod",
        "it": "Il codice",
        "de": "Der Code",
        "es": "El código",
        "fr": "Le code",
    },
    "unreachable": {
        "en": "{source} could not be reached: {reason}.",
        "ru": "{source} недоступны: {reason}.",
        "pl": "{source} są niedostępne: {reason}.",
        "it": "{source}: impossibile raggiungere la fonte ({reason}).",
        "de": "{source}: die Quelle war nicht erreichbar ({reason}).",
        "es": "{source}: no se pudo acceder a la fuente ({reason}).",
        "fr": "{source} : la source est inaccessible ({reason}).",
    },
    "partly": {
        "en": "Note: {source}: {reason}.",
        "ru": "Примечание: {source}: {reason}.",
        "pl": "Uwaga: {source}: {reason}.",
        "it": "Nota: {source}: {reason}.",
        "de": "Hinweis: {source}: {reason}.",
        "es": "Nota: {source}: {reason}.",
        "fr": "Remarque : {source} : {reason}.",
    },
    "nothing_elsewhere": {
        "en": "The sources that answered had nothing about this.",
        "ru": "В доступных источниках об этом ничего нет.",
        "pl": "Źródła, które odpowiedziały, nie mają nic na ten temat.",
        "it": "Le fonti che hanno risposto non contengono nulla su questo.",
        "de": "Die erreichbaren Quellen enthalten dazu nichts.",
        "es": "Las fuentes que respondieron no tienen nada sobre esto.",
        "fr": "Les sources qui ont répondu ne contiennent rien à ce sujet.",
    },
    "searched": {
        "en": "Searched for: {query}",
        "ru": "Искал: {query}",
        "pl": "Szukałem: {query}",
        "it": "Ho cercato: {query}",
        "de": "Gesucht nach: {query}",
        "es": "Busqué: {query}",
        "fr": "Recherché : {query}",
    },
    "closest": {
        "en": "Closest topics",
        "ru": "Ближайшие темы",
        "pl": "Najbliższe tematy",
        "it": "Argomenti più vicini",
        "de": "Nächstliegende Themen",
        "es": "Temas más cercanos",
        "fr": "Sujets les plus proches",
    },
    "more_on_pages": {
        "en": "More on these pages",
        "ru": "Ещё на этих страницах",
        "pl": "Więcej na tych stronach",
        "it": "Altro in queste pagine",
        "de": "Mehr auf diesen Seiten",
        "es": "Más en estas páginas",
        "fr": "Plus sur ces pages",
    },
    "ask_about": {
        "en": "What does the documentation say about “{topic}”?",
        "ru": "Что в документации сказано о «{topic}»?",
        "pl": "Co dokumentacja mówi o „{topic}”?",
        "it": "Cosa dice la documentazione su «{topic}»?",
        "de": "Was sagt die Dokumentation zu „{topic}“?",
        "es": "¿Qué dice la documentación sobre «{topic}»?",
        "fr": "Que dit la documentation sur « {topic} » ?",
    },
    "sources": {
        "en": "Sources",
        "ru": "Источники",
        "pl": "Źródła",
        "it": "Fonti",
        "de": "Quellen",
        "es": "Fuentes",
        "fr": "Sources",
    },
}


def phrase(key: str, lang: str) -> str:
    """A localized phrase, English when the language has none."""
    table = PHRASES[key]
    return table.get(lang, table["en"])
