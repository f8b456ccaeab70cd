"""The benches describe a corpus from its folder and run on any format, saying when none is read."""

from __future__ import annotations

import json
from pathlib import Path

from bench import corpora
from bench.answers import score as answer_score
from bench.retrieval import bm25_baseline, corpus_report, open_sources

RST_PAGE = """Fixtures
========

How to use fixtures
-------------------

Request the ``tmp_path`` fixture by naming it as an argument of the test function.
"""


def _sphinx_corpus(root: Path) -> Path:
    (root / "docs" / "how-to").mkdir(parents=True)
    (root / "docs" / "conf.py").write_text('project = "x"\nhtml_baseurl = "https://x.test/en/"\n')
    (root / "docs" / "how-to" / "fixtures.rst").write_text(RST_PAGE)
    (root / "docs" / "index.rst").write_text(
        "Home\n====\n\nWelcome to the project.\n\n.. toctree::\n\n   how-to/fixtures\n"
    )
    manifest = [
        {"path": "how-to/fixtures.rst", "url": "https://x.test/en/how-to/fixtures.html"},
        {"path": "index.rst", "url": "https://x.test/en/index.html"},
    ]
    (root / "docs" / "MANIFEST.jsonl").write_text("\n".join(json.dumps(m) for m in manifest))
    (root / "eval").mkdir()
    question = {
        "id": "t1",
        "question": "how do I get a temporary path fixture in a test",
        "expected_paths": ["docs/how-to/fixtures.rst"],
        "expected_urls": ["https://x.test/en/how-to/fixtures.html"],
    }
    (root / "eval" / "dev.jsonl").write_text(json.dumps(question) + "\n")
    return root


def test_a_folder_describes_its_generator_pages_and_questions(tmp_path: Path) -> None:
    desc = corpora.describe(_sphinx_corpus(tmp_path / "c"))
    # The address is the site profile's to read from conf.py, as the server does for a user.
    assert (desc.generator, desc.base_url, desc.kb_dir) == ("sphinx", "", None)
    docs, _ = open_sources(desc, tmp_path / "index")
    urls = {docs.index.get(key).url for key in docs.index.keys()}  # type: ignore[union-attr]
    assert "https://x.test/en/how-to/fixtures.html" in urls
    assert desc.questions == tmp_path / "c" / "eval" / "dev.jsonl"
    # Manifest paths relative to docs/ come out corpus-relative, as eval files name them.
    assert [rel for rel, _ in desc.page_files()] == ["docs/how-to/fixtures.rst", "docs/index.rst"]
    assert desc.formats()[".rst"] == 2

    mkdocs = tmp_path / "m"
    (mkdocs / "docs").mkdir(parents=True)
    (mkdocs / "mkdocs.yml").write_text("site_name: M\nsite_url: https://m.test/\n")
    (mkdocs / "docs" / "index.md").write_text("# Home\n")
    desc = corpora.describe(mkdocs, base_url="https://m.test/latest/", code_roots="m")
    assert (desc.generator, desc.base_url, desc.code_roots) == (
        "mkdocs",
        "https://m.test/latest/",
        "m",
    )
    # No manifest: the pages are the files found.
    assert [rel for rel, _ in desc.page_files()] == ["docs/index.md"]
    assert corpora.describe(mkdocs).base_url == ""  # mkdocs.yml's site_url, read by the profile


def test_the_described_corpora_file_names_folders_and_no_unknown_field() -> None:
    allowed = {"folder", "base_url", "strip_prefixes", "code_roots", "questions", "multilingual"}
    allowed |= {"env", "generator"}
    import tomllib

    table = tomllib.loads(corpora.DESCRIPTIONS.read_text())["corpus"]
    assert table and all("folder" in e and set(e) <= allowed for e in table.values())


def test_rank_bm25_reads_pages_of_any_format(tmp_path: Path) -> None:
    desc = corpora.describe(_sphinx_corpus(tmp_path / "c"))
    questions = corpora.load_questions(desc.questions or Path())
    assert bm25_baseline(desc, questions)[0][0] == "docs/how-to/fixtures.rst"


