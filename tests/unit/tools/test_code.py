"""Code tools on bad inputs: traversal, absolute paths, symlinks out of a root, bad and
catastrophic regexes, huge limits, binary files; ripgrep and the fallback agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.code import create_code_tools
from tools.codebase import search as code_search
from tools.codebase.roots import CodeRoot, PathError, resolve_path
from tools.codebase.symbols import SymbolIndex, code_pattern, error_message

needs_rg = pytest.mark.skipif(not code_search.rg_available(), reason="ripgrep not installed")


@pytest.fixture
def tree(tmp_path: Path) -> tuple[list[CodeRoot], Path]:
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "graph.py").write_text(
        "class StateGraph:\n    def add_node(self, name):\n        pass\n\n\ndef compile_graph(g):\n    return StateGraph()\n"
    )
    (root / "sub" / "use.py").write_text(
        "from graph import StateGraph\nx = StateGraph()\ny = StateGraph()\n"
    )
    (root / "sub" / "errors.py").write_text(
        "class InvalidUpdateError(Exception):\n    pass\nraise InvalidUpdateError('Can receive only one value per step')\n"
    )
    (root / "blob.bin").write_bytes(b"StateGraph\x00\x01\x02" * 10)
    (root / "aaaa.txt").write_text("a" * 40 + "!\n")
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "key.txt").write_text("StateGraph secret\n")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "escape.txt").symlink_to(outside / "key.txt")
    return [CodeRoot("pkg", root.resolve())], outside


def tools_for(roots: list[CodeRoot], timeout: float = 10.0) -> dict:
    return {t.name: t for t in create_code_tools(roots, timeout)}


@pytest.mark.parametrize(
    "path",
    [
        "../secret/key.txt",
        "pkg/../../secret/key.txt",
        "pkg/escape/key.txt",
        "pkg/escape.txt",
        "escape.txt",
    ],
)
def test_paths_leaving_the_root_are_refused(tree: tuple[list[CodeRoot], Path], path: str) -> None:
    roots, _ = tree
    with pytest.raises(PathError, match="outside the code roots"):
        resolve_path(roots, path)
    out = tools_for(roots)["read_code_file"].invoke({"file_path": path, "feedback_to_user": ""})
    assert out.startswith("Refused") and "StateGraph secret" not in out


def test_absolute_paths(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, outside = tree
    with pytest.raises(PathError, match="outside"):
        resolve_path(roots, str(outside / "key.txt"))
    with pytest.raises(PathError):
        resolve_path(roots, "/etc/passwd")
    root, full = resolve_path(roots, str(roots[0].path / "graph.py"))
    assert full.name == "graph.py"
    with pytest.raises(PathError, match="NUL"):
        resolve_path(roots, "pkg/graph.py\x00.txt")


def test_search_code_through_symlink_dir_is_refused(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    out = tools_for(roots)["search_code"].invoke(
        {"pattern": "secret", "path": "pkg/escape", "feedback_to_user": ""}
    )
    assert "Refused" in out


@pytest.mark.parametrize("use_rg", [pytest.param(True, marks=needs_rg), False])
def test_invalid_regex_is_a_clear_error(tree: tuple[list[CodeRoot], Path], use_rg: bool) -> None:
    roots, _ = tree
    with pytest.raises(code_search.SearchError, match="Invalid regular expression"):
        code_search.search([(roots[0], roots[0].path)], "class (Foo", use_rg=use_rg)


def test_invalid_regex_via_tool(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    out = tools_for(roots)["search_code"].invoke({"pattern": "[unclosed", "feedback_to_user": ""})
    assert out.startswith("Invalid regular expression")
    assert "empty" in tools_for(roots)["search_code"].invoke(
        {"pattern": "  ", "feedback_to_user": ""}
    )
    assert "longer than 500" in tools_for(roots)["search_code"].invoke(
        {"pattern": "x" * 501, "feedback_to_user": ""}
    )


def test_catastrophic_regex_times_out_in_fallback(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    with pytest.raises(code_search.SearchError, match="too expensive|ran out of time"):
        code_search.search(
            [(roots[0], roots[0].path / "aaaa.txt")], r"(a|aa)+$", timeout_s=0.5, use_rg=False
        )


@needs_rg
def test_catastrophic_regex_is_fine_with_rg(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    assert (
        code_search.search([(roots[0], roots[0].path)], r"(a|aa)+$", timeout_s=5, use_rg=True) == []
    )


@needs_rg
@pytest.mark.parametrize(
    "pattern",
    [
        r"StateGraph",
        r"\bclass \w+",
        r"statEgraph",
        r"def (add_node|compile_graph)",
        "Can receive only",
    ],
)
def test_rg_and_fallback_give_the_same_output(
    tree: tuple[list[CodeRoot], Path], pattern: str
) -> None:
    roots, _ = tree
    targets = [(roots[0], roots[0].path)]
    rg = code_search.search(targets, pattern, use_rg=True)
    py = code_search.search(targets, pattern, use_rg=False)
    assert [(f.display, f.lines) for f in rg] == [(f.display, f.lines) for f in py]
    from tools.code import format_matches

    assert format_matches(rg, pattern) == format_matches(py, pattern)


@pytest.mark.parametrize(
    ("pattern", "spelled"),
    [
        (r"\bStateGraph\b", r"(?-u:\b)StateGraph(?-u:\b)"),
        (r"\Bx", r"(?-u:\B)x"),
        (r"a\\b", r"a\\b"),  # an escaped backslash, then a plain `b`
        (r"[\b]\b", r"[\b](?-u:\b)"),  # inside a class it is left alone
        (r"[]\b]|[^]\b]\b", r"[]\b]|[^]\b](?-u:\b)"),  # a leading `]` is a literal
        ("plain", "plain"),
    ],
)
def test_word_boundaries_are_spelled_in_ascii(pattern: str, spelled: str) -> None:
    assert code_search.ascii_boundaries(pattern, code_search.RG_BOUNDARIES) == spelled


@pytest.mark.parametrize("use_rg", [pytest.param(True, marks=needs_rg), False])
def test_word_boundaries_next_to_non_ascii_letters_are_the_same_in_both_backends(
    tmp_path: Path, use_rg: bool
) -> None:
    (tmp_path / "cafe.py").write_text("naïve = 1\nve = 2\nnaive = 3\n# café ve\n")
    found = code_search.search([(CodeRoot("app", tmp_path), tmp_path)], r"\bve\b", use_rg=use_rg)
    # ASCII word boundaries: `ï` is not a word character, so `ve` in `naïve` is a whole word.
    assert [(f.display, [n for n, _ in f.lines]) for f in found] == [("app/cafe.py", [1, 2, 4])]


def test_binary_files_are_skipped_and_not_read(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    found = code_search.search([(roots[0], roots[0].path)], "StateGraph", use_rg=False)
    assert "pkg/blob.bin" not in [f.display for f in found]
    assert found[0].display == "pkg/graph.py"  # the defining file first
    out = tools_for(roots)["read_code_file"].invoke(
        {"file_path": "pkg/blob.bin", "feedback_to_user": ""}
    )
    assert "binary" in out


def test_huge_and_negative_limits(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    t = tools_for(roots)
    out = t["read_code_file"].invoke(
        {"file_path": "pkg/graph.py", "start_line": -5, "num_lines": 10**9, "feedback_to_user": ""}
    )
    assert out.startswith("pkg/graph.py lines 1-7 of 7")
    out = t["read_code_file"].invoke(
        {"file_path": "pkg/graph.py", "start_line": 10**9, "feedback_to_user": ""}
    )
    assert "past the end" in out
    out = t["list_directory"].invoke({"path": "pkg", "max_depth": 10**6, "feedback_to_user": ""})
    assert "sub/" in out and "key.txt" not in out
    out = t["list_directory"].invoke({"path": "pkg/graph.py", "feedback_to_user": ""})
    assert "is a file" in out
    out = t["read_code_file"].invoke({"file_path": "pkg/sub", "feedback_to_user": ""})
    assert "is a directory" in out
    out = t["read_code_file"].invoke({"file_path": "pkg/nope.py", "feedback_to_user": ""})
    assert out.startswith("No such path")


def test_symbol_index_picks_defining_names(tree: tuple[list[CodeRoot], Path]) -> None:
    roots, _ = tree
    index = SymbolIndex(roots)
    assert "StateGraph" in index.names and "InvalidUpdateError" in index.names
    assert index.best("how do I build a state graph?")[0] == "StateGraph"
    assert index.best("InvalidUpdateError when updating")[0] == "InvalidUpdateError"
    assert index.best("the of and") == []
    assert (
        error_message("ValueError: Found AIMessages with tool_calls that do not")
        == "Found AIMessages with tool_calls that do"
    )
    assert error_message("KeyError with double curly braces") == ""
    pattern, names = code_pattern("graph state builder", roots)
    found = code_search.search([(roots[0], roots[0].path)], pattern, use_rg=False)
    assert found and found[0].display == "pkg/graph.py"
    assert code_pattern("anything", []) == ("", [])


def _docs_and_code(tmp_path: Path, index_dir: Path, code: dict[str, str], page: str) -> Any:
    """Sources over one docs page and a `pkg` code root of the given files."""
    from settings.sources import SourceSettings
    from tools import load_sources

    (tmp_path / "pkg").mkdir()
    for name, text in code.items():
        (tmp_path / "pkg" / name).write_text(text)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(page)
    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(tmp_path / "docs"),
            "DOCS_AGENT_KB_DIR": "",
            "DOCS_AGENT_CODE_ROOTS": f"pkg={tmp_path / 'pkg'}",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
        }
    )
    return load_sources(settings)


def test_code_pattern_takes_names_from_the_answering_pages(tmp_path, index_dir) -> None:
    """A question that names no symbol still finds it: the page that answers it names it."""
    sources = _docs_and_code(
        tmp_path,
        index_dir,
        {
            "limits.py": "class GraphRecursionError(Exception):\n    pass\n",
            "other.py": "def configure_logging():\n    pass\n",
        },
        "---\ntitle: Recursion limit\n---\n\n## Raise the recursion limit\n\n"
        "When the limit is hit a `GraphRecursionError` is raised; pass a higher limit in the config.\n",
    )
    pattern, names = code_pattern(
        "how to config recurrsion limit", sources.code_roots, sources=sources
    )
    assert names[0] == "GraphRecursionError"
    assert "GraphRecursionError" in pattern


def test_read_code_file_artifact_holds_the_lines_it_shows(tmp_path: Path) -> None:
    from tools.code import create_code_tools
    from tools.codebase.roots import parse_roots

    (tmp_path / "m.py").write_text("".join(f"line {i}\n" for i in range(1, 31)))
    read = {t.name: t for t in create_code_tools(parse_roots((f"app={tmp_path}",)))}[
        "read_code_file"
    ]
    msg = read.invoke(
        {
            "name": "read_code_file",
            "args": {
                "file_path": "app/m.py",
                "start_line": 5,
                "num_lines": 3,
                "feedback_to_user": "",
            },
            "id": "c1",
            "type": "tool_call",
        }
    )
    assert msg.artifact == {
        "file": "app/m.py",
        "start": 5,
        "end": 7,
        "total": 30,
        "lines": ["line 5", "line 6", "line 7"],
    }
    assert "5 | line 5" in msg.content and "7 | line 7" in msg.content


def test_page_names_after_a_dot_count_only_when_they_look_like_code(tmp_path, index_dir) -> None:
    """`client.threads.search` names the client's method, not a `search` the code roots define.

    A plain word after a dot is left out; a snake_case or CamelCase one (`builder.add_node`) and
    a bare name (`interrupt()`) still count.
    """
    from tools.codebase.symbols import names_from_pages, symbol_index

    sources = _docs_and_code(
        tmp_path,
        index_dir,
        {
            "store.py": "def search(query):\n    pass\n",
            "graph.py": "def add_node(name):\n    pass\n\ndef interrupt(value):\n    pass\n",
        },
        "---\ntitle: Find threads\n---\n\n## Find a user's threads\n\n"
        "Call `client.threads.search` with metadata, add steps with `builder.add_node` and "
        "pause with `interrupt(value)` to find threads.\n",
    )
    names = names_from_pages("find threads", sources, symbol_index(sources.code_roots))
    assert "search" not in names
    assert {"add_node", "interrupt"} <= set(names)


def test_page_names_skip_commands_paths_and_urls(tmp_path, index_dir) -> None:
    """A common word inside a command, path or URL span is not a name; a lone or called one is.

    The table row also checks the pairing: its `3` once paired the next backtick with the one
    after, so the prose between read as a code span and `answer` as a name.
    """
    from tools.codebase.symbols import names_from_pages, symbol_index

    sources = _docs_and_code(
        tmp_path,
        index_dir,
        {
            "words.py": "def search():\n    pass\n\ndef build():\n    pass\n"
            "\ndef answer():\n    pass\n\nclass Command:\n    pass\n",
        },
        "---\ntitle: Deploy threads\n---\n\n## Deploy the threads\n\n"
        "Run `langgraph build -t app`, then `curl -X POST http://host/threads/search` or read "
        "`tools/search/fusion.py`; jump with `Command.PARENT`.\n\n"
        "| setting | default | what |\n|---|---|---|\n"
        "| `DOCS_AGENT_NUM_SUGGESTIONS` | `3` | Follow-up suggestions per answer. `0` disables. |\n",
    )
    names = names_from_pages("deploy threads", sources, symbol_index(sources.code_roots))
    assert names == ["Command"]


def test_a_name_counts_when_the_question_says_it_not_one_word_of_it(tmp_path: Path) -> None:
    """Two words of a name, or the name written as code; "turn on" is not `TurnLimit…`.

    A one-word name said in prose ("run it", "the answer", "use interrupt") is left to the
    answering pages, which write it as code when it is what the user needs.
    """
    (tmp_path / "mw.py").write_text(
        "class TurnLimitMiddleware:\n    pass\n\ndef interrupt(value):\n    pass\n"
        "\ndef open_sources():\n    pass\n"
    )
    index = SymbolIndex([CodeRoot("app", tmp_path)])
    assert index.best("How do I turn on authentication?") == []
    assert index.best("How do I open Studio?") == []
    assert index.best("Where is the turn limit set?") == ["TurnLimitMiddleware"]
    assert index.best("How do I use interrupt?") == []
    assert index.best("How do I use `interrupt`?") == ["interrupt"]
