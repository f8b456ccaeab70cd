"""Big docs: the index at 5k / 20k / 50k pages, beside a plain tantivy whole-page index.

    python -m bench.scale [--sizes 5000,20000,50000] [--baseline main --baseline-sizes 1000]
    make bench-scale        # the default sizes, the table on stdout

Corpora: the Markdown and MDX pages of the shared corpora (../shared/corpus, corpus-pydantic,
corpus-pytest), laid side by side as one plain Markdown site; past the real pages, versioned
copies of them (`v2/`, `v3/`, ... as a site that documents several releases does): the same
page with the release in its title and a closing line, so every copy is a distinct page with
distinct section texts (nothing is deduplicated away that a real site would not repeat).

Per size, each in a child process of its own (its resident memory sampled with its workers'):
- build: a cold build with section vectors (the default), lexical first: seconds until the
  lexical index answers, until the vectors are done, ms per page and per section, CPU, and
  the peak RSS of the build's process tree;
- disk: bytes on disk after the build over the data (the same less write-ahead logs, lock
  files and the lexical engine's previous generation) and KB per page;
- one change: a server-like process with its vectors loaded changes one page, syncs, and
  runs a cross-lingual search: the seconds from the change to that search's answer;
- serving: a fresh process opens the prebuilt index: seconds until the lexical index answers
  and until the first cross-lingual search is answered, RSS after the questions (anonymous
  and file-backed), search p50/p95 (lexical: the English questions; fused: the questions in
  other languages), and a plain tantivy index of whole pages (title + raw text, its English
  stemmer) built in the same process over the same pages, searched with the same English
  questions: its p50/p95 and our lexical p95 over its.
Then the growth exponent of each figure: the slope of log(figure) over log(pages).

`--baseline REV` runs the same children on the code at a git revision (`git archive`) at
`--baseline-sizes`, in the same run: the before and after of one machine's load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The shared corpora; a child running in an extracted baseline tree is told where they are.
SHARED = Path(os.environ.get("SCALE_SHARED_DIR") or ROOT.parent / "shared")
CORPORA = ("corpus", "corpus-pydantic", "corpus-pytest")
SUFFIXES = (".md", ".mdx", ".markdown")
RESULTS = ROOT / "bench" / "results" / "scale.json"
REPEATS = 3
CHANGED_QUERY = "Jak ograniczyć liczbę kroków agenta?"


# -- the corpus ------------------------------------------------------------------------------------


def real_pages() -> list[tuple[str, Path]]:
    """(relative path in the combined site, source file) of every real Markdown/MDX page."""
    out: list[tuple[str, Path]] = []
    for name in CORPORA:
        docs = SHARED / name / "docs"
        if not docs.is_dir():
            continue
        for path in sorted(docs.rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and not path.name.startswith("_"):
                out.append((f"{name}/{path.relative_to(docs).as_posix()}", path))
    return out


_TITLE_RE = re.compile(r"^(title:\s*)(.+)$", re.MULTILINE)
_H1_RE = re.compile(r"^(# )(.+)$", re.MULTILINE)


def variant(text: str, release: int) -> str:
    """A release's copy of a page: the release in its title (front matter or first heading)."""
    tag = f" (release {release})"
    if text.startswith("---") and _TITLE_RE.search(text.split("\n---", 1)[0]):
        text = _TITLE_RE.sub(lambda m: m.group(1) + m.group(2).strip().strip("\"'") + tag, text, 1)
    elif _H1_RE.search(text):
        text = _H1_RE.sub(lambda m: m.group(1) + m.group(2) + tag, text, 1)
    else:
        text = f"# Release {release}\n\n" + text
    return text + f"\n\nThis page documents release {release}.\n"


