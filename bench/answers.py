"""Answer-level evaluation end to end: does the answer cite a page that answers the question?

    python -m bench.answers --corpus pydantic                       # its eval/dev.jsonl
    python -m bench.answers --corpus ../shared/corpus --questions FILE --langs pl,ru
    python -m bench.answers --questions bench/eval/newcomer.jsonl   # the package's own docs/kb

`--corpus` is a name in bench/corpora.toml or a folder (bench/corpora.py): the server is pointed
at it with the settings a user would set, over the benches' cached index.

A real `langgraph dev` serves the graphs (offline model unless a key is configured); each question
runs on a fresh thread, streamed with subgraphs so every tool call — the researchers' too — is
counted. Per question and graph: whether any page citation of the answer is an expected page, whether
the *first* one is (a cited URL must be the expected page's URL as the site serves it: only its
`#anchor` is set aside, never a trailing slash or an `.html`; `url_form_misses` counts answers
whose first citation names an expected page only in another spelling of its URL), the number of tool calls, seconds to the end of the run, and whether the turn
ended with follow-up suggestions. Citations are read from the answer text by this script's own
patterns (URLs, `docs/...`/`kb/...` paths, `KB <id>`), independent of the graph's citation check.
Prints ONE JSON object: a summary per graph (and per language when the file has `lang`), and with
`--details` every question's row.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from langgraph_sdk import get_client

from bench.corpora import Corpus, load_questions, resolve
from bench.retrieval import cache_dir
from testing.servers import langgraph_dev

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)
# A URL written as code (`https://smith.langchain.com/studio/?baseUrl=…`) is quoted content, an
# address to open, not a citation; a path in backticks (`docs/auth.md`) still cites its page.
CODE_URL = re.compile(r"`[^`\n]*://[^`\n]*`")
CITATION = re.compile(
    r"(?P<url>https?://[^\s)\]>`'\"]+)"
    r"|\bKB (?P<kb>(?=[\w./-]*[/\d_-])\w[\w./-]*)"
    r"|(?<![\w/.:-])(?P<path>(?:docs|kb)/[\w./-]+\.(?:mdx?|markdown|rst|txt|html?))"
)
# A source file's suffix: a path citation names its page without it.
_SOURCE_SUFFIX = re.compile(r"\.(?:mdx?|markdown|rst|txt)$")


def page_key(ref: str, keep_anchor: bool = False) -> str:
    """One spelling per page, and no anchor unless `keep_anchor` (an expected URL's anchor names
    its page: a KB article on a shared FAQ page).

    A URL is kept as the site serves it (`…/models/` and `…/models` are two addresses); a path
    (`docs/x.mdx`, `./kb/y`) loses its `./` and its source suffix.
    """
    base, _, anchor = ref.rstrip(".,;:").partition("#")
    if "://" not in base:
        base = _SOURCE_SUFFIX.sub("", base.rstrip("/").removeprefix("./"))
    return f"{base}#{anchor}" if keep_anchor and anchor else base


def loose_key(ref: str, keep_anchor: bool = False) -> str:
    """A page key with every spelling difference of its URL dropped (slash, `.html`, `index`, case):
    only to tell a wrong address of the right page from a wrong page. The anchor is kept as
    `page_key` keeps it."""
    base, _, anchor = page_key(ref, keep_anchor).partition("#")
    base = re.sub(r"(?:/index)?\.html?$", "", base.lower().rstrip("/")).removesuffix("/index")
    return f"{base}#{anchor}" if anchor else base


def loosely_cites(ref: str, expected: set[str]) -> bool:
    """`cites_expected` when any spelling of the page's URL counts."""
    loose = {loose_key(e, keep_anchor=True) for e in expected}
    return loose_key(ref) in loose or loose_key(ref, keep_anchor=True) in loose


def cites_expected(ref: str, expected: set[str]) -> bool:
    """A citation names an expected page: the same page, or the same entry of a shared page.

    A docs citation may point into a section (`page#section`) of an expected page; a citation of
    a shared page (`…/faq`, or another article's `…/faq#other`) is not an expected article on it.
    """
    return page_key(ref) in expected or page_key(ref, keep_anchor=True) in expected


def page_citations(answer: str) -> list[str]:
    """Page citations in the order they appear (code citations are not pages), as page keys."""
    out: list[str] = []
    # Quoted source text (`>` lines) keeps the page's own links: those are not the answer's citations.
    unquoted = "\n".join(
        CODE_URL.sub("", line)
        for line in FENCE.sub("", answer).splitlines()
        if not line.startswith(">")
    )
    for m in CITATION.finditer(unquoted):
        if m.group("url"):
            key = page_key(m.group("url"), keep_anchor=True)
        elif m.group("kb"):
            key = page_key("kb/" + m.group("kb"))
        else:
            key = page_key(m.group("path"))
        if key not in out:
            out.append(key)
    return out


def expected_keys(q: dict[str, Any]) -> set[str]:
    return {page_key(p) for p in q.get("expected_paths", [])} | {
        page_key(u, keep_anchor=True) for u in q.get("expected_urls", [])
    }


def source_env(corpus: Corpus | None, index_dir: Path) -> dict[str, str]:
    """Sources for the server: the described corpus (over the benches' cached index), or the
    package's own defaults (index in `index_dir`)."""
    if corpus is None:
        return {"DOCS_AGENT_INDEX_DIR": str(index_dir)}
    return corpus.env(cache_dir(corpus), embeddings="use")


