"""Citations a reader can open: every citation of real answers, as cards, without and with a site.

    .venv/bin/python -m bench.source_cards                               # this repo's docs, KB, code
    .venv/bin/python -m bench.source_cards --corpus ../shared/corpus --n 16

The offline docs_agent answers each question in-process twice over the same sources:
- `default`: the configuration a fresh clone has — a docs folder with no base URL, the KB
  folder, code roots with no repository URL: a card has a `url` only when the source has a web
  address of its own (a KB article's `source_url`), else the server's own viewer must show it
  (`server.web.sources.source_view(ref)` answers 200);
- `site`: the same sources with `DOCS_AGENT_DOCS_BASE_URL`, `DOCS_AGENT_KB_BASE_URL` and
  `DOCS_AGENT_CODE_URLS` set: every card must link to a web page.

Per configuration it counts the citations written in the checked answers
(`graphs.source_cards.written_refs`, the refs the page shows), the cards the citation check
wrote, and the citations that open. The target is all of them, both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

OWN_QUESTIONS = [
    "How do guests get a token?",
    "What does 401 unauthorized mean?",
    "How do I stream tokens from a client?",
    "Where is the checkpointer TTL set?",
    "How do I run the server on Aegra?",
    "Why does the answer cite the wrong page?",
    "How is thread history pruned?",
    "Where is the citation check implemented in the code?",
]
SITE = {
    "DOCS_AGENT_DOCS_BASE_URL": "https://docs.example.com/product",
    "DOCS_AGENT_KB_BASE_URL": "https://help.example.com/articles/{id}",
}


def environment(corpus: Path | None, index_dir: Path) -> tuple[dict[str, str], list[str]]:
    """The sources' settings and the questions: this repo's own, or a corpus folder's."""
    if corpus is None:
        env = {
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
            "DOCS_AGENT_CODE_ROOTS": "docs-agent=.",
            "DOCS_AGENT_EMBEDDINGS": "off",
        }
        return env, OWN_QUESTIONS
    from bench import corpora

    described = corpora.resolve(corpus)
    env = described.env(index_dir, "off") | {"DOCS_AGENT_DOCS_BASE_URL": ""}
    questions = [q["question"] for q in corpora.load_questions(described.questions)]
    return env, questions


async def run(env: dict[str, str], questions: list[str], config: str) -> dict[str, Any]:
    """Answer every question with the offline agent; count citations, cards and what opens."""
    from langchain_core.messages import HumanMessage

    from graphs.docs_agent import build_docs_agent
    from graphs.source_cards import written_refs
    from server.web import sources as viewer
    from settings.sources import SourceSettings
    from tools import create_all_tools, load_sources

    settings = dict(env)
    if config == "site":
        roots = settings.get("DOCS_AGENT_CODE_ROOTS", "")
        labels = [r.split("=", 1)[0] if "=" in r else r for r in roots.split(",") if r]
        settings |= SITE | {
            "DOCS_AGENT_CODE_URLS": ",".join(
                f"{label}=https://github.com/example/{label}/blob/main" for label in labels
            )
        }
    sources = load_sources(SourceSettings.from_env(settings))
    viewer.load_sources = lambda: sources  # type: ignore[assignment]
    agent = build_docs_agent(tools=create_all_tools(sources), sources=sources)
    totals = {"answers": 0, "citations": 0, "cards": 0, "open": 0, "on_the_web": 0, "not_open": []}
    for question in questions:
        out = await agent.ainvoke({"messages": [HumanMessage(question)]})
        answer = out["messages"][-1]
        refs = written_refs(answer.text)
        cards = {c["ref"]: c for c in answer.additional_kwargs.get("sources") or []}
        totals["answers"] += 1
        totals["citations"] += len(refs)
        totals["cards"] += len(cards)
        for ref in refs:
            card = cards.get(ref)
            if card is None:
                opens = False
            elif card["url"]:  # a page of the web: its own address or the configured site's
                opens = card["url"].startswith(("https://", "http://"))
                totals["on_the_web"] += opens
            else:  # no site: the server's own viewer must show it
                opens = config == "default" and viewer.source_view(ref)[0] == 200
            totals["open"] += opens
            if not opens:
                totals["not_open"].append(ref)
    return totals


def main() -> None:
    """Run both configurations and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=None, help="a corpus folder (default: repo)")
    parser.add_argument("--n", type=int, default=8, help="questions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import logging

    logging.disable(logging.WARNING)
    index_dir = Path(tempfile.mkdtemp(prefix="bench-cards-"))
    env, questions = environment(args.corpus, index_dir)
    out = {
        config: asyncio.run(run(env, questions[: args.n], config)) for config in ("default", "site")
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for config, t in out.items():
        print(
            f"{config:>7}: {t['answers']} answers, {t['citations']} citations, {t['cards']} cards, "
            f"{t['open']} open ({t['open']}/{t['citations']}; {t['on_the_web']} on the web, "
            f"{t['open'] - t['on_the_web']} in the viewer)"
            + (f"; not opening: {t['not_open'][:5]}" if t["not_open"] else "")
        )


if __name__ == "__main__":
    main()