def make_corpus(pages: int, into: Path) -> Path:
    """A plain Markdown site of `pages` pages: the real ones, then release copies of them."""
    real = real_pages()
    if not real:
        raise SystemExit("none of ../shared/corpus* is present")
    docs = into / f"docs-{pages}"
    for n in range(pages):
        rel, source = real[n % len(real)]
        release = n // len(real)
        target = docs / (rel if release == 0 else f"v{release + 1}/{rel}")
        target.parent.mkdir(parents=True, exist_ok=True)
        if release == 0:
            # A copy, never a hard link: the one-change step appends to a page, and through a
            # link that wrote into ../shared/corpus itself.
            shutil.copyfile(source, target)
        else:
            target.write_text(variant(source.read_text(errors="replace"), release + 1))
    return docs


def questions() -> tuple[list[str], list[str]]:
    """The shared corpora's English questions and their questions in other languages."""
    english: list[str] = []
    other: list[str] = []
    for name in CORPORA:
        folder = SHARED / name / "eval"
        for file, into in (("dev.jsonl", english), ("dev_multilingual.jsonl", other)):
            path = folder / file
            if not path.is_file():
                continue
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    if file == "dev.jsonl" or row.get("lang", "en") != "en":
                        into.append(row["question"])
    return english, other


# -- measuring -------------------------------------------------------------------------------------


def _status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as handle:
                    todo.extend(int(c) for c in handle.read().split())
        except OSError:
            continue
    return out