async def ask(client: Any, graph: str, question: str) -> dict[str, Any]:
    """One question on a fresh thread: the answer, tool calls, seconds, suggestions."""
    thread = await client.threads.create(metadata={"user_id": "bench-answers"})
    tool_calls = 0
    final: dict[str, Any] = {}
    start = time.perf_counter()
    async for part in client.runs.stream(
        thread["thread_id"],
        graph,
        input={"messages": [{"role": "user", "content": question}]},
        stream_mode=["updates", "values"],
        stream_subgraphs=True,
    ):
        if part.event.startswith("updates") and isinstance(part.data, dict):
            for update in part.data.values():
                messages = update.get("messages", []) if isinstance(update, dict) else []
                for msg in messages if isinstance(messages, list) else []:
                    if isinstance(msg, dict) and msg.get("type") == "ai":
                        tool_calls += len(msg.get("tool_calls") or [])
        elif part.event == "values":
            final = part.data
        elif part.event == "error":
            return {"error": str(part.data), "seconds": time.perf_counter() - start}
    seconds = time.perf_counter() - start
    messages = final.get("messages", [])
    last = messages[-1] if messages else {}
    content = last.get("content", "")
    answer = content if isinstance(content, str) else json.dumps(content)
    suggestions = (last.get("additional_kwargs") or {}).get("suggests")
    return {
        "answer": answer,
        "tool_calls": tool_calls,
        "seconds": seconds,
        "suggestions": bool(suggestions),
    }


def score(q: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    cited = page_citations(result.get("answer", ""))
    expected = expected_keys(q)
    first = bool(cited) and cites_expected(cited[0], expected)
    return {
        "id": q.get("id"),
        "lang": q.get("lang", "en"),
        "any": any(cites_expected(ref, expected) for ref in cited),
        "first": first,
        "url_form_miss": bool(cited) and not first and loosely_cites(cited[0], expected),
        "loose_any": any(loosely_cites(ref, expected) for ref in cited),
        "loose_first": bool(cited) and loosely_cites(cited[0], expected),
        "cited": cited[:5],
        "tool_calls": result.get("tool_calls", 0),
        "seconds": round(result.get("seconds", 0.0), 3),
        "suggestions": result.get("suggestions", False),
        "error": result.get("error"),
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    if not n:
        return {"n": 0}
    seconds = [r["seconds"] for r in rows]
    return {
        "n": n,
        "cites_expected_any": round(sum(r["any"] for r in rows) / n, 3),
        "cites_expected_first": round(sum(r["first"] for r in rows) / n, 3),
        "url_form_misses": sum(r["url_form_miss"] for r in rows),
        # The same two figures when any spelling of the page's URL counts: the gap to the
        # above is what wrong addresses cost.
        "any_spelling_any": round(sum(r["loose_any"] for r in rows) / n, 3),
        "any_spelling_first": round(sum(r["loose_first"] for r in rows) / n, 3),
        "with_suggestions": round(sum(r["suggestions"] for r in rows) / n, 3),
        "errors": sum(bool(r["error"]) for r in rows),
        "tool_calls_median": statistics.median(r["tool_calls"] for r in rows),
        "seconds_p50": round(statistics.median(seconds), 3),
        "seconds_max": round(max(seconds), 3),
    }


async def evaluate(url: str, graphs: list[str], questions: list[dict[str, Any]]) -> dict[str, Any]:
    client = get_client(url=url)
    await ask(client, graphs[0], questions[0]["question"])  # warm-up: the first run syncs the index
    out: dict[str, Any] = {}
    details: dict[str, list[dict[str, Any]]] = {}
    for graph in graphs:
        rows = [score(q, await ask(client, graph, q["question"])) for q in questions]
        details[graph] = rows
        summary = summarise(rows)
        langs = sorted({r["lang"] for r in rows})
        if len(langs) > 1:
            summary["by_lang"] = {
                lang: summarise([r for r in rows if r["lang"] == lang]) for lang in langs
            }
        out[graph] = summary
    return {"summary": out, "details": details}


def answers_report(
    corpus: Corpus | None,
    questions: list[dict[str, Any]],
    graphs: list[str],
    details: bool = False,
) -> dict[str, Any]:
    """Every question asked of a fresh `langgraph dev` serving `corpus` (None: the package's own)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = source_env(corpus, Path(tmp) / "index")
        with langgraph_dev(Path(tmp), extra_env=env) as url:
            result = asyncio.run(evaluate(url, graphs, questions))
    result["corpus"] = corpus.name if corpus else "own docs/ and kb/"
    if not details:
        result.pop("details")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=Path, help="default: the corpus's eval/dev.jsonl")
    parser.add_argument(
        "--corpus", default=None, help="a name in bench/corpora.toml or a folder; default: own"
    )
    parser.add_argument("--graphs", default="docs_agent,deep_agent")
    parser.add_argument("--langs", default="", help="comma-separated languages to keep")
    parser.add_argument("--limit", type=int, default=0, help="first N questions (per language)")
    parser.add_argument("--details", action="store_true", help="every question's row too")
    args = parser.parse_args()

    corpus = resolve(args.corpus) if args.corpus else None
    qfile = args.questions or (corpus.questions if corpus else Path("bench/eval/newcomer.jsonl"))
    if qfile is None:
        raise SystemExit("the corpus has no eval/dev.jsonl: pass --questions")
    questions = load_questions(qfile)
    if args.langs:
        keep = set(args.langs.split(","))
        questions = [q for q in questions if q.get("lang", "en") in keep]
    if args.limit:
        seen: dict[str, int] = {}
        kept = []
        for q in questions:
            lang = q.get("lang", "en")
            if seen.get(lang, 0) < args.limit:
                kept.append(q)
                seen[lang] = seen.get(lang, 0) + 1
        questions = kept
    graphs = [g for g in args.graphs.split(",") if g]
    result = answers_report(corpus, questions, graphs, args.details)
    result["questions"] = str(qfile)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