def test_a_corpus_whose_pages_no_reader_takes_is_reported_not_crashed_on(tmp_path: Path) -> None:
    desc = corpora.describe(_sphinx_corpus(tmp_path / "c"))
    questions = corpora.load_questions(desc.questions or Path())
    report = corpus_report(desc, questions, code=False, index_dir=tmp_path / "index")
    assert report["baselines"]["bm25"]["recall@1"] == 1.0
    if report["indexed_pages"]["docs"] == 0:  # until a reStructuredText reader lands
        assert ".rst" in report["warning"] and str(desc.docs_dir) in report["warning"]
        assert report["recall@5"] == 0.0
    else:
        assert "warning" not in report


def test_an_answer_citing_a_url_the_site_does_not_serve_misses_but_is_told_apart() -> None:
    q = {
        "expected_paths": ["docs/concepts/models.md"],
        "expected_urls": ["https://m.test/concepts/models/"],
    }
    wrong_form = answer_score(q, {"answer": "See https://m.test/concepts/models#fields."})
    assert (wrong_form["first"], wrong_form["any"], wrong_form["url_form_miss"]) == (
        False,
        False,
        True,
    )
    right = answer_score(q, {"answer": "See https://m.test/concepts/models/#fields."})
    assert (right["first"], right["url_form_miss"]) == (True, False)


def test_the_table_has_one_line_per_corpus_and_says_which_yielded_no_page() -> None:
    from bench.corpora_report import table

    rows = [
        {
            "corpus": "a",
            "generator": "mkdocs",
            "retrieval": {
                "indexed_pages": {"docs": 10, "kb": 0},
                "urls_as_site": {"pages": 10, "same": 9, "examples": []},
                "recall@1": 0.5,
                "recall@5": 1.0,
                "mrr": 0.75,
                "baselines": {"bm25": {"recall@1": 0.25, "recall@5": 0.5, "mrr": 0.4}},
            },
            "languages": {"languages": {"pl": {"fused": {"recall@5": 0.8}}}},
            "answers": {
                "docs_agent": {
                    "cites_expected_first": 0.0,
                    "cites_expected_any": 0.0,
                    "any_spelling_first": 0.7,
                    "any_spelling_any": 0.9,
                }
            },
        },
        {
            "corpus": "b",
            "generator": "sphinx",
            "retrieval": {"indexed_pages": {"docs": 0, "kb": 0}, "warning": "no docs page indexed"},
        },
    ]
    lines = table(rows).splitlines()
    assert lines[2].startswith(
        "| a (mkdocs) | 10 | 0.90 | 0.50 | 1.00 | 0.75 | 0.25 | 0.50 | 0.40 |"
    )
    assert "| 0.80 |" in lines[2] and "0.00 / 0.00 (0.70 / 0.90)" in lines[2]
    assert lines[3].startswith("| b (sphinx) | 0 | – |")
    assert lines[-1] == "- b: no docs page indexed"


def test_page_urls_are_compared_with_the_manifest_exactly(tmp_path: Path) -> None:
    from bench.retrieval import site_url_agreement

    root = tmp_path / "c"
    (root / "docs" / "concepts").mkdir(parents=True)
    (root / "docs" / "concepts" / "models.md").write_text("# Models\n\nText.\n")
    (root / "docs" / "MANIFEST.jsonl").write_text(
        json.dumps({"path": "docs/concepts/models.md", "url": "https://m.test/concepts/models/"})
    )
    desc = corpora.describe(root, base_url="https://m.test")
    docs, _ = open_sources(desc, tmp_path / "index")
    agreement = site_url_agreement(desc, docs)
    assert agreement is not None and agreement["pages"] == 1
    url = docs.index.get(docs.index.keys()[0]).url
    assert agreement["same"] == (url == "https://m.test/concepts/models/")
