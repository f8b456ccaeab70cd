"""Jupyter notebooks as pages of Sphinx (nbsphinx, myst-nb) and MkDocs (mkdocs-jupyter) sites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.tools.sources.folder_corpus import doc, synced
from tools.settings import SourceSettings
from tools.sources.notebook import OUTPUT_CHARS, notebook_markdown
from tools.sources.registry import SiteOptions, detect_site


def notebook(cells: list[dict[str, Any]], language: str = "python", **extra: Any) -> str:
    meta = {"kernelspec": {"language": language, "name": language}}
    return json.dumps(
        {"nbformat": 4, "nbformat_minor": 5, "metadata": meta, "cells": cells, **extra}
    )


def md(source: str | list[str]) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def code(source: str, *outputs: dict[str, Any]) -> dict[str, Any]:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": list(outputs)}


TUTORIAL = notebook(
    [
        md(["# Fitting a model\n", "\n", "This notebook shows how to **fit** a model.\n"]),
        code(
            "import demo\ndemo.fit([1, 2, 3])",
            {"output_type": "execute_result", "data": {"text/plain": ["Model(n=3)"]}},
            {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo="}},
        ),
        md("## Saving the model\n\nCall `save()` after fitting."),
        code(
            "demo.save('m.bin')",
            {"output_type": "stream", "name": "stdout", "text": ["\x1b[32msaved\x1b[0m\n"]},
            {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["secret trace"]},
        ),
        {"cell_type": "raw", "metadata": {}, "source": ".. raw-cell-for-latex::"},
    ]
)


def test_cells_become_markdown_code_in_the_kernel_language_and_text_outputs() -> None:
    read = notebook_markdown(TUTORIAL)
    assert read.problem == "" and read.language == "python"
    assert read.text.startswith("# Fitting a model\n\nThis notebook shows how to **fit** a model.")
    assert "```python\nimport demo\ndemo.fit([1, 2, 3])\n```" in read.text
    assert "```text\nModel(n=3)\n```" in read.text
    assert "```text\nsaved\n```" in read.text  # terminal colours dropped
    for dropped in ("iVBOR", "secret trace", "raw-cell-for-latex"):
        assert dropped not in read.text


def test_other_kernels_nbformat_3_long_outputs_and_fences_inside_code() -> None:
    julia = notebook([code("println(1)")], language="julia")
    assert "```julia\nprintln(1)\n```" in notebook_markdown(julia).text
    v3 = json.dumps(
        {
            "nbformat": 3,
            "metadata": {},
            "worksheets": [
                {
                    "cells": [
                        {"cell_type": "heading", "level": 2, "source": "Old style"},
                        {"cell_type": "code", "input": "x = 1", "outputs": []},
                    ]
                }
            ],
        }
    )
    assert notebook_markdown(v3).text == "## Old style\n\n```python\nx = 1\n```\n"
    big = notebook([code("dump()", {"output_type": "stream", "text": "x" * (OUTPUT_CHARS * 3)})])
    assert len(notebook_markdown(big).text) < OUTPUT_CHARS + 100
    fenced = notebook([code('doc = """\n```python\nnot the end\n```\n"""')])
    assert notebook_markdown(fenced).text.startswith("````python\n")


def test_cells_the_site_hides_are_not_read() -> None:
    def tagged(source: str, *tags: str) -> dict[str, Any]:
        cell = code(source, {"output_type": "stream", "text": f"out of {source}"})
        cell["metadata"] = {"tags": list(tags)}
        return cell

    hidden_md = md("Setup notes nobody sees.")
    hidden_md["metadata"] = {"nbsphinx": "hidden"}
    text = notebook_markdown(
        notebook(
            [
                hidden_md,
                tagged("secret_setup()", "remove-cell"),
                tagged("quiet()", "remove-input"),
                tagged("loud()", "remove_output"),
                tagged("plain()", "hide-input"),  # collapsed on the page, still shown
            ]
        )
    ).text
    for gone in ("nobody sees", "secret_setup", "```python\nquiet()", "out of loud()"):
        assert gone not in text
    for kept in ("out of quiet()", "```python\nloud()", "```python\nplain()", "out of plain()"):
        assert kept in text


@pytest.mark.parametrize(
    "text", ["{not json", "[1, 2]", '{"cells": "nope"}', "", "[" * 100_000, '"a string"']
)
def test_a_broken_notebook_reads_as_nothing_and_says_why(text: str) -> None:
    read = notebook_markdown(text)
    assert read.text == ""
    assert read.problem or text.startswith('{"cells"')


def test_cells_of_the_wrong_shape_keep_only_their_text() -> None:
    odd = json.dumps(
        {
            "metadata": {"kernelspec": "x", "language_info": [1]},
            "cells": [
                1,
                None,
                {"cell_type": "markdown", "source": ["kept ", 2, None, "text"]},
                {"cell_type": "code", "source": {"a": 1}, "outputs": "bad", "metadata": [1]},
                {
                    "cell_type": "code",
                    "source": "x = 1",
                    "outputs": [{"output_type": "stream", "text": {"a": 1}}],
                },
            ],
        }
    )
    assert notebook_markdown(odd).text == "kept text\n\n```python\nx = 1\n```\n"


def sphinx_project(root: Path, extension: str | None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    extensions = [extension] if extension else []
    (root / "conf.py").write_text(
        f"extensions = {extensions!r}\nhtml_baseurl = 'https://demo.example.org/en/latest/'\n"
    )
    (root / "index.rst").write_text("Demo\n====\n\n.. toctree::\n\n   tutorial\n   broken\n")
    (root / "tutorial.ipynb").write_text(TUTORIAL)
    (root / "broken.ipynb").write_text("{ this is not json")
    (root / ".ipynb_checkpoints").mkdir()
    (root / ".ipynb_checkpoints" / "tutorial-checkpoint.ipynb").write_text(TUTORIAL)
    return root


@pytest.mark.parametrize("extension", ["nbsphinx", "myst_nb"])
def test_sphinx_notebook_pages_have_the_built_url_docutils_ids_and_are_searchable(
    tmp_path: Path, extension: str
) -> None:
    root = sphinx_project(tmp_path / "docs", extension)
    corpus = synced(root, tmp_path / "index")
    page = doc(corpus, "tutorial.ipynb")
    assert page.url == "https://demo.example.org/en/latest/tutorial.html"
    assert page.title == "Fitting a model"
    saving = next(s for s in page.sections if s.heading == "Saving the model")
    assert saving.anchor == "saving-the-model"
    assert [b.language for b in saving.code_blocks] == ["python", "text"]
    hits = corpus.search("save the fitted model", 3)
    assert hits and hits[0].key == "tutorial.ipynb" and hits[0].anchor == "saving-the-model"
    # The broken notebook costs nothing else; Jupyter's autosave copies are no pages.
    assert all("checkpoint" not in key for key in corpus.index.keys())
    assert corpus.get("index.rst") is not None


def test_without_a_notebook_extension_sphinx_builds_no_notebook_page(tmp_path: Path) -> None:
    root = sphinx_project(tmp_path / "docs", None)
    site = detect_site(root)
    assert site.reader_for("tutorial.ipynb") is None
    corpus = synced(root, tmp_path / "index")
    assert corpus.get("tutorial.ipynb") is None
    assert corpus.last_report is not None and corpus.last_report.unread == {".ipynb": 2}


def test_mkdocs_jupyter_pages_have_directory_urls_nav_titles_and_jupyter_anchors(
    tmp_path: Path,
) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Demo\nsite_url: https://demo.example.org/\n"
        "nav:\n  - Home: index.md\n  - Tutorial: tutorial.ipynb\n"
        "plugins:\n  - search\n  - mkdocs-jupyter:\n      include_source: true\n"
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee the tutorial.\n")
    (docs / "tutorial.ipynb").write_text(TUTORIAL)
    corpus = synced(docs, tmp_path / "index")
    page = doc(corpus, "tutorial.ipynb")
    assert page.url == "https://demo.example.org/tutorial/"
    assert page.title == "Tutorial"  # the nav's title, as MkDocs shows it
    # nbconvert keeps the heading's words and case: `#Saving-the-model`.
    assert [s.anchor for s in page.sections if s.level] == ["Fitting-a-model", "Saving-the-model"]
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "mkdocs.yml").write_text("site_name: Demo\n")
    (plain / "docs").mkdir()
    assert detect_site(plain / "docs").reader_for("tutorial.ipynb") is None


def test_the_notebooks_setting_turns_them_on_or_off_whatever_the_site_says(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: Demo\n")  # no notebook plugin
    docs = tmp_path / "docs"
    docs.mkdir()
    assert detect_site(docs).reader_for("t.ipynb") is None
    assert detect_site(docs, SiteOptions(notebooks="on")).reader_for("t.ipynb") == "notebook"
    sphinx = sphinx_project(tmp_path / "sphinx", "nbsphinx")
    assert detect_site(sphinx, SiteOptions(notebooks="off")).reader_for("tutorial.ipynb") is None
    assert SourceSettings.from_env({"DOCS_AGENT_DOCS_NOTEBOOKS": "on"}).docs_notebooks == "on"
    with pytest.raises(ValueError, match="NOTEBOOKS"):
        SourceSettings.from_env({"DOCS_AGENT_DOCS_NOTEBOOKS": "sometimes"})
