"""`make index` and the background index build at server start (tools/build_index.py)."""

from __future__ import annotations

import io
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

from settings.sources import SourceSettings
from tools import build_index, load_sources


@pytest.fixture
def settings(tmp_path: Path, index_dir: Path) -> SourceSettings:
    docs, kb = tmp_path / "docs", tmp_path / "kb" / "errors"
    docs.mkdir()
    kb.mkdir(parents=True)
    for i in range(3):
        (docs / f"page{i}.md").write_text(f"# Page {i}\n\nHow to configure quokka number {i}.\n")
    (kb / "timeout.md").write_text("# Timeout\n\nThe run times out after the quokka limit.\n")
    return SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(docs),
            "DOCS_AGENT_KB_DIR": str(tmp_path / "kb"),
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
        }
    )


def test_build_indexes_docs_and_kb_with_progress_then_only_checks(
    settings: SourceSettings,
) -> None:
    sources = load_sources(settings)
    calls: list[tuple[str, int, int]] = []
    stats = build_index.build(
        sources, lambda name: lambda done, total: calls.append((name, done, total))
    )
    assert {name: s.added for name, s in stats.items()} == {"docs": 3, "kb": 1}
    assert ("docs", 3, 3) in calls and ("kb", 1, 1) in calls
    again = build_index.build(sources)
    assert {name: (s.added, s.unchanged) for name, s in again.items()} == {
        "docs": (0, 3),
        "kb": (0, 1),
    }
    assert sources.docs.search("configure quokka", 5)