def run_child(args: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """Run `python -m bench.scale --child ...` in `cwd`'s tree; its JSON and its tree's peak RSS."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.scale", "--child", *args],
        cwd=cwd,
        env={**os.environ, **env, "PYTHONPATH": str(cwd)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.1):
            peak = max(peak, sum(_status_kb(p, "VmRSS") for p in _tree(proc.pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise RuntimeError(f"child {args[0]} failed:\n{err[-3000:]}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["peak_tree_rss_mb"] = round(peak / 1024, 1)
    return result


def _env(docs: Path, index: Path) -> dict[str, str]:
    return {
        "DOCS_AGENT_DOCS_DIR": str(docs),
        "DOCS_AGENT_KB_DIR": "",
        "DOCS_AGENT_INDEX_DIR": str(index),
        "DOCS_AGENT_EMBEDDINGS": "use",
        "DOCS_AGENT_DOCS_GENERATOR": "markdown",
        "DOCS_AGENT_WARM_UP": "false",
        "PYTHONDONTWRITEBYTECODE": "1",
        "SCALE_SHARED_DIR": str(SHARED),
    }


def disk(index: Path) -> dict[str, float]:
    """Bytes on disk (each file once), and the data: less logs, locks and older generations."""
    seen: set[int] = set()
    total = data = 0
    for path in index.rglob("*"):
        if not path.is_file():
            continue
        st = path.stat()
        if st.st_ino in seen:
            continue
        seen.add(st.st_ino)
        total += st.st_size
        name = path.name
        old_generation = any(
            part.startswith("g") and part[1:].isdigit() and part != _newest(path)
            for part in path.parts
        )
        if not (name.endswith(("-wal", "-shm", ".lock")) or old_generation):
            data += st.st_size
    return {"disk_mb": round(total / 1e6, 1), "data_mb": round(data / 1e6, 1)}


def _newest(path: Path) -> str:
    """The newest tantivy generation folder beside the one `path` is in ('' outside one)."""
    for parent in path.parents:
        if parent.name.endswith(".tantivy"):
            names = sorted(p.name for p in parent.iterdir() if p.name[1:].isdigit())
            return names[-1] if names else ""
    return ""


def measure(pages: int, tree: Path, scratch: Path, docs: Path) -> dict[str, Any]:
    """Every figure of one size for the code in `tree`."""
    index = scratch / f"index-{tree.name}-{pages}"
    shutil.rmtree(index, ignore_errors=True)
    env = _env(docs, index)
    build = run_child(["build"], env, tree)
    sizes = build["disk"]
    serve = run_child(["serve"], env, tree)
    sections = max(1, build["sections"])
    return {
        "pages": build["pages"],
        "sections": build["sections"],
        "lexical_ready_s": build["lexical_s"],
        "build_s": build["build_s"],
        "build_ms_per_page": round(build["build_s"] * 1000 / max(1, build["pages"]), 2),
        "build_ms_per_section": round(build["build_s"] * 1000 / sections, 3),
        "build_cpu_ms_per_section": round(build["cpu_s"] * 1000 / sections, 3),
        "build_peak_rss_mb": build["peak_tree_rss_mb"],
        **sizes,
        "disk_over_data": round(sizes["disk_mb"] / sizes["data_mb"], 3)
        if sizes["data_mb"]
        else None,
        "kb_per_page": round(sizes["disk_mb"] * 1e3 / max(1, build["pages"]), 1),
        "one_change_s": build["one_change_s"],
        "one_change_sync_s": build.get("one_change_sync_s"),
        "one_change_vectors_s": build.get("one_change_vectors_s"),
        "serve_lexical_ready_s": serve["lexical_ready_s"],
        "serve_start_s": serve["start_s"],
        "serve_rss_mb": serve["rss_mb"],
        "serve_rss_anon_mb": serve["rss_anon_mb"],
        "serve_rss_file_mb": serve["rss_file_mb"],
        "lexical_p50_ms": serve["lexical"]["p50_ms"],
        "lexical_p95_ms": serve["lexical"]["p95_ms"],
        "fused_p50_ms": serve["fused"]["p50_ms"],
        "fused_p95_ms": serve["fused"]["p95_ms"],
        "tantivy_p50_ms": serve["tantivy"]["p50_ms"],
        "tantivy_p95_ms": serve["tantivy"]["p95_ms"],
        "lexical_p95_over_tantivy": round(
            serve["lexical"]["p95_ms"] / max(1e-6, serve["tantivy"]["p95_ms"]), 2
        ),
    }


def growth(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Each numeric figure's exponent: least-squares slope of log(figure) over log(pages)."""
    out: dict[str, float] = {}
    if len(rows) < 2:
        return out
    for key in rows[0]:
        points = [
            (math.log(r["pages"]), math.log(r[key]))
            for r in rows
            if isinstance(r.get(key), (int, float)) and r[key] > 0 and r["pages"] > 0
        ]
        if key == "pages" or len(points) < 2:
            continue
        mx = statistics.mean(x for x, _ in points)
        my = statistics.mean(y for _, y in points)
        var = sum((x - mx) ** 2 for x, _ in points)
        if var > 0:
            out[key] = round(sum((x - mx) * (y - my) for x, y in points) / var, 2)
    return out


def baseline_tree(rev: str, into: Path) -> Path:
    """The code at a git revision, extracted (its bench/scale.py replaced by this one)."""
    out = into / f"baseline-{re.sub(r'[^A-Za-z0-9]+', '-', rev)}"
    out.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    shutil.copy2(Path(__file__), out / "bench" / "scale.py")
    return out


# -- the children ----------------------------------------------------------------------------------


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    if not ordered:
        return {"p50_ms": 0.0, "p95_ms": 0.0}
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2), "p95_ms": round(p95 * 1000, 2)}


def _open_docs() -> Any:
    from tools.docs import docs_source
    from tools.settings import SourceSettings

    return docs_source(SourceSettings.from_env())


def _cpu_s() -> float:
    usage = os.times()
    return usage.user + usage.system + usage.children_user + usage.children_system


