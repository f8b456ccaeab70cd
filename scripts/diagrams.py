"""Mermaid diagrams of the compiled graphs, kept in README.md between marker comments.

`python scripts/diagrams.py --write README.md` (`make diagrams`) refreshes them; a unit test fails
when the README no longer matches the code. A developer script, not part of the package.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))


def graph_specs() -> dict[str, str]:
    """Graph name -> `path:variable`, as declared in langgraph.json (a string or `{"path": ...}`)."""
    config = json.loads((REPO_ROOT / "langgraph.json").read_text())
    return {
        name: spec["path"] if isinstance(spec, dict) else spec
        for name, spec in config["graphs"].items()
    }


def mermaid(name: str) -> str:
    """The Mermaid source of one declared graph."""
    path, _, variable = graph_specs()[name].rpartition(":")
    module = path.removeprefix("./").removesuffix(".py").replace("/", ".")
    graph = getattr(importlib.import_module(module), variable)
    return str(graph.get_graph().draw_mermaid()).strip()


def block(name: str) -> str:
    """The README block for one graph, markers included."""
    return f"<!-- diagram:{name} -->\n```mermaid\n{mermaid(name)}\n```\n<!-- /diagram:{name} -->"


def refresh(text: str) -> str:
    """README text with every diagram block regenerated."""
    for name in graph_specs():
        pattern = re.compile(rf"<!-- diagram:{name} -->.*?<!-- /diagram:{name} -->", re.DOTALL)
        text = pattern.sub(lambda _m, n=name: block(n), text)  # type: ignore[misc]
    return text


def main() -> None:
    """CLI: print the diagrams, or rewrite them in a file with --write."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, help="file whose diagram blocks to refresh")
    args = parser.parse_args()
    if args.write:
        args.write.write_text(refresh(args.write.read_text()))
    else:
        for name in graph_specs():
            print(block(name), end="\n\n")


if __name__ == "__main__":
    main()