def test_warm_up_only_in_a_server_once_and_can_be_switched_off(
    settings: SourceSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = load_sources(settings)
    monkeypatch.setattr(build_index, "_started", type(build_index._started)())
    for name in build_index.SERVER_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert build_index.warm_up(sources) is None  # not a server: the lazy build stays
    monkeypatch.setitem(sys.modules, "aegra_api", types.ModuleType("aegra_api"))
    switched_off = load_sources(replace(settings, warm_up=False))  # DOCS_AGENT_WARM_UP=false
    assert build_index.warm_up(switched_off) is None
    thread = build_index.warm_up(sources)
    assert thread is not None
    thread.join(30)
    assert not thread.is_alive()
    assert sources.docs._synced and sources.kb._synced  # a first question finds them built
    assert build_index.warm_up(sources) is None  # once per process


def test_warm_up_also_reads_the_code_definitions(
    settings: SourceSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tools.codebase import symbols

    code = tmp_path / "code"
    code.mkdir()
    (code / "quokka.py").write_text("class QuokkaCounter:\n    pass\n")
    sources = load_sources(settings)
    sources.code_roots = load_sources(
        SourceSettings.from_env({"DOCS_AGENT_CODE_ROOTS": f"app={code}"})
    ).code_roots
    monkeypatch.setattr(symbols, "_CACHE", {})
    build_index._warm(sources)
    # The offline model's first code step finds the definitions already read.
    assert [list(index.names) for index in symbols._CACHE.values()] == [["QuokkaCounter"]]


def test_warm_up_loads_what_every_question_needs_first(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    class Backend:
        def __init__(self, name: str) -> None:
            self.name = name

        def sync(self, progress: object = None) -> None:
            raise AssertionError("the warm-up loads; it does not rebuild")

        def ensure_synced(self) -> None:
            raise AssertionError("the warm-up loads the lexical index, which syncs it")

        def load_lexical(self) -> None:
            calls.append(f"{self.name} lexical")

        def load_vectors(self) -> None:
            calls.append(f"{self.name} vectors")

    monkeypatch.setattr(build_index, "symbol_index", lambda roots: calls.append("code symbols"))
    sources = types.SimpleNamespace(docs=Backend("docs"), kb=Backend("kb"), code_roots=["app"])
    build_index._warm(sources)  # type: ignore[arg-type]
    # Vectors only serve weak lexical rankings: a question arriving meanwhile needs the rest first.
    assert calls == ["docs lexical", "kb lexical", "code symbols", "docs vectors", "kb vectors"]


def test_warm_up_failure_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        def sync(self, progress: object = None) -> None:
            raise OSError("disk full")

        def ensure_synced(self) -> None:
            self.sync()

        def load_lexical(self) -> None:
            self.ensure_synced()

        def load_vectors(self) -> None:
            raise AssertionError("not reached: the lexical load failed first")

    sources = types.SimpleNamespace(docs=Broken(), kb=None, code_roots=[])
    build_index._warm(sources)  # type: ignore[arg-type]
    assert "index warm-up failed" in caplog.text


def test_cli_prints_summary_and_progress(
    settings: SourceSettings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(build_index.SourceSettings, "from_env", classmethod(lambda cls: settings))
    assert build_index.main([]) == 0
    out, err = capsys.readouterr()
    assert "docs: 3 added" in out and "kb: 1 added" in out and "index ready" in out
    assert "3/3 pages" in err  # the progress bar (one line per tenth when not a terminal)
    assert build_index.main(["--quiet"]) == 0
    assert "docs: 0 added, 0 updated, 0 removed, 3 unchanged" in capsys.readouterr().out


def test_cli_with_no_source_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = SourceSettings.from_env(
        {"DOCS_AGENT_DOCS_DIR": "", "DOCS_AGENT_KB_DIR": "", "DOCS_AGENT_CODE_ROOTS": ""}
    )
    monkeypatch.setattr(build_index.SourceSettings, "from_env", classmethod(lambda cls: empty))
    assert build_index.main([]) == 1
    assert "nothing to index" in capsys.readouterr().err


def test_progress_bar_draws_in_place_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    bar = build_index.ProgressBar("docs", out, width=10)
    bar(5, 10)
    bar(10, 10)
    assert out.getvalue().count("\r") == 2 and "[#####     ] 5/10" in out.getvalue()
    assert out.getvalue().endswith("\n")


def test_make_index_fails_loudly_on_a_source_that_yields_no_pages(
    tmp_path: Path,
    index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs = tmp_path / "asciidoc-docs"
    docs.mkdir()
    (docs / "index.adoc").write_text("= Title\n\nText.\n")
    (docs / "guide.adoc").write_text("= Guide\n")
    for name, value in {
        "DOCS_AGENT_DOCS_DIR": str(docs),
        "DOCS_AGENT_KB_DIR": "",
        "DOCS_AGENT_CODE_ROOTS": "",
        "DOCS_AGENT_INDEX_DIR": str(index_dir),
    }.items():
        monkeypatch.setenv(name, value)
    load_sources.cache_clear()
    assert build_index.main(["--quiet"]) == 2
    err = capsys.readouterr().err
    assert "yields 0 pages" in err and str(docs) in err and ".adoc" in err
    assert "index ready" not in capsys.readouterr().out


def test_make_index_names_a_configured_folder_that_does_not_exist(
    tmp_path: Path,
    index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "a.md").write_text("# A\n\nText.\n")
    for name, value in {
        "DOCS_AGENT_DOCS_DIR": str(tmp_path / "no-such-docs"),
        "DOCS_AGENT_KB_DIR": str(kb),
        "DOCS_AGENT_CODE_ROOTS": "",
        "DOCS_AGENT_INDEX_DIR": str(index_dir),
    }.items():
        monkeypatch.setenv(name, value)
    load_sources.cache_clear()
    assert build_index.main(["--quiet"]) == 2
    assert (
        f"the configured folder {tmp_path / 'no-such-docs'} does not exist"
        in capsys.readouterr().err
    )


def _configure(monkeypatch: pytest.MonkeyPatch, values: dict[str, str]) -> None:
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    load_sources.cache_clear()


def test_make_index_fails_on_an_empty_kb_folder_too(
    tmp_path: Path,
    index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs, kb = tmp_path / "docs", tmp_path / "kb"
    docs.mkdir()
    kb.mkdir()
    (docs / "a.md").write_text("# A\n\nText.\n")
    (kb / "notes.txt").write_text("not an article\n")
    _configure(
        monkeypatch,
        {
            "DOCS_AGENT_DOCS_DIR": str(docs),
            "DOCS_AGENT_KB_DIR": str(kb),
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
        },
    )
    assert build_index.main(["--quiet"]) == 2
    assert f"kb: {kb.resolve()} yields 0 pages" in capsys.readouterr().err


def test_make_index_warns_but_builds_a_site_it_is_unsure_of(
    tmp_path: Path,
    index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text("project = 'x'\n")
    (docs / "index.rst").write_text("Home\n====\n\nText.\n")
    _configure(
        monkeypatch,
        {
            "DOCS_AGENT_DOCS_DIR": str(docs),
            "DOCS_AGENT_KB_DIR": "",
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
        },
    )
    assert build_index.main(["--quiet"]) == 0
    err = capsys.readouterr().err
    assert "WARNING: docs: no base URL" in err and "html_baseurl" in err


def test_make_index_fails_on_a_help_center_that_cannot_be_read(
    index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.sources.live.fetch import SourceUnavailable

    class DownHelpCenter:
        def list_collections(self) -> list[str]:
            raise SourceUnavailable("the help center answered 503")

    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": "",
            "DOCS_AGENT_KB_URL": "https://support.example.com",
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
        }
    )
    sources = types.SimpleNamespace(settings=settings, docs=None, kb=DownHelpCenter())
    assert build_index.source_problems(sources) == [  # type: ignore[arg-type]
        "kb: the help center could not be read: the help center answered 503"
    ]
    sources.kb.list_collections = lambda: []  # type: ignore[method-assign]
    assert build_index.source_problems(sources) == [  # type: ignore[arg-type]
        "kb: the help center lists no sections: no article to search"
    ]
