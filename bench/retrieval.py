"""Retrieval quality on an eval set: docs + KB search with the raw question, and the code step.

    python -m bench.retrieval --corpus pydantic --json [--vectors] [--show]
    python -m bench.retrieval --corpus ../shared/corpus-pytest --questions FILE

`--corpus` is a name in bench/corpora.toml or a folder (described by bench/corpora.py: its docs/,
kb/, generator, base URL, code roots and eval files). Prints ONE JSON object: n, pages indexed,
recall@1/5/10 and MRR of `expected_paths` for the merged docs+KB ranking, `code_symbol_recall`
(share of `expected_code_symbols` whose defining file is among the top 5 files of the offline
model's code step), and the same measures for two baselines run here: rank-bm25 over whole raw
pages (no field weights) and `rg -l -i` of the question's words. A corpus whose pages no reader
takes says so (`indexed_pages` 0 and the formats found) instead of scoring nothing silently.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.corpora import REPO_ROOT, Corpus, load_questions, resolve
from tools.search import Hit, merge_rankings
from tools.text import STOPWORDS

TOP = 10
# Indexes are kept between runs (keyed by the corpus folder and its settings, rebuilt only for
# what changed): a build with vectors takes tens of seconds per corpus.
CACHE = REPO_ROOT / ".docs_agent_cache" / "bench"

__all__ = ["load_questions", "open_sources", "merged_search", "score", "bm25_baseline"]


def cache_dir(corpus: Corpus) -> Path:
    """Where a corpus's indexes are kept between bench runs."""
    return CACHE / corpus.name


def open_sources(
    corpus: Corpus | Path, index_dir: Path | None = None, vectors: bool = False
) -> tuple[Any, Any]:
    """Docs and KB of the corpus as the server opens them (its settings), synced.

    With `vectors`, section vectors are fused in. Either side is None when the corpus lacks it.
    """
    from settings.sources import SourceSettings
    from tools.docs import docs_source
    from tools.kb import kb_backend

    desc = corpus if isinstance(corpus, Corpus) else resolve(corpus)
    env = desc.env(index_dir or cache_dir(desc), "use" if vectors else "off")
    settings = SourceSettings.from_env(env)
    docs: Any = docs_source(settings)
    kb: Any = kb_backend(settings)
    for source in (docs, kb):
        if source is not None:
            source.sync()
    return docs, kb


def indexed_pages(source: Any) -> int:
    """How many pages a source's index holds (0 for a missing source)."""
    return len(source.index) if source is not None else 0


def site_url_agreement(corpus: Corpus, docs: Any) -> dict[str, Any] | None:
    """How many indexed docs pages carry exactly the URL the site serves them at (the manifest's).

    Exact: `…/models/` and `…/models` are different addresses, as are `x.html` and `x`. Pages
    the manifest gives no URL (not built) are left out; None without a manifest.
    """
    served = {row["path"]: row.get("url") for row in corpus.manifest()}
    if docs is None or not served:
        return None
    prefix = corpus.docs_dir.relative_to(corpus.folder).as_posix()
    same, compared, examples = 0, 0, []
    for key in docs.index.keys():
        url = served.get(f"{prefix}/{docs.rel_path(key) or key}")
        if not url:
            continue
        page = docs.index.get(key)
        compared += 1
        if page is not None and page.url == url:
            same += 1
        elif len(examples) < 3:
            examples.append({"ours": page.url if page else None, "site": url})
    return {"pages": compared, "same": same, "examples": examples}


def merged_search(docs: Any, kb: Any, question: str, limit: int = TOP) -> list[str]:
    """Corpus-relative paths (`docs/...`, `kb/...`) of the merged docs+KB ranking."""
    lists = [(name, s.search(question, limit)) for name, s in (("docs", docs), ("kb", kb)) if s]
    ranked: list[tuple[str, Hit]] = merge_rankings(lists, limit)
    out = []
    for source, hit in ranked:
        corpus = docs if source == "docs" else kb
        out.append(f"{source}/{corpus.rel_path(hit.key) or hit.key}")
    return out


