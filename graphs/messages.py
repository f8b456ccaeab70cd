"""Message helpers the graphs share: this turn's messages, AI messages by type, failure texts.

A message's text is `BaseMessage.text` (string content or text blocks); nothing here re-implements it.
A turn that ends on a model or engine failure ends with an AI message whose
`additional_kwargs["failure"]` is `{"kind", "retry_after_s", "message"}` (contract C2; written by
graphs/middleware/retry.py, read by the page, the turn record and the report); `failure_of` reads
it, `failure_text` is the reader's text in their language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from langchain_core.messages import BaseMessage

# `.type` of AI messages: streamed answers may be `AIMessageChunk` ("AIMessageChunk"), not AIMessage.
AI_TYPES = frozenset({"ai", "AIMessageChunk"})


def is_ai(message: BaseMessage) -> bool:
    """An AI message or chunk, judged by its type field (a chunk is not an AIMessage instance)."""
    return message.type in AI_TYPES


def current_turn(messages: Sequence[BaseMessage]) -> tuple[str, list[BaseMessage]]:
    """The latest user question and the messages that followed it (this turn's tool traffic)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].type == "human":
            return messages[i].text, list(messages[i + 1 :])
    return "", list(messages)


FailureKind = Literal[
    "rate_limited", "model_unavailable", "stream_cut", "timeout", "refused", "bad_reply", "engine"
]
FAILURE_KINDS: tuple[FailureKind, ...] = get_args(FailureKind)


def failure_of(message: Any) -> Mapping[str, Any] | None:
    """The `failure` metadata of a message (contract C2); None for an answer."""
    kwargs = getattr(message, "additional_kwargs", None)
    if kwargs is None and isinstance(message, Mapping):
        kwargs = message.get("additional_kwargs")
    failure = (kwargs or {}).get("failure") if isinstance(kwargs, Mapping) else None
    return (
        failure if isinstance(failure, Mapping) and failure.get("kind") in FAILURE_KINDS else None
    )


# --- What a reader reads when a turn ends on a model or engine failure ----------------------------
# One text per failure (graphs/middleware/retry.py picks the key), in every language the offline
# model detects (graphs/offline/language.py). Each says what happened in the reader's terms and
# what to do next; none names an exception, a module or a provider's raw error text. `{status}`
# becomes " (HTTP 503)" when the provider gave a status (a code the reader can pass on), `{wait}` a
# duration from `wait_phrase`, `{next}` what to do next: try again (after the provider's wait when
# it named one). The texts of `refused` and `too_long` have no `{next}`: trying again will not help.
FAILURE_TEXTS: dict[str, dict[str, str]] = {
    "rate_limited": {
        "en": "The AI model is busy right now: its provider is limiting requests{status}. {next}",
        "ru": "Модель ИИ сейчас перегружена: её провайдер ограничивает число запросов{status}. {next}",
        "pl": "Model AI jest teraz przeciążony: jego dostawca ogranicza liczbę zapytań{status}. {next}",
        "it": "Il modello di IA è occupato in questo momento: il suo fornitore sta limitando le richieste{status}. {next}",
        "de": "Das KI-Modell ist gerade ausgelastet: sein Anbieter begrenzt die Anfragen{status}. {next}",
        "es": "El modelo de IA está ocupado ahora mismo: su proveedor está limitando las solicitudes{status}. {next}",
        "fr": "Le modèle d'IA est occupé pour le moment : son fournisseur limite les requêtes{status}. {next}",
    },
    "model_unavailable": {
        "en": "The AI model is not available right now: its provider could not be reached or "
        "reported a problem{status}. {next} If this keeps happening, please tell whoever runs this assistant.",
        "ru": "Модель ИИ сейчас недоступна: не удалось связаться с её провайдером или он сообщил о "
        "проблеме{status}. {next} Если это повторяется, сообщите тому, кто обслуживает этого ассистента.",
        "pl": "Model AI jest teraz niedostępny: nie udało się połączyć z jego dostawcą albo dostawca "
        "zgłosił problem{status}. {next} Jeśli to się powtarza, powiadom osobę, która prowadzi tego asystenta.",
        "it": "Il modello di IA non è disponibile in questo momento: il suo fornitore non è "
        "raggiungibile o ha segnalato un problema{status}. {next} Se succede ancora, avvisa chi gestisce questo assistente.",
        "de": "Das KI-Modell ist gerade nicht erreichbar: sein Anbieter antwortet nicht oder meldet "
        "ein Problem{status}. {next} Wenn das öfter passiert, sagen Sie bitte den Betreibern dieses Assistenten Bescheid.",
        "es": "El modelo de IA no está disponible ahora mismo: no se pudo contactar con su proveedor "
        "o este informó de un problema{status}. {next} Si sigue pasando, avise a quien administra este asistente.",
        "fr": "Le modèle d'IA n'est pas disponible pour le moment : son fournisseur est injoignable "
        "ou a signalé un problème{status}. {next} Si cela se reproduit, prévenez la personne qui gère cet assistant.",
    },
    "stream_cut": {
        "en": "The connection to the AI model broke while it was answering, so the answer is incomplete. {next}",
        "ru": "Связь с моделью ИИ оборвалась во время ответа, поэтому ответ неполный. {next}",
        "pl": "Połączenie z modelem AI zerwało się w trakcie odpowiedzi, więc odpowiedź jest niepełna. {next}",
        "it": "La connessione con il modello di IA si è interrotta durante la risposta, quindi la risposta è incompleta. {next}",
        "de": "Die Verbindung zum KI-Modell ist während der Antwort abgebrochen, die Antwort ist daher unvollständig. {next}",
        "es": "La conexión con el modelo de IA se cortó mientras respondía, así que la respuesta está incompleta. {next}",
        "fr": "La connexion avec le modèle d'IA a été coupée pendant la réponse : la réponse est donc incomplète. {next}",
    },
    "timeout": {
        "en": "The AI model did not answer in time{status}. A shorter, more specific question can help. {next}",
        "ru": "Модель ИИ не ответила вовремя{status}. Помочь может более короткий и конкретный вопрос. {next}",
        "pl": "Model AI nie odpowiedział na czas{status}. Może pomóc krótsze, bardziej konkretne pytanie. {next}",
        "it": "Il modello di IA non ha risposto in tempo{status}. Una domanda più breve e precisa può aiutare. {next}",
        "de": "Das KI-Modell hat nicht rechtzeitig geantwortet{status}. Eine kürzere, genauere Frage kann helfen. {next}",
        "es": "El modelo de IA no respondió a tiempo{status}. Una pregunta más corta y concreta puede ayudar. {next}",
        "fr": "Le modèle d'IA n'a pas répondu à temps{status}. Une question plus courte et plus précise peut aider. {next}",
    },
    "refused": {
        "en": "The AI model's provider refused this assistant's request{status}: the model settings "
        "(API key, model name or access) need fixing. Retrying will not help; please tell whoever runs this assistant.",
        "ru": "Провайдер модели ИИ отклонил запрос ассистента{status}: нужно исправить настройки модели "
        "(ключ API, имя модели или доступ). Повтор не поможет; сообщите тому, кто обслуживает этого ассистента.",
        "pl": "Dostawca modelu AI odrzucił zapytanie asystenta{status}: trzeba poprawić ustawienia modelu "
        "(klucz API, nazwę modelu lub dostęp). Ponowna próba nie pomoże; powiadom osobę, która prowadzi tego asystenta.",
        "it": "Il fornitore del modello di IA ha rifiutato la richiesta dell'assistente{status}: le "
        "impostazioni del modello (chiave API, nome del modello o accesso) vanno corrette. Riprovare non "
        "serve; avvisa chi gestisce questo assistente.",
        "de": "Der Anbieter des KI-Modells hat die Anfrage des Assistenten abgelehnt{status}: die "
        "Modelleinstellungen (API-Schlüssel, Modellname oder Zugriff) müssen korrigiert werden. Ein neuer "
        "Versuch hilft nicht; sagen Sie bitte den Betreibern dieses Assistenten Bescheid.",
        "es": "El proveedor del modelo de IA rechazó la solicitud del asistente{status}: hay que corregir "
        "la configuración del modelo (clave de API, nombre del modelo o acceso). Reintentar no servirá; "
        "avise a quien administra este asistente.",
        "fr": "Le fournisseur du modèle d'IA a refusé la requête de l'assistant{status} : les réglages du "
        "modèle (clé d'API, nom du modèle ou accès) doivent être corrigés. Réessayer ne servira à rien ; "
        "prévenez la personne qui gère cet assistant.",
    },
    "too_long": {
        "en": "This conversation has grown too long for the AI model. Please start a new conversation and ask again.",
        "ru": "Этот разговор стал слишком длинным для модели ИИ. Начните новый разговор и задайте вопрос ещё раз.",
        "pl": "Ta rozmowa jest już za długa dla modelu AI. Zacznij nową rozmowę i zadaj pytanie ponownie.",
        "it": "Questa conversazione è diventata troppo lunga per il modello di IA. Inizia una nuova conversazione e chiedi di nuovo.",
        "de": "Diese Unterhaltung ist für das KI-Modell zu lang geworden. Bitte beginnen Sie eine neue Unterhaltung und fragen Sie erneut.",
        "es": "Esta conversación se ha vuelto demasiado larga para el modelo de IA. Empiece una conversación nueva y vuelva a preguntar.",
        "fr": "Cette conversation est devenue trop longue pour le modèle d'IA. Commencez une nouvelle conversation et reposez la question.",
    },
    "bad_reply": {
        "en": "The AI model sent a reply that could not be used, even after retrying. Rephrasing the question can help. {next}",
        "ru": "Модель ИИ прислала непригодный ответ, даже после повторной попытки. Помочь может переформулированный вопрос. {next}",
        "pl": "Model AI przysłał odpowiedź, której nie da się użyć, nawet po ponownej próbie. Może pomóc inne sformułowanie pytania. {next}",
        "it": "Il modello di IA ha inviato una risposta inutilizzabile, anche dopo un nuovo tentativo. Riformulare la domanda può aiutare. {next}",
        "de": "Das KI-Modell hat auch nach einem neuen Versuch eine unbrauchbare Antwort geschickt. Eine anders formulierte Frage kann helfen. {next}",
        "es": "El modelo de IA envió una respuesta que no se pudo usar, incluso tras reintentar. Reformular la pregunta puede ayudar. {next}",
        "fr": "Le modèle d'IA a envoyé une réponse inutilisable, même après une nouvelle tentative. Reformuler la question peut aider. {next}",
    },
    "engine": {
        "en": "Something went wrong inside the assistant while it was answering. {next} If this keeps happening, please tell whoever runs this assistant.",
        "ru": "Во время ответа внутри ассистента произошла ошибка. {next} Если это повторяется, сообщите тому, кто обслуживает этого ассистента.",
        "pl": "Podczas odpowiedzi coś poszło nie tak wewnątrz asystenta. {next} Jeśli to się powtarza, powiadom osobę, która prowadzi tego asystenta.",
        "it": "Qualcosa è andato storto nell'assistente durante la risposta. {next} Se succede ancora, avvisa chi gestisce questo assistente.",
        "de": "Beim Antworten ist im Assistenten etwas schiefgegangen. {next} Wenn das öfter passiert, sagen Sie bitte den Betreibern dieses Assistenten Bescheid.",
        "es": "Algo falló dentro del asistente mientras respondía. {next} Si sigue pasando, avise a quien administra este asistente.",
        "fr": "Un problème est survenu dans l'assistant pendant la réponse. {next} Si cela se reproduit, prévenez la personne qui gère cet assistant.",
    },
}
# What the reader can do next: try again after the provider's wait, or soon (the page's Retry).
TRY_AGAIN_IN: dict[str, str] = {
    "en": "Please try again in {wait}.",
    "ru": "Попробуйте ещё раз через {wait}.",
    "pl": "Spróbuj ponownie za {wait}.",
    "it": "Riprova tra {wait}.",
    "de": "Bitte versuchen Sie es in {wait} erneut.",
    "es": "Vuelva a intentarlo dentro de {wait}.",
    "fr": "Veuillez réessayer dans {wait}.",
}
TRY_AGAIN: dict[str, str] = {
    "en": "Please try again.",
    "ru": "Попробуйте ещё раз.",
    "pl": "Spróbuj ponownie.",
    "it": "Riprova.",
    "de": "Bitte versuchen Sie es erneut.",
    "es": "Vuelva a intentarlo.",
    "fr": "Veuillez réessayer.",
}


# Seconds, minutes, hours, abbreviated: no plural forms to get wrong in any language.
_UNITS: dict[str, tuple[str, str, str]] = {"ru": ("с", "мин", "ч")}


def wait_phrase(seconds: int, lang: str) -> str:
    """`seconds` as a reader reads a wait: "30 seconds", "2 minutes"; units abbreviated outside English."""
    if lang == "en":
        if seconds < 90:
            return f"{seconds} second{'s' if seconds != 1 else ''}"
        if seconds < 5400:
            minutes = round(seconds / 60)
            return f"{minutes} minute{'s' if minutes != 1 else ''}"
        return f"{round(seconds / 3600)} hours"
    sec, mins, hours = _UNITS.get(lang, ("s", "min", "h"))
    if seconds < 90:
        return f"{seconds} {sec}"
    if seconds < 5400:
        return f"{round(seconds / 60)} {mins}"
    return f"{round(seconds / 3600)} {hours}"


def failure_text(
    key: str, lang: str, *, retry_after_s: int | None = None, status: int | None = None
) -> str:
    """The reader-facing text of a failure `key` in `lang` (English when the language has no text)."""
    table = FAILURE_TEXTS.get(key) or FAILURE_TEXTS["engine"]
    text = table.get(lang) or table["en"]
    if retry_after_s:
        step = (TRY_AGAIN_IN.get(lang) or TRY_AGAIN_IN["en"]).format(
            wait=wait_phrase(retry_after_s, lang)
        )
    else:
        step = TRY_AGAIN.get(lang) or TRY_AGAIN["en"]
    return text.format(status=f" (HTTP {status})" if status else "", next=step)