def child_build() -> dict[str, Any]:
    """A cold build, lexical first; then one changed page in this (now server-like) process."""
    start = time.perf_counter()
    docs = _open_docs()
    vectors = getattr(docs, "vectors", None)
    if vectors is not None and hasattr(vectors, "background"):
        vectors.background = True  # what `make index` and a server's warm-up do
    stats = docs.sync()
    lexical_s = time.perf_counter() - start
    if vectors is not None and hasattr(vectors, "wait"):
        vectors.wait()
    build_s = time.perf_counter() - start
    cpu = _cpu_s()
    sections = len(vectors) if vectors is not None else 0
    # Disk as a server that built it sees it (its connections still open: SQLite removes a
    # log only when the last connection closes).
    sizes = disk(Path(os.environ["DOCS_AGENT_INDEX_DIR"]))
    # A server: statistics and vectors loaded, a cross-lingual question answered.
    docs.load_lexical()
    docs.load_vectors()
    docs.search(CHANGED_QUERY, 5)
    key = sorted(docs.index.keys())[len(docs.index) // 2]
    path = Path(docs.root) / docs.rel_path(key)
    spent = {"vectors": 0.0}
    if vectors is not None:
        # The vector store's share of the change: its sync and the search's vector step.
        for name in ("sync", "similarity"):
            original = getattr(vectors, name)

            def timed(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                t = time.perf_counter()
                try:
                    return _original(*args, **kwargs)
                finally:
                    spent["vectors"] += time.perf_counter() - t

            setattr(vectors, name, timed)
    change_start = time.perf_counter()
    with open(path, "a") as handle:
        handle.write("\n\nThe agent stops after the configured number of steps.\n")
    docs.sync()
    if vectors is not None and hasattr(vectors, "wait"):
        vectors.wait()
    synced = time.perf_counter() - change_start
    docs.search(CHANGED_QUERY, 5)
    one_change = time.perf_counter() - change_start
    return {
        "pages": stats.added,
        "sections": sections,
        "lexical_s": round(lexical_s, 2),
        "build_s": round(build_s, 2),
        "cpu_s": round(cpu, 2),
        "one_change_s": round(one_change, 3),
        "one_change_sync_s": round(synced, 3),
        "one_change_vectors_s": round(spent["vectors"], 3),
        "disk": sizes,
    }


def _tantivy_pages(root: Path) -> tuple[Any, float]:
    """A plain tantivy index of whole pages (title, raw text; English stemmer), in memory."""
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("title", stored=True, tokenizer_name="en_stem")
    builder.add_text_field("body", tokenizer_name="en_stem")
    builder.add_text_field("path", stored=True, tokenizer_name="raw")
    index = tantivy.Index(builder.build())
    start = time.perf_counter()
    writer = index.writer(heap_size=64_000_000, num_threads=1)
    for path in sorted(root.rglob("*")):
        if path.suffix in SUFFIXES and path.is_file():
            text = path.read_text(errors="replace")
            title = next((line[2:] for line in text.splitlines() if line.startswith("# ")), "")
            writer.add_document(
                tantivy.Document(title=title, body=text, path=path.relative_to(root).as_posix())
            )
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    return index, time.perf_counter() - start


def child_serve() -> dict[str, Any]:
    """Open a prebuilt index as a server does; search it and a plain tantivy whole-page index."""
    start = time.perf_counter()
    docs = _open_docs()
    docs.load_lexical()
    lexical_ready = time.perf_counter() - start
    docs.load_vectors()
    english, other = questions()
    docs.search(other[0], 5)  # the first cross-lingual question (the model loads meanwhile)
    start_s = time.perf_counter() - start
    lexical: list[float] = []
    fused: list[float] = []
    for _ in range(REPEATS):
        for q in english:
            t = time.perf_counter()
            docs.search(q, 10)
            lexical.append(time.perf_counter() - t)
        for q in other:
            t = time.perf_counter()
            docs.search(q, 10)
            fused.append(time.perf_counter() - t)
    rss = {k: _status_kb(os.getpid(), k) / 1024 for k in ("VmRSS", "RssAnon", "RssFile")}
    index, _ = _tantivy_pages(Path(docs.root))
    searcher = index.searcher()
    plain: list[float] = []
    for _ in range(REPEATS):
        for q in english:
            words = " ".join(re.findall(r"\w+", q))
            t = time.perf_counter()
            if words:
                query = index.parse_query(words, ["title", "body"])
                searcher.search(query, 10)
            plain.append(time.perf_counter() - t)
    return {
        "lexical_ready_s": round(lexical_ready, 2),
        "start_s": round(start_s, 2),
        "rss_mb": round(rss["VmRSS"], 1),
        "rss_anon_mb": round(rss["RssAnon"], 1),
        "rss_file_mb": round(rss["RssFile"], 1),
        "lexical": _ms(lexical),
        "fused": _ms(fused),
        "tantivy": _ms(plain),
    }


# -- the table -------------------------------------------------------------------------------------

COLUMNS = [
    ("pages", "pages"),
    ("sections", "sections"),
    ("lexical_ready_s", "lexical ready s"),
    ("build_s", "build s"),
    ("build_ms_per_section", "ms/section"),
    ("build_peak_rss_mb", "build peak RSS MB"),
    ("disk_over_data", "disk/data"),
    ("kb_per_page", "KB/page"),
    ("one_change_s", "1 change → x-lingual s (sync; vectors)"),
    ("serve_start_s", "serve start s"),
    ("serve_rss_mb", "serve RSS MB (anon)"),
    ("lexical_p95_ms", "lexical p50/p95 ms"),
    ("fused_p95_ms", "fused p50/p95 ms"),
    ("tantivy_p95_ms", "tantivy pages p50/p95 ms"),
    ("lexical_p95_over_tantivy", "p95 ÷ tantivy"),
]


def _cell(row: dict[str, Any], key: str) -> str:
    pairs = {
        "lexical_p95_ms": "lexical_p50_ms",
        "fused_p95_ms": "fused_p50_ms",
        "tantivy_p95_ms": "tantivy_p50_ms",
    }
    if key in pairs:
        return f"{row[pairs[key]]} / {row[key]}"
    if key == "one_change_s" and row.get("one_change_vectors_s") is not None:
        return f"{row[key]} ({row['one_change_sync_s']}; {row['one_change_vectors_s']})"
    if key == "serve_rss_mb":
        return f"{row[key]:.0f} ({row['serve_rss_anon_mb']:.0f})"
    value = row.get(key)
    return "–" if value is None else str(value)


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    lines = [
        "| code | " + " | ".join(title for _, title in COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
    ]
    for side, rows in results.items():
        for row in rows:
            lines.append(f"| {side} | " + " | ".join(_cell(row, k) for k, _ in COLUMNS) + " |")
        exponents = growth(rows)
        if exponents:
            lines.append(
                f"| {side}: growth exponent | "
                + " | ".join(str(exponents.get(k, "–")) for k, _ in COLUMNS)
                + " |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="5000,20000,50000")
    parser.add_argument("--baseline", default="", help="a git revision to measure beside")
    parser.add_argument("--baseline-sizes", default="", help="default: --sizes")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=("build", "serve"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        import logging

        logging.disable(logging.WARNING)
        print(json.dumps(child_build() if args.child == "build" else child_serve()))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s]
    base_sizes = [int(s) for s in (args.baseline_sizes or args.sizes).split(",") if s]
    results: dict[str, list[dict[str, Any]]] = {}
    with contextlib.ExitStack() as stack:
        if args.keep:  # built corpora and indexes stay there, for a look or a profile
            args.keep.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix="scale-", dir=args.keep))
        else:
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="scale-")))
        sides = [("ours", ROOT, sizes)]
        if args.baseline:
            sides.insert(0, (args.baseline, baseline_tree(args.baseline, scratch), base_sizes))
        corpora: dict[int, Path] = {}
        for pages in sorted({n for _, _, ns in sides for n in ns}):
            for side, tree, wanted in sides:
                if pages not in wanted:
                    continue
                if pages not in corpora:
                    corpora[pages] = make_corpus(pages, scratch)
                print(f"measuring {side} at {pages} pages", file=sys.stderr, flush=True)
                row = measure(pages, tree, scratch, corpora[pages])
                results.setdefault(side, []).append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
                RESULTS.parent.mkdir(parents=True, exist_ok=True)
                RESULTS.write_text(json.dumps(results, indent=1))
    print(json.dumps(results) if args.json else table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
