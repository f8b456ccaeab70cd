"""What a docs folder looks like once read: pages, addresses and leftover markup, as counts.

    python -m bench.markup_audit --corpus FOLDER_OR_NAME [--sample 8] [--show 3] [--json]

Points the project at a corpus the way a user does (bench/corpora.py `describe` → the
`DOCS_AGENT_*` settings → `docs_source`), lists and reads every page with the site's reader,
and prints:

- pages: files of each format, pages the site's navigation lists (nav / toctree / sidebar),
  pages read, and the source's own warnings (`SourceReport.problems`);
- a sample of page URLs and heading anchors, to hold against the generator's rules;
- leftover markup per kind and place (title, heading, section text, the offline follow-up
  suggestion a heading becomes), outside code: the markers of the tests' checker
  (tests/unit/tools/sources/markup.py) and the raw constructs a reader should have rendered
  (JSX/HTML tags, MDX `import`, `{* ... *}` includes, Jinja / `{{ }}`);
- code blocks without a language, and include directives left unresolved.

It is a bench, not a test: on a folder nobody tuned for, it says where the readers fall short.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.corpora import resolve
from testing.markup import LEFTOVER_RE

# HTML's own elements (a tag of any of them in the text is a leftover; `<key>` is a placeholder).
# Listed here, not taken from the readers, so the audit does not judge a reader by its own rules.
HTML_ELEMENTS = (
    "a abbr address article aside audio b blockquote br button canvas caption center cite code col "
    "dd del details dfn div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 "
    "h5 h6 header hr i iframe img input ins kbd label legend li main mark nav noscript object ol "
    "option p picture pre q s samp script section select small source span strike strong style "
    "sub summary sup svg table tbody td textarea tfoot th thead tr tt u ul var video"
).split()
# Fenced code (closed by a fence of its kind at least as long: ```` around ``` examples) and
# inline code spans.
_CODE_RE = re.compile(
    r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[`~]*[ \t]*$|```.*?```|~~~.*?~~~|`[^`\n]*`",
    re.S | re.M,
)
# Each leftover kind: what the reader should have rendered, outside code.
KINDS: dict[str, re.Pattern[str]] = {
    "checker": LEFTOVER_RE,  # `{ #`, `!!!`, `///`, `===`, `:::`, `.. x::`, roles, `--8<--`, `][x]`
    # JSX components (capitalised) and HTML's own elements; a placeholder (`<key>`) is text.
    "jsx/html tag": re.compile(
        r"</?(?:[A-Z][\w.]*|(?:" + "|".join(HTML_ELEMENTS) + r")\b)(?:\s[^<>]*)?/?>"
    ),
    "mdx import": re.compile(r"^\s*(?:import\s+[\w{},\s*]+\s+from\s+['\"]|export\s+)", re.M),
    "include {* *}": re.compile(r"\{\*.*?\*\}"),
    "jinja {{ }}/{% %}": re.compile(r"\{\{.*?\}\}|\{%.*?%\}"),
    "sphinx role": re.compile(r":[a-z]+(?::[a-z]+)?:`"),
    "rst directive": re.compile(r"^\s*\.\. [\w:-]+::", re.M),
    # VitePress: snippet imports and file includes left unresolved, `[[toc]]`; GitHub's alerts.
    "snippet <<< / @include": re.compile(r"^\s*<<<\s|<!--\s*@include:", re.M),
    "[[toc]]": re.compile(r"\[\[toc\]\]"),
    "github alert [!NOTE]": re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]"),
}
_INCLUDE_RE = re.compile(
    r"--8<--|\{\*|literalinclude|^\s*\.\. include::|!!raw-loader!|^\s*<<<\s", re.M
)


def found(text: str) -> Counter[str]:
    """How many leftovers of each kind a text holds outside code."""
    prose = _CODE_RE.sub(" ", text)
    return Counter({k: n for k, rx in KINDS.items() if (n := len(rx.findall(prose)))})


def example(text: str, kind: str) -> str:
    """The first leftover of a kind, with a little context."""
    prose = _CODE_RE.sub(" ", text)
    m = KINDS[kind].search(prose)
    return prose[max(0, m.start() - 40) : m.end() + 40].replace("\n", "⏎") if m else ""


def audit(ref: str, sample: int = 8, show: int = 3) -> dict[str, Any]:
    """The figures of the module docstring for one corpus (a name or a folder)."""
    from graphs.offline.suggestions import follow_up_question
    from settings.sources import SourceSettings
    from tools.docs import docs_source

    corpus = resolve(ref)
    with tempfile.TemporaryDirectory(prefix="audit-") as tmp:
        settings = SourceSettings.from_env(corpus.env(Path(tmp)))
        docs = docs_source(settings)
        if docs is None:
            raise SystemExit(f"no docs folder at {corpus.docs_dir}")
        keys = docs.files()
        keys = list(keys) if not isinstance(keys, dict) else list(keys)
        report = docs.report()
        site = docs.site
        counts: dict[str, Counter[str]] = {}
        examples: dict[str, list[str]] = {}
        no_language = code_blocks = 0
        no_language_examples: list[str] = []
        unresolved: list[str] = []
        urls: list[str] = []
        crashes: list[str] = []
        sections = 0
        for key in sorted(docs.pages.paths):
            rel = docs.pages.paths[key]
            try:
                page, url, _ = docs.pages.parse(key, docs.pages.read(key))
            except Exception as exc:  # noqa: BLE001 — an audit reports a reader's crash
                crashes.append(f"{rel}: {type(exc).__name__}: {exc}")
                continue
            sections += len(page.sections)
            if len(urls) < sample * 3:
                anchors = [s.anchor for s in page.sections if s.anchor][:3]
                urls.append(f"{rel} → {url}  #{'  #'.join(anchors)}")
            places = {"title": [page.title]}
            places["heading"] = [s.heading for s in page.sections]
            places["text"] = [s.text for s in page.sections]
            places["suggestion"] = [
                follow_up_question(s.heading, page.title, "en") for s in page.sections if s.heading
            ]
            for place, texts in places.items():
                for text in texts:
                    for kind, n in found(text).items():
                        counts.setdefault(place, Counter())[kind] += n
                        bucket = examples.setdefault(f"{place}/{kind}", [])
                        if len(bucket) < show:
                            bucket.append(f"{rel}: {example(text, kind)}")
            for s in page.sections:
                for block in s.code_blocks:
                    code_blocks += 1
                    if not block.language:
                        no_language += 1
                        if len(no_language_examples) < show:
                            no_language_examples.append(f"{rel}: {block.code[:60]!r}")
                if _INCLUDE_RE.search(_CODE_RE.sub(" ", s.text)) and len(unresolved) < 50:
                    unresolved.append(f"{rel}#{s.anchor}")
    step = max(1, len(urls) // sample)
    return {
        "corpus": corpus.name,
        "folder": str(corpus.docs_dir),
        "generator": site.generator,
        "base_url": site.base_url,
        "url_style": site.url_style,
        "slug": site.slug,
        "formats": dict(corpus.formats().most_common(8)),
        "nav_pages": len(site.nav) if site.nav is not None else None,
        "pages_read": len(docs.pages.paths),
        "sections": sections,
        "problems": report.problems,
        "crashes": crashes,
        "url_sample": urls[::step][:sample],
        "leftovers": {place: dict(c) for place, c in counts.items()},
        "leftover_examples": examples,
        "code_blocks": code_blocks,
        "code_blocks_without_language": no_language,
        "no_language_examples": no_language_examples,
        "unresolved_includes": len(unresolved),
        "unresolved_examples": unresolved[:show],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", required=True, help="a name in bench/corpora.toml or a folder")
    parser.add_argument("--sample", type=int, default=8, help="page URLs to show")
    parser.add_argument("--show", type=int, default=3, help="examples per leftover kind")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    result = audit(args.corpus, args.sample, args.show)
    print(
        json.dumps(result, ensure_ascii=False)
        if args.json
        else json.dumps(result, indent=1, ensure_ascii=False)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
