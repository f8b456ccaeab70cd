"""server/log_redaction.py: credentials never reach a log record."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from server import log_redaction as R
from tests.unit.server.auth_cases import (
    TA,
    hs256,
)


def test_credentials_are_redacted_from_log_records() -> None:
    token = hs256()
    line = f"GET /threads?limit=5&token={TA}&x=1 401 query_string=access_token={token}"
    assert TA not in R.redact(line) and token not in R.redact(line)
    assert "limit=5" in R.redact(line) and "x=1" in R.redact(line)
    assert token not in R.redact(f"bare {token} in text")
    record = logging.LogRecord(
        "x", logging.INFO, "f", 1, {"event": "GET", "query_string": f"token={TA}"}, None, None
    )
    R.RedactCredentials().filter(record)
    assert TA not in str(record.msg)
    nested = {"event": "x", "http": {"url": f"/threads?token={token}", "list": [f"jwt={TA}"]}}
    record = logging.LogRecord("x", logging.INFO, "f", 1, nested, None, None)
    R.RedactCredentials().filter(record)
    assert TA not in str(record.msg) and token not in str(record.msg)
    record = logging.LogRecord(
        "x", logging.INFO, "f", 1, '"%s %s"', ("GET", f"/t?jwt={token}"), None
    )
    R.RedactCredentials().filter(record)
    assert token not in record.getMessage()


@pytest.fixture
def handler_on_root() -> Iterator[logging.Handler]:
    handler = logging.StreamHandler()
    logging.getLogger().addHandler(handler)
    try:
        yield handler
    finally:
        logging.getLogger().removeHandler(handler)


def test_log_redaction_is_installed_on_handlers(handler_on_root: logging.Handler) -> None:
    R.install_log_redaction()
    R.install_log_redaction()
    assert sum(isinstance(f, R.RedactCredentials) for f in handler_on_root.filters) == 1
