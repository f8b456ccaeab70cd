"""server/web/first_screen.py: the team's own first screen, else topics from the docs' navigation."""

from __future__ import annotations

from types import SimpleNamespace

from server.web import first_screen
from settings.web import WebSettings


def test_first_screen_settings_are_trimmed_and_capped() -> None:
    screen = first_screen.configured(
        WebSettings.from_env(
            {
                "DOCS_AGENT_WEB_WELCOME": "  Hi  ",
                "DOCS_AGENT_WEB_EXAMPLES": "a| b ||c|d|e",
                "DOCS_AGENT_WEB_DISCLAIMER": "",
            }
        )
    )
    assert screen == {"welcome": "Hi", "examples": ["a", "b", "c", "d"], "disclaimer": None}


class _Index:
    def __init__(self, titles: dict[str, str]) -> None:
        self.titles = titles

    def keys(self) -> list[str]:
        return list(self.titles)

    def get(self, key: str) -> SimpleNamespace | None:
        return SimpleNamespace(title=self.titles[key]) if key in self.titles else None


def _docs(
    nav: tuple[str, ...] | None, titles: dict[str, str], nav_titles: dict[str, str]
) -> SimpleNamespace:
    site = SimpleNamespace(nav=nav, title_for=nav_titles.get)
    return SimpleNamespace(site=site, index=_Index(titles), _synced=True)


def test_example_topics_follow_the_navigation_without_the_home_page() -> None:
    docs = _docs(
        ("index.md", "start.md", "guide/stream.md", "guide/auth.md", "api.md", "faq.md"),
        {"start.md": "Get started", "guide/stream.md": "Streaming", "api.md": "API"},
        {"guide/auth.md": "Auth (nav title)"},
    )
    assert first_screen.titles_in_reading_order(docs) == [
        "Get started",
        "Streaming",
        "Auth (nav title)",
        "API",
    ]


def test_example_topics_without_navigation_are_the_shallowest_pages() -> None:
    docs = _docs(
        None,
        {
            "index.md": "Home",
            "b.md": "Bravo",
            "a.md": "Alpha",
            "deep/x.md": "Deep",
            "README.md": "R",
        },
        {},
    )
    assert first_screen.titles_in_reading_order(docs) == ["Alpha", "Bravo", "Deep"]
    docs._synced = False  # an index still building is never waited for
    assert first_screen.titles_in_reading_order(docs) == []
