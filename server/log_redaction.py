"""Credentials never reach the log: query values and JWT-shaped strings are redacted.

Both engines (and uvicorn) log the full URL of a request, and a token a client put in the URL
(refused by server/credentials.py) would otherwise be kept in the log. A logging filter on every
handler rather than a change to the engines' loggers: it works the same on both.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from server.credentials import CREDENTIAL_PARAMS

_SECRET_IN_QUERY = re.compile(
    r"(?i)(?<![\w-])(" + "|".join(sorted(CREDENTIAL_PARAMS)) + r")=([^&\s\"']+)"
)
_JWT_SHAPED = re.compile(r"eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*")


def redact(text: str) -> str:
    """`text` with credential query values and JWT-shaped strings replaced by `[redacted]`."""
    return _JWT_SHAPED.sub("[redacted]", _SECRET_IN_QUERY.sub(r"\1=[redacted]", text))


class RedactCredentials(logging.Filter):
    """Redacts credentials from every record a handler writes (access logs log the query string).

    A filter rather than a change to the engines' loggers: both engines (and uvicorn) log the full
    URL of a request, and a token a client put in the URL would otherwise be kept in the log.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drop it."""
        # A str, or structlog's event dict (Aegra nests the URL: `http={"url": ...}`).
        record.msg = redact_value(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact_value(a) for a in record.args)
        return True


def redact_value(value: Any, depth: int = 0) -> Any:
    """`redact` applied to a string, or to the strings inside dicts, lists and tuples."""
    if isinstance(value, str):
        return redact(value)
    if depth > 4:
        return value
    if isinstance(value, dict):
        return {k: redact_value(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_value(v, depth + 1) for v in value)
    return value


def install_log_redaction(logger_names: Sequence[str] = ("", "uvicorn.access", "uvicorn")) -> None:
    """Put one `RedactCredentials` on every handler of these loggers (once)."""
    for name in logger_names:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RedactCredentials) for f in handler.filters):
                handler.addFilter(RedactCredentials())