def score(ranked: list[list[str]], questions: list[dict[str, Any]]) -> dict[str, float]:
    """recall@k: share of questions with an expected path in the top k; MRR of the first one.

    A question lists every page that answers it; finding one of them is what the reader needs,
    so a question counts as recalled at k when any expected path is in the top k.
    """
    out: dict[str, float] = {}
    n = max(len(questions), 1)
    for k in (1, 5, 10):
        found = sum(
            bool(set(q["expected_paths"]) & set(got[:k]))
            for got, q in zip(ranked, questions, strict=True)
        )
        out[f"recall@{k}"] = round(found / n, 4)
    out["mrr"] = round(sum(reciprocal_ranks(ranked, questions)) / n, 4)
    return out


def reciprocal_ranks(ranked: list[list[str]], questions: list[dict[str, Any]]) -> list[float]:
    """Per question: 1 / rank of its first expected path in the ranking (0 when absent)."""
    out = []
    for got, q in zip(ranked, questions, strict=True):
        rank = next((i for i, p in enumerate(got, 1) if p in set(q["expected_paths"])), None)
        out.append(1.0 / rank if rank else 0.0)
    return out


def _rank(got: list[str], q: dict[str, Any]) -> int | None:
    """The rank of the first expected path in a ranking (None when absent)."""
    return next((i for i, p in enumerate(got, 1) if p in set(q["expected_paths"])), None)


def _words(text: str) -> list[str]:
    """The baseline's tokens: `[a-z0-9_]+` of the lower-cased text (as the corpus READMEs say)."""
    return re.findall(r"[a-z0-9_]+", text.lower())


def bm25_baseline(corpus: Corpus | Path, questions: list[dict[str, Any]]) -> list[list[str]]:
    """rank-bm25 (Okapi) over whole raw pages, one index for docs and KB, no field weights.

    The pages are the corpus manifests' (every page, whatever its format), else the files found.
    """
    from rank_bm25 import BM25Okapi

    desc = corpus if isinstance(corpus, Corpus) else resolve(corpus)
    pages = desc.page_files()
    if not pages:
        return [[] for _ in questions]
    paths = [rel for rel, _ in pages]
    bm25 = BM25Okapi([_words(p.read_text("utf-8", errors="replace")) for _, p in pages])
    out = []
    for q in questions:
        scores = bm25.get_scores(_words(q["question"]))
        order = sorted(range(len(paths)), key=lambda i: -scores[i])[:TOP]
        out.append([paths[i] for i in order])
    return out


def _symbol_recall(files_for: Callable[[str], list[str]], questions: list[dict[str, Any]]) -> float:
    hit = total = 0
    for q in questions:
        symbols = q.get("expected_code_symbols") or []
        if not symbols:
            continue
        files = files_for(q["question"])[:5]
        for s in symbols:
            total += 1
            hit += any(f == s["file"] or f.endswith("/" + s["file"]) for f in files)
    return round(hit / total, 4) if total else 0.0


def code_step_files(code_roots: str) -> Callable[[str], list[str]]:
    """Files (root-relative display paths) the offline model's code step returns for a question."""
    from langchain_core.messages import HumanMessage

    from graphs.offline.model import OfflineChatModel
    from settings.sources import SourceSettings
    from tools.code import code_roots as open_roots
    from tools.code import create_code_tools

    roots = open_roots(SourceSettings.from_env({"DOCS_AGENT_CODE_ROOTS": code_roots}))
    tools = {t.name: t for t in create_code_tools(roots)}
    model = OfflineChatModel().bind_tools(list(tools.values()))

    def files_for(question: str) -> list[str]:
        msg = model.plan([HumanMessage(question)])
        for call in msg.tool_calls:
            if call["name"] == "search_code":
                result = tools["search_code"].invoke({**call, "type": "tool_call"})
                return [a["file"] for a in (result.artifact or [])]
        return []

    return files_for


