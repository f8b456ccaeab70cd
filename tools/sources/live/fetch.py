"""GET for the live sources: bounded retries that honour `Retry-After`, and failures with a reason.

Why our own loop rather than a retry library: the decision is per response (a 429 or 503 is
retried only when its `Retry-After` is short enough to wait for inside a user's question), the
wait is the server's, not a backoff curve, and every failure must come back as one sentence a
user can read ("the help center answered 503"), which the tools pass on (tools/presentation/failures.py).
"""

from __future__ import annotations

import email.utils
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from tools.settings import LiveSourceSettings

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 502, 503, 504})
# A 5xx without Retry-After is tried again after this pause (a gateway's blip).
DEFAULT_RETRY_S = 0.5
MAX_REDIRECTS = 5

# Replaced by tests: waiting is the one thing a unit test must not really do.
sleep: Callable[[float], None] = time.sleep


class SourceUnavailable(Exception):
    """A source could not answer; `reason` says why in words a user reads."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def retry_after_s(resp: httpx.Response) -> float | None:
    """The response's `Retry-After` in seconds (a number or an HTTP date); None when absent."""
    value = resp.headers.get("retry-after", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def status_reason(resp: httpx.Response, what: str) -> str:
    """`what` answered this status, said plainly (401 and 403 say what they mean)."""
    code = resp.status_code
    phrase = resp.reason_phrase or ""
    if code == 401:
        return f"{what} refused the credentials (401 {phrase or 'Unauthorized'})"
    if code == 403:
        return f"{what} denied access (403 {phrase or 'Forbidden'})"
    if code == 429:
        wait = retry_after_s(resp)
        after = f", retry after {wait:.0f} s" if wait is not None else ""
        return f"{what} is limiting requests (429 Too Many Requests{after})"
    return f"{what} answered {code} {phrase}".rstrip()


def same_site(url: str, base: str) -> bool:
    """Whether `url` is on the scheme and host of `base`: the only place a source may lead us."""
    a, b = urlsplit(url), urlsplit(base)
    return (a.scheme, a.netloc.lower()) == (b.scheme, b.netloc.lower())


def get(
    client: httpx.Client,
    url: str,
    what: str,
    live: LiveSourceSettings,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, Any] | None = None,
) -> httpx.Response:
    """GET `url`; a 429/5xx is retried `live.retries` times after its `Retry-After`.

    Returns the last response, whatever its status (the caller decides what a 404 means);
    raises `SourceUnavailable` when nothing answered (down, refused, timed out). A
    `Retry-After` longer than `live.retry_after_max_s` is not waited for: the 429 is returned.
    """
    for attempt in range(live.retries + 1):
        resp = _follow(client, url, what, live, headers, params)
        if resp.status_code not in RETRY_STATUSES or attempt == live.retries:
            return resp
        wait = retry_after_s(resp)
        wait = DEFAULT_RETRY_S if wait is None else wait
        if wait > live.retry_after_max_s:
            return resp
        log.info("%s answered %s; retrying in %.1f s", what, resp.status_code, wait)
        sleep(wait)
    raise AssertionError("unreachable")  # the loop returns on its last attempt


def _follow(
    client: httpx.Client,
    url: str,
    what: str,
    live: LiveSourceSettings,
    headers: Mapping[str, str] | None,
    params: Mapping[str, Any] | None,
) -> httpx.Response:
    """One GET, its redirects followed only on the same host (at most MAX_REDIRECTS)."""
    for _ in range(MAX_REDIRECTS + 1):
        try:
            resp = client.get(url, headers=dict(headers or {}), params=params)
        except httpx.TimeoutException as exc:
            raise SourceUnavailable(f"{what} did not answer within {live.timeout_s:g} s") from exc
        except httpx.HTTPError as exc:
            raise SourceUnavailable(f"{what} is unreachable ({type(exc).__name__})") from exc
        if urlsplit(str(resp.url)).netloc.lower() != urlsplit(url).netloc.lower():
            # The client followed a redirect to another host itself (an injected client).
            raise SourceUnavailable(f"{what} redirected to another host ({resp.url.host})")
        if not resp.has_redirect_location:
            return resp
        target = urljoin(str(resp.url), resp.headers.get("location", ""))
        if urlsplit(target).netloc.lower() != urlsplit(url).netloc.lower():
            # Not followed: its pages are not the configured source's, nor its credentials.
            raise SourceUnavailable(
                f"{what} redirected to another host ({urlsplit(target).netloc})"
            )
        url, params = target, None
    raise SourceUnavailable(f"{what} redirected more than {MAX_REDIRECTS} times")


def client_for(live: LiveSourceSettings) -> httpx.Client:
    """An HTTP client with the sources' time limit; `get` follows redirects (same host only)."""
    timeout = httpx.Timeout(live.timeout_s, connect=min(5.0, live.timeout_s))
    return httpx.Client(timeout=timeout, follow_redirects=False)
