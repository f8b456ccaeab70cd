"""The registry is the one list of generators: a new one is its package's record and one line there.

The generator below is what a package under tools/sources/generators/ would hold (detect, profile,
rules with its route and slug rule, a reader); putting its record in `GENERATORS` is all it takes
for detection, the settings, URLs, anchors and reading to know it. Nothing else is patched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.unit.tools.sources.folder_corpus import doc, synced
from tools.settings import SourceSettings
from tools.sources import registry, slugs
from tools.sources.generator import Generator
from tools.sources.markdown.parse import parse_markdown
from tools.sources.records import Page
from tools.sources.site import GeneratorRules, Site


def _fancy_slug(heading: str) -> str:
    return "h-" + "_".join(heading.lower().split())


@dataclass(frozen=True)
class FancyRules(GeneratorRules):
    """Pages at `/p/<stem>.htm`, `.fancy` files read by the generator's own reader."""

    name: str = "fancy"

    def reader_for(self, site: Site, rel: str) -> str | None:
        return "fancy" if rel.endswith(".fancy") else super().reader_for(site, rel)

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        return "p/" + path.rsplit(".", 1)[0] + ".htm"


def _config_files(folder: Path) -> Iterable[Path]:
    return [folder / "fancy.toml"] if (folder / "fancy.toml").is_file() else []


def _profile(root: Path, config: Path | None) -> Site:
    return Site(rules=FancyRules(), base_url="https://fancy.example", slug="fancy")


def _read_fancy(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    return parse_markdown(rel, text.replace("%%", "#"), language, site.slug)


FANCY = Generator(
    name="fancy",
    profile=_profile,
    rules=FancyRules,
    config_files=_config_files,
    readers={"fancy": _read_fancy},
)


@pytest.fixture
def fancy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tables are copies for this test only; `register` is what the package does on import.
    monkeypatch.setattr(slugs, "SLUG_RULES", dict(slugs.SLUG_RULES))
    monkeypatch.setattr(slugs, "_REPEAT_FORMATS", dict(slugs._REPEAT_FORMATS))
    slugs.register("fancy", _fancy_slug, "{}~{}")
    monkeypatch.setattr(registry, "GENERATORS", (FANCY, *registry.GENERATORS))


@pytest.mark.usefixtures("fancy_registered")
def test_a_new_generator_is_its_record_in_the_registry(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fancy.toml").write_text("")
    (docs / "guide.fancy").write_text("%% Getting Started\n\nWords.\n\n%% Getting Started\n")
    (docs / "other.md").write_text("# Plain page\n")
    assert registry.detect_generator(docs)[0] == "fancy"
    assert SourceSettings.from_env({"DOCS_AGENT_DOCS_GENERATOR": "fancy"}).docs_generator == "fancy"
    assert SourceSettings.from_env({"DOCS_AGENT_DOCS_SLUG": "fancy"}).docs_slug == "fancy"
    corpus = synced(docs, tmp_path / "index")
    assert corpus.site.generator == "fancy"
    guide = doc(corpus, "guide.fancy")
    assert guide.url == "https://fancy.example/p/guide.htm"
    assert [s.anchor for s in guide.sections if s.level] == [
        "h-getting_started",
        "h-getting_started~1",
    ]
    assert doc(corpus, "other.md").url == "https://fancy.example/p/other.htm"


def test_a_slug_rule_name_is_never_taken_twice() -> None:
    with pytest.raises(ValueError, match="already another rule"):
        slugs.register("github", _fancy_slug)
