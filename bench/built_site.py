"""A docs folder as indexed beside the site the real generator built from it: pages, URLs, anchors.

    python -m bench.built_site --docs FOLDER --built SITE_OUTPUT --base-url URL [--env K=V ...]
                               [--show 5] [--json]

Points the project at the docs folder as a user does (`DOCS_AGENT_DOCS_DIR` + the base URL,
nothing else unless `--env` says), lists and reads every page, and holds each against the HTML
the generator wrote (`--built`: its output folder, e.g. `.vitepress/dist`, `dist`):

- **site pages**: the built HTML pages in the site's language (the `<html lang>` of its home
  page, or `--lang`), 404 pages and redirects left out; **indexed**: the pages the index holds;
- **URLs right**: indexed pages whose citation URL is a site page's address as the site serves
  it (its `<link rel="canonical">`, else its sitemap entry, else the form the other addresses
  take: `x/` for `x/index.html`, `x` or `x.html` for `x.html`);
- **anchors**: the heading ids of the site pages' main content (`<main>` when there is one)
  that the index cites, out of all of them; **dead**: anchors the index cites that the page
  does not serve (a citation that opens the page's top, not its section);
- the pages and anchors that differ, `--show` of each.

It reads the built site only: run the generator yourself (the fixtures README says how), in a
scratch folder outside the repository.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_LOC_RE = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>")


@dataclass
class BuiltPage:
    """What one built HTML file serves: its language, canonical address, heading ids, all ids."""

    file: str
    lang: str = ""
    canonical: str = ""
    refresh: bool = False
    heading_ids: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)


class _PageParser(HTMLParser):
    def __init__(self, page: BuiltPage) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.main_depth = 0
        self.main_ids: list[str] = []
        self.all_heading_ids: list[str] = []
        self.saw_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html" and not self.page.lang:
            self.page.lang = a.get("lang", "")
        if tag == "link" and a.get("rel") == "canonical":
            self.page.canonical = a.get("href", "")
        if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.page.refresh = True
        if tag == "main":
            self.main_depth += 1
            self.saw_main = True
        if a.get("id"):
            self.page.ids.add(a["id"])
            if tag in _HEADINGS:
                self.all_heading_ids.append(a["id"])
                if self.main_depth:
                    self.main_ids.append(a["id"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "main" and self.main_depth:
            self.main_depth -= 1


def read_built(built: Path) -> dict[str, BuiltPage]:
    """Every HTML file of the output folder, by its path there."""
    out: dict[str, BuiltPage] = {}
    for path in sorted(built.rglob("*.html")):
        rel = path.relative_to(built).as_posix()
        page = BuiltPage(rel)
        parser = _PageParser(page)
        parser.feed(path.read_text("utf-8", errors="replace"))
        page.heading_ids = parser.main_ids if parser.saw_main else parser.all_heading_ids
        out[rel] = page
    return out


def sitemap_urls(built: Path) -> list[str]:
    """The addresses the site's sitemap files list (`sitemap.xml`, `sitemap-0.xml`, …)."""
    urls: list[str] = []
    for path in sorted(built.glob("sitemap*.xml")):
        urls += [u for u in _LOC_RE.findall(path.read_text("utf-8")) if not u.endswith(".xml")]
    return urls


def served_path(url: str) -> str:
    """A URL's path, decoded, without host, query or fragment."""
    return unquote(urlsplit(url).path)


def same_address(a: str, b: str) -> bool:
    """Whether two URLs are one address (an empty path is `/`, as HTTP reads it)."""
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.scheme, pa.netloc, pa.path or "/") == (pb.scheme, pb.netloc, pb.path or "/")


def addresses(built: Path, pages: dict[str, BuiltPage], base_url: str) -> dict[str, str]:
    """Each built file's address as the site serves it (see the module docstring)."""
    root = base_url.rstrip("/")
    base_path = urlsplit(root).path
    listed = {served_path(u): u for u in sitemap_urls(built)}
    clean = any(
        not u.rstrip("/").endswith(".html") and not u.endswith("/") for u in listed.values()
    )
    out: dict[str, str] = {}
    for rel, page in pages.items():
        if page.canonical:
            out[rel] = page.canonical
            continue
        if rel == "index.html" or rel.endswith("/index.html"):
            path = "/" + rel[: -len("index.html")]
            forms = [path, path.rstrip("/") or "/"]
        else:
            forms = ["/" + rel, "/" + rel[: -len(".html")]]
        forms = [base_path + f for f in forms]
        hit = next((listed[f] for f in forms if f in listed), None)
        if hit is None:
            path = forms[1] if (clean and not rel.endswith("index.html")) else forms[0]
            hit = root[: len(root) - len(base_path)] + path
        out[rel] = hit
    return out


