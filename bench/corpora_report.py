"""One table for every described corpus: search, search per language, offline answers, rank-bm25.

    python -m bench.corpora_report [--corpora langchain,pydantic,pytest] [--no-answers] [--json]

Per corpus of bench/corpora.toml (bench/corpora.py): pages indexed; docs + KB search R@1, R@5
and MRR on its eval questions (as served: lexical, vectors fused when the lexical ranking is
weak) beside rank-bm25 over whole raw pages in the same run (bench/retrieval.py); R@5 per
question language with vectors on (bench/retrieval_languages.py); and, unless `--no-answers`,
the offline model's answers from a real `langgraph dev` (bench/answers.py): the share whose first
/ any citation is an expected page at its real URL, and in brackets the same when any spelling
of the URL counts; and the cold build per page (wall, and CPU in brackets) and one changed page
(bench/index_build.py, one run). A corpus with no page indexed says so in the table. Everything (and each
corpus's full figures) is also written to bench/results/corpora.json.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any

from bench.corpora import REPO_ROOT, Corpus, load, load_questions
from bench.harness import markdown_table
from bench.retrieval import corpus_report
from bench.retrieval_languages import languages_report

LANGS = ("en", "pl", "de", "ru", "es")
GRAPHS = ("docs_agent", "deep_agent")
RESULTS = REPO_ROOT / "bench" / "results" / "corpora.json"


def measure(corpus: Corpus, answers: bool, build: bool = True) -> dict[str, Any]:
    """Every figure of the table for one corpus."""
    out: dict[str, Any] = {"corpus": corpus.name, "generator": corpus.generator}
    if corpus.questions is None:
        out["warning"] = f"{corpus.folder} has no eval/dev.jsonl"
        return out
    questions = load_questions(corpus.questions)
    retrieval = corpus_report(corpus, questions, vectors=True, code=False)
    retrieval.pop("ranked")
    retrieval.pop("baseline_ranked")
    out["retrieval"] = retrieval
    if corpus.multilingual is not None:
        langs = languages_report(corpus, load_questions(corpus.multilingual))
        langs.pop("fused_ranked")
        out["languages"] = langs
    if build:
        from bench.index_build import build_report

        out["build"] = build_report(corpus, repeats=1)["ours"]
    if answers and retrieval["indexed_pages"]["docs"]:
        from bench.answers import answers_report

        out["answers"] = answers_report(corpus, questions, list(GRAPHS))["summary"]
    return out


def _f(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _share(agreement: dict[str, Any] | None) -> str:
    if not agreement or not agreement["pages"]:
        return "–"
    return f"{agreement['same'] / agreement['pages']:.2f}"


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of `measure` results, one line per corpus."""
    head = [
        "corpus",
        "pages",
        "URL = site",
        "R@1",
        "R@5",
        "MRR",
        "bm25 R@1",
        "bm25 R@5",
        "bm25 MRR",
        *(f"R@5 {lang}" for lang in LANGS),
        *(f"{g} first/any" for g in GRAPHS),
        "cold ms/page (CPU)",
        "1 changed page s",
    ]
    cell_rows: list[list[str]] = []
    notes = []
    for row in rows:
        r = row.get("retrieval", {})
        base = r.get("baselines", {}).get("bm25", {})
        langs = row.get("languages", {}).get("languages", {})
        answers = row.get("answers", {})
        pages = r.get("indexed_pages", {})
        cells = [
            f"{row['corpus']} ({row['generator']})",
            f"{pages.get('docs', 0)} + {pages.get('kb', 0)} KB"
            if pages.get("kb")
            else str(pages.get("docs", 0)),
            _share(r.get("urls_as_site")),
            _f(r.get("recall@1")),
            _f(r.get("recall@5")),
            _f(r.get("mrr")),
            _f(base.get("recall@1")),
            _f(base.get("recall@5")),
            _f(base.get("mrr")),
            *(_f(langs.get(lang, {}).get("fused", {}).get("recall@5")) for lang in LANGS),
        ]
        for graph in GRAPHS:
            a = answers.get(graph)
            cells.append(
                f"{_f(a['cites_expected_first'])} / {_f(a['cites_expected_any'])}"
                f" ({_f(a['any_spelling_first'])} / {_f(a['any_spelling_any'])})"
                if a
                else "–"
            )
        b = row.get("build", {})
        cells.append(
            f"{_f(b.get('cold_ms_per_page'))} ({_f(b.get('cold_cpu_ms_per_page'))})" if b else "–"
        )
        cells.append(f"{b['one_changed_page_s']:.3f}" if b.get("one_changed_page_s") else "–")
        cell_rows.append(cells)
        for warning in (row.get("warning"), r.get("warning")):
            if warning:
                notes.append(f"- {row['corpus']}: {warning}")
        behind = [
            f"{b['id']} ({b['ours'] or '-'} vs {b['bm25'] or '-'})"
            for b in r.get("behind_or_missed", [])
            if r.get("indexed_pages", {}).get("docs")
        ]
        if behind:
            notes.append(
                f"- {row['corpus']}: missed in the top 5 or behind rank-bm25 (our rank vs its): "
                + ", ".join(behind)
            )
    return "\n".join([markdown_table(head, cell_rows)] + ([""] + notes if notes else []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="", help="names in bench/corpora.toml (default: all)")
    parser.add_argument("--no-answers", action="store_true", help="skip the server runs")
    parser.add_argument("--no-build", action="store_true", help="skip the cold build timing")
    parser.add_argument("--json", action="store_true", help="print the JSON, not the table")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    corpora = load(args.corpora)
    if not corpora:
        raise SystemExit("none of the corpora in bench/corpora.toml is present")
    rows = []
    for corpus in corpora:
        print(f"measuring {corpus.name} ({corpus.folder})", file=sys.stderr)
        rows.append(measure(corpus, not args.no_answers, not args.no_build))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(rows, indent=1))
    print(json.dumps(rows) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