def rg_baseline_files(code_roots: str) -> Callable[[str], list[str]]:
    """`rg -l -i` per question word over the roots, files ranked by how many words hit them."""
    from tools.codebase.roots import parse_roots

    roots = parse_roots(tuple(code_roots.split(",")))

    def files_for(question: str) -> list[str]:
        counts: dict[str, int] = {}
        words = [w for w in dict.fromkeys(_words(question)) if w not in STOPWORDS and len(w) > 2]
        for w in words:
            for root in roots:
                proc = subprocess.run(
                    ["rg", "-l", "-i", "--no-config", "-F", w, str(root.path)],
                    capture_output=True,
                    text=True,
                    check=False,
                    timeout=30,
                )
                for line in proc.stdout.splitlines():
                    display = root.display(Path(line))
                    counts[display] = counts.get(display, 0) + 1
        return [f for f, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]

    return files_for


def corpus_report(
    corpus: Corpus,
    questions: list[dict[str, Any]],
    vectors: bool = False,
    code: bool = True,
    show: bool = False,
    index_dir: Path | None = None,
) -> dict[str, Any]:
    """The retrieval figures of one corpus (see the module docstring), baselines beside them."""
    docs, kb = open_sources(corpus, index_dir, vectors=vectors)
    pages = indexed_pages(docs)
    result: dict[str, Any] = {
        "corpus": corpus.name,
        "generator": corpus.generator,
        "n": len(questions),
        "indexed_pages": {"docs": pages, "kb": indexed_pages(kb)},
    }
    if not pages:
        found = ", ".join(f"{n} {s}" for s, n in corpus.formats().most_common(5)) or "no files"
        result["warning"] = f"no docs page indexed from {corpus.docs_dir} (found {found})"
    result["urls_as_site"] = site_url_agreement(corpus, docs)
    ranked = [merged_search(docs, kb, q["question"]) for q in questions]
    result.update(score(ranked, questions))
    result["ranked"] = ranked
    if code and corpus.code_roots:
        result["code_symbol_recall"] = _symbol_recall(code_step_files(corpus.code_roots), questions)
    base = bm25_baseline(corpus, questions)
    result["baselines"] = {"bm25": score(base, questions)}
    result["baseline_ranked"] = base
    # Where to look first: questions ours misses in the top 5, or ranks below rank-bm25.
    result["behind_or_missed"] = [
        {"id": q.get("id"), "ours": _rank(got, q), "bm25": _rank(b, q)}
        for q, got, b in zip(questions, ranked, base, strict=True)
        if (_rank(got, q) or 99) > 5 or (_rank(got, q) or 99) > (_rank(b, q) or 99)
    ]
    if code and corpus.code_roots and shutil.which("rg"):
        rg = _symbol_recall(rg_baseline_files(corpus.code_roots), questions)
        result["baselines"]["rg"] = {"code_symbol_recall": rg}
    if show:
        for q, got, b in zip(questions, ranked, base, strict=True):
            mark = [("*" if p in q["expected_paths"] else " ") + p for p in got[:5]]
            first = next((i for i, p in enumerate(b, 1) if p in q["expected_paths"]), None)
            print(q["id"], f"(bm25 rank {first})", q["question"][:70], file=sys.stderr)
            print("   " + "\n   ".join(mark), file=sys.stderr)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--corpus", required=True, help="a name in bench/corpora.toml or a corpus folder"
    )
    parser.add_argument("--questions", type=Path, help="eval JSONL file (default: the corpus's)")
    parser.add_argument("--code-roots", default=os.environ.get("BENCH_CODE_ROOTS", ""))
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--show", action="store_true", help="print per-question rankings to stderr")
    parser.add_argument(
        "--vectors", action="store_true", help="fuse section vectors in (tools/search/fusion.py)"
    )
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    corpus = resolve(args.corpus)
    if args.code_roots:
        corpus = replace(corpus, code_roots=args.code_roots)
    qfile = args.questions or corpus.questions
    if qfile is None:
        raise SystemExit(f"{corpus.folder} has no eval/dev.jsonl: pass --questions")
    result = corpus_report(corpus, load_questions(qfile), args.vectors, show=args.show)
    result.pop("ranked")
    result.pop("baseline_ranked")
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