def site_pages(pages: dict[str, BuiltPage], lang: str = "") -> dict[str, BuiltPage]:
    """The pages of a language (the home page's `lang` by default): not 404, not a redirect."""
    home = pages.get("index.html")
    if not lang:
        lang = (
            home.lang
            if home is not None
            else Counter(p.lang for p in pages.values()).most_common(1)[0][0]
        )
    return {
        rel: p
        for rel, p in pages.items()
        if not p.refresh
        and rel.rsplit("/", 1)[-1] != "404.html"
        and not rel.endswith("404/index.html")
        and p.lang == lang
    }


def compare(
    docs: Path, built: Path, base_url: str, env: dict[str, str], show: int, lang: str = ""
) -> dict[str, Any]:
    """The figures of the module docstring."""
    from tools.docs import docs_source
    from tools.settings import SourceSettings

    built_pages = read_built(built)
    served = addresses(built, built_pages, base_url)
    wanted = site_pages(built_pages, lang)
    by_url = {served[rel].rstrip("/"): rel for rel in built_pages}
    with tempfile.TemporaryDirectory(prefix="built-site-") as tmp:
        settings = SourceSettings.from_env(
            {
                "DOCS_AGENT_DOCS_DIR": str(docs),
                "DOCS_AGENT_DOCS_BASE_URL": base_url,
                "DOCS_AGENT_KB_DIR": "",
                "DOCS_AGENT_INDEX_DIR": tmp,
                "DOCS_AGENT_EMBEDDINGS": "off",
                **env,
            }
        )
        source = docs_source(settings)
        if source is None:
            raise SystemExit(f"no docs folder at {docs}")
        source.files()
        corpus: Any = source
        indexed: dict[str, tuple[str, list[str]]] = {}
        for key in sorted(corpus.pages.paths):
            page, url, _ = corpus.pages.parse(key, corpus.pages.read(key))
            anchors = [a for s in page.sections for a in s.anchors]
            indexed[corpus.pages.paths[key]] = (url, anchors)
    right_urls = wrong_urls = 0
    url_examples: list[str] = []
    cited: dict[str, set[str]] = {}
    dead: list[str] = []
    off_site: list[str] = []
    for rel, (url, anchors) in indexed.items():
        target = by_url.get(url.rstrip("/"))
        if target is None:
            off_site.append(f"{rel} → {url}")
            continue
        if same_address(url, served[target]) and target in wanted:
            right_urls += 1
        else:
            wrong_urls += 1
            if len(url_examples) < show:
                url_examples.append(f"{rel} → {url} (site: {served[target]})")
        ids = built_pages[target].ids
        cited.setdefault(target, set()).update(anchors)
        dead += [f"{served[target]}#{a}" for a in anchors if a not in ids]
    total_anchors = sum(len(p.heading_ids) for p in wanted.values())
    found = sum(len(set(p.heading_ids) & cited.get(rel, set())) for rel, p in wanted.items())
    missing_anchors = [
        f"{served[rel]}#{a}"
        for rel, p in wanted.items()
        for a in p.heading_ids
        if a not in cited.get(rel, set())
    ]
    by_folder: dict[str, list[int]] = {}
    for rel, p in wanted.items():
        folder = rel.split("/", 1)[0] if "/" in rel else "."
        counts = by_folder.setdefault(folder, [0, 0])
        counts[0] += len(set(p.heading_ids) & cited.get(rel, set()))
        counts[1] += len(p.heading_ids)
    reached = {by_url.get(u.rstrip("/")) for u, _ in indexed.values()}
    missing_pages = sorted(served[rel] for rel in wanted if rel not in reached)
    return {
        "docs": str(docs),
        "built": str(built),
        "site_pages": len(wanted),
        "indexed": len(indexed),
        "urls_right": right_urls,
        "urls_wrong": wrong_urls + len(off_site),
        "anchors_right": found,
        "anchors_total": total_anchors,
        "anchors_dead": len(dead),
        "anchors_by_folder": {k: f"{a}/{b}" for k, (a, b) in sorted(by_folder.items())},
        "site_pages_not_indexed": missing_pages[:show],
        "site_pages_not_indexed_count": len(missing_pages),
        "indexed_off_site": off_site[:show],
        "indexed_off_site_count": len(off_site),
        "wrong_url_examples": url_examples,
        "dead_anchor_examples": dead[:show],
        "missing_anchor_examples": missing_anchors[:show],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--docs", required=True, type=Path, help="the docs folder, as a user gives it"
    )
    parser.add_argument("--built", required=True, type=Path, help="the generator's output folder")
    parser.add_argument(
        "--base-url", required=True, help="the site's address (DOCS_AGENT_DOCS_BASE_URL)"
    )
    parser.add_argument("--env", action="append", default=[], help="another setting, K=V")
    parser.add_argument("--show", type=int, default=5, help="examples of each difference")
    parser.add_argument(
        "--lang", default="", help="the language of the pages to hold against (`<html lang>`)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    env = dict(item.split("=", 1) for item in args.env)
    result = compare(
        args.docs.resolve(), args.built.resolve(), args.base_url, env, args.show, args.lang
    )
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
