"""Retrieval quality on an eval set: docs + KB search with the raw question, and the code step.

    python bench/retrieval.py --corpus ../shared/corpus --questions ../shared/corpus/eval/dev.jsonl --json [--vectors]

Prints ONE JSON object: n, recall@1/5/10 and MRR of `expected_paths` for the merged docs+KB ranking,
`code_symbol_recall` (share of `expected_code_symbols` whose defining file is among the top 5
files of the offline model's code step), and the same measures for two baselines run here:
rank-bm25 over whole pages (no field weights) and `rg -l -i` of the question's words.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.kb import FolderKnowledgeBase  # noqa: E402
from tools.search import Hit, merge_rankings  # noqa: E402
from tools.search.embeddings import configured_embedder  # noqa: E402
from tools.sources.corpus import FolderCorpus, UrlRule  # noqa: E402
from tools.text import STOPWORDS  # noqa: E402

BASE_URL = "https://docs.langchain.com/oss/python"
STRIP = ("src/oss/python/", "src/oss/")
DEFAULT_CODE_ROOTS = "langgraph,langchain,langchain_core"
TOP = 10


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The eval questions, one JSON object per line."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def open_sources(
    corpus: Path, index_dir: Path, vectors: bool = False
) -> tuple[FolderCorpus, FolderKnowledgeBase]:
    """Docs and KB indexes of the corpus, synced; with `vectors`, section vectors fused in."""
    embedder = configured_embedder("use") if vectors else None
    docs = FolderCorpus(
        corpus / "docs", "docs", index_dir, UrlRule(BASE_URL, STRIP), embedder=embedder
    )
    kb = FolderKnowledgeBase(corpus / "kb", index_dir, embedder=embedder)
    docs.sync()
    kb.sync()
    return docs, kb


def merged_search(
    docs: FolderCorpus, kb: FolderKnowledgeBase, question: str, limit: int = TOP
) -> list[str]:
    """Corpus-relative paths (`docs/...`, `kb/...`) of the merged docs+KB ranking."""
    ranked: list[tuple[str, Hit]] = merge_rankings(
        [("docs", docs.search(question, limit)), ("kb", kb.search(question, limit))], limit
    )
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
    for k in (1, 5, 10):
        found = sum(
            bool(set(q["expected_paths"]) & set(got[:k]))
            for got, q in zip(ranked, questions, strict=True)
        )
        out[f"recall@{k}"] = round(found / len(questions), 4)
    rr = 0.0
    for got, q in zip(ranked, questions, strict=True):
        rank = next((i for i, p in enumerate(got, 1) if p in set(q["expected_paths"])), None)
        rr += 1.0 / rank if rank else 0.0
    out["mrr"] = round(rr / len(questions), 4)
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def bm25_baseline(corpus: Path, questions: list[dict[str, Any]]) -> list[list[str]]:
    """rank-bm25 (Okapi) over whole raw pages, one index for docs and KB, no field weights."""
    from rank_bm25 import BM25Okapi

    paths, tokens = [], []
    for sub in ("docs", "kb"):
        for p in sorted((corpus / sub).rglob("*")):
            if p.suffix in {".md", ".mdx", ".markdown"}:
                paths.append(f"{sub}/{p.relative_to(corpus / sub).as_posix()}")
                tokens.append(_words(p.read_text("utf-8", errors="replace")))
    bm25 = BM25Okapi(tokens)
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
    from tools import load_sources
    from tools.code import create_code_tools

    roots = load_sources().code_roots
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="folder holding docs/ and kb/")
    parser.add_argument("--questions", type=Path, required=True, help="eval JSONL file")
    parser.add_argument(
        "--code-roots", default=os.environ.get("BENCH_CODE_ROOTS", DEFAULT_CODE_ROOTS)
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--show", action="store_true", help="print per-question rankings to stderr")
    parser.add_argument(
        "--vectors", action="store_true", help="fuse section vectors in (tools/search/fusion.py)"
    )
    args = parser.parse_args(argv)

    questions = load_questions(args.questions)
    corpus = args.corpus.resolve()
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        os.environ.update(
            {
                "DOCS_AGENT_DOCS_DIR": str(corpus / "docs"),
                "DOCS_AGENT_KB_DIR": str(corpus / "kb"),
                "DOCS_AGENT_DOCS_BASE_URL": BASE_URL,
                "DOCS_AGENT_DOCS_STRIP_PREFIXES": ",".join(STRIP),
                "DOCS_AGENT_CODE_ROOTS": args.code_roots,
                "DOCS_AGENT_INDEX_DIR": tmp,
            }
        )
        docs, kb = open_sources(corpus, Path(tmp), args.vectors)
        ranked = [merged_search(docs, kb, q["question"]) for q in questions]
        result: dict[str, Any] = {"n": len(questions), **score(ranked, questions)}
        result["code_symbol_recall"] = _symbol_recall(code_step_files(args.code_roots), questions)
        base = bm25_baseline(corpus, questions)
        rg = {"code_symbol_recall": None}
        if shutil.which("rg"):
            rg["code_symbol_recall"] = _symbol_recall(rg_baseline_files(args.code_roots), questions)
        result["baselines"] = {"bm25": score(base, questions), "rg": rg}
        if args.show:
            for q, got in zip(questions, ranked, strict=True):
                mark = [("*" if p in q["expected_paths"] else " ") + p for p in got[:5]]
                print(q["id"], q["question"][:70], "\n   " + "\n   ".join(mark), file=sys.stderr)
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
