"""A built site's folder read as a user points at it: pages, URLs and anchors against the site itself.

    python -m bench.built_sites FOLDER [--base-url URL] [--json]

The folder is read through the settings a user sets (`DOCS_AGENT_DOCS_DIR`, and
`DOCS_AGENT_DOCS_BASE_URL` when given) and `docs_source`, as the server reads it. The site is
its own ground truth:

- pages: the pages indexed beside the pages the site's `sitemap.xml` lists (Hugo, Quarto and
  Antora write one; a generator lists its pages there, not its redirects or 404 page);
- URLs: indexed page URLs found in the sitemap (or, with none, every URL under the base URL);
- anchors: each section anchor the index cites must be an id of the built page (dead = not),
  and each heading id the built page serves must be citable (missed = not);
- leftovers: template and shortcode markup in the indexed text, outside code
  (`{{< >}}`, `{{% %}}`, `{{ .X }}`, `include::`, `{attribute}`);
- ms/page: cold parse and lexical index of the whole folder, per page.
It is a bench, not a test: it reads folders nobody tuned for.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from tools.docs import docs_source
from tools.settings import SourceSettings
from tools.sources.corpus import FolderCorpus, with_section_ids
from tools.sources.html.built import sitemap_urls

ROOT = Path(__file__).resolve().parents[1]

LEFTOVER = re.compile(r"\{\{[<%]|[>%]\}\}|\{\{\s*[.$]|\binclude::|\{[a-z][\w-]*\}")
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def measure(folder: Path, base_url: str = "") -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as index_dir:
        settings = SourceSettings.from_env(
            {
                "DOCS_AGENT_DOCS_DIR": str(folder),
                "DOCS_AGENT_DOCS_BASE_URL": base_url,
                "DOCS_AGENT_INDEX_DIR": index_dir,
                "DOCS_AGENT_EMBEDDINGS": "off",
                "DOCS_AGENT_CODE_ROOTS": "",
            }
        )
        corpus = docs_source(settings)
        assert isinstance(corpus, FolderCorpus)
        start = time.perf_counter()
        corpus.sync(workers=1)
        seconds = time.perf_counter() - start
        report = corpus.report()
        listed = sitemap_urls(folder)
        wanted = {_norm(u) for u in listed}
        urls_right, dead, missed, served_total, cited, leftovers = 0, 0, 0, 0, 0, 0
        examples: dict[str, list[str]] = {"dead": [], "missed": [], "urls": [], "leftovers": []}
        for key in corpus.index.keys():
            doc = with_section_ids(corpus.index.get(key))
            assert doc is not None
            url = doc.url
            if (_norm(url) in wanted) if wanted else url.startswith(base_url):
                urls_right += 1
            elif len(examples["urls"]) < 5:
                examples["urls"].append(url)
            rel = corpus.pages.paths[key]
            tree = LexborHTMLParser((folder / rel).read_text("utf-8", errors="replace"))
            ids = {n.attributes.get("id") for n in tree.css("[id]")}
            heading_ids = {
                n.attributes.get("id")
                for n in tree.css("h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]")
            }
            heading_ids |= {
                n.parent.attributes.get("id")
                for n in tree.css("section > h1, section > h2, section > h3, section > h4")
                if n.parent is not None and n.parent.attributes.get("id")
            }
            citable = {a for s in doc.sections for a in (s.anchor, *s.ids) if a}
            for section in doc.sections:
                if section.anchor:
                    cited += 1
                    if section.anchor not in ids:
                        dead += 1
                        examples["dead"].append(f"{rel}#{section.anchor}")
                found = LEFTOVER.findall(_CODE.sub("", f"{section.heading}\n{section.text}"))
                leftovers += len(found)
                if found and len(examples["leftovers"]) < 5:
                    examples["leftovers"].append(f"{rel}: {found[:3]}")
            for hid in heading_ids - {None, "toc-title"}:
                served_total += 1
                if hid not in citable:
                    missed += 1
                    if len(examples["missed"]) < 8:
                        examples["missed"].append(f"{rel}#{hid}")
        pages = len(corpus.index)
        return {
            "folder": str(folder),
            "generator": corpus.site.generator,
            "base_url": corpus.site.base_url,
            "pages_indexed": pages,
            "pages_in_sitemap": len(listed),
            "urls_right": urls_right,
            "anchors_cited": cited,
            "anchors_dead": dead,
            "heading_ids_served": served_total,
            "heading_ids_not_citable": missed,
            "leftovers": leftovers,
            "ms_per_page": round(1000 * seconds / max(pages, 1), 2),
            "problems": report.problems,
            "warnings": report.warnings,
            "examples": {k: v[:8] for k, v in examples.items() if v},
        }


def _norm(url: str) -> str:
    parts = urlsplit(url)
    path = parts.path
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return f"{parts.netloc}{path}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--base-url", default="")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.folder.resolve(), args.base_url)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
