"""The chat page, widget, guests, feedback and report of test_web_chat_e2e.py, on Aegra.

Same browser scenarios, same attack checks, against Aegra on PostgreSQL + Redis: `http.app`
in aegra.json serves the page, the store scope `answers_report` keeps the report readable by
operators only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from testing.browser import (
    Browser,
    chromium_path,  # noqa: E402
)
from testing.fake_openai import FakeOpenAI
from testing.servers import AegraServices, AegraStack
from tests.e2e import test_web_chat_e2e as on_dev
from tests.e2e.test_web_chat_e2e import browser, fake_model, site_port

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(600),
    pytest.mark.skipif(
        chromium_path() is None, reason="needs Debian's chromium (.ci/run installs it)"
    ),
]

__all__ = ["browser", "fake_model", "site_port"]


@pytest.fixture(scope="module")
def web_server(
    aegra_services: AegraServices, tmp_path_factory: pytest.TempPathFactory, site_port: int
) -> Iterator[str]:
    env = on_dev.web_env(site_port)
    stack = AegraStack(tmp_path_factory.mktemp("web-aegra"), aegra_services, env)
    try:
        yield stack.start().url
    finally:
        stack.stop()


# The dev scenarios in their order (the report counts what the earlier ones asked and voted).
def test_chat_on_aegra(web_server: str, browser: Browser) -> None:
    on_dev.test_signed_in_user_asks_streams_follows_up_votes_and_reopens(web_server, browser)


def test_guests_apart_on_aegra(web_server: str, browser: Browser) -> None:
    on_dev.test_guests_get_their_own_identity_and_never_see_each_other(web_server, browser)


def test_widget_on_aegra(web_server: str, browser: Browser, site_port: int) -> None:
    on_dev.test_widget_opens_the_chat_only_on_configured_origins(web_server, browser, site_port)


def test_assets_small_on_aegra(web_server: str) -> None:
    on_dev.test_page_assets_a_docs_site_loads_stay_small(web_server)


def test_client_example_votes_on_aegra(web_server: str) -> None:
    on_dev.test_client_example_sends_a_vote_with_a_comment(web_server)


def test_report_operators_only_on_aegra(web_server: str, browser: Browser, tmp_path: Path) -> None:
    on_dev.test_report_reads_every_turn_for_operators_only(web_server, browser, tmp_path)


def test_language_on_aegra(web_server: str, browser: Browser) -> None:
    on_dev.test_page_speaks_the_browsers_language(web_server, browser)


def test_guest_minting_limited_on_aegra(web_server: str) -> None:
    on_dev.test_one_address_cannot_mint_guests_without_end(web_server)


# --- The page with the scripted real model, on Aegra (issue 31) -----------------------------------


@pytest.fixture(scope="module")
def model_server(
    aegra_services: AegraServices,
    tmp_path_factory: pytest.TempPathFactory,
    site_port: int,
    fake_model: FakeOpenAI,
) -> Iterator[str]:
    env = on_dev.model_env(fake_model, site_port)
    stack = AegraStack(tmp_path_factory.mktemp("web-aegra-model"), aegra_services, env)
    try:
        yield stack.start().url
    finally:
        stack.stop()


def test_real_model_answer_on_aegra(model_server: str, browser: Browser) -> None:
    on_dev.test_real_model_answer_renders_streams_and_keeps_its_actions_in_view(
        model_server, browser
    )


def test_stop_on_aegra(model_server: str, browser: Browser) -> None:
    on_dev.test_stop_cancels_the_run_on_the_server_and_the_thread_goes_on(model_server, browser)


def test_queued_question_on_aegra(model_server: str, browser: Browser) -> None:
    on_dev.test_question_typed_while_an_answer_streams_is_sent_after_it(model_server, browser)


def test_cut_model_stream_on_aegra(
    model_server: str, browser: Browser, fake_model: FakeOpenAI
) -> None:
    on_dev.test_a_model_stream_cut_mid_answer_is_retried_without_leftovers(
        model_server, browser, fake_model
    )


def test_failures_on_aegra(model_server: str, browser: Browser) -> None:
    on_dev.test_failures_show_words_retry_and_a_countdown(model_server, browser)


def test_rate_limit_on_aegra(model_server: str, browser: Browser, fake_model: FakeOpenAI) -> None:
    on_dev.test_rate_limit_is_counted_down_and_the_question_kept(model_server, browser, fake_model)


def test_embedded_page_on_aegra(model_server: str, browser: Browser, site_port: int) -> None:
    on_dev.test_embedded_page_talks_to_the_widget_and_keeps_the_conversation(
        model_server, browser, site_port
    )
