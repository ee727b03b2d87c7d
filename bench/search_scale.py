"""Search index at crawl scale, both backends (issue 28): an index of N pages built and
queried with Whoosh and with Tantivy.

Input: N pages generated from the Debian documentation on disk (Python 3.11, PostgreSQL
15, Django HTML, text from bench/scratch.py's debian_doc_texts): page i is a window of
1,500 to 8,000 characters (seeded) of one of those pages' text, its title, a URL on one
of 500 hosts, 0 to 60 out-link anchor texts (so the hub and anchor signals are computed)
and a PageRank. Each backend runs in a process of its own that

1. indexes the pages as the outbox indexer does: crawler.search.schema.page_document,
   then IndexWriter.apply, one commit per SEARCH_BATCH_SIZE (500) pages;
2. runs the queries of each kind (names, two words, descriptions, sentences, phrases,
   NEAR, title:, site: filter, misspellings), 10 results with snippets, through
   SearchEngine.search, after one warm-up search.

Reported per backend: pages/s (wall), CPU ms per page (the process's user + system time,
Tantivy's own threads included, and apart the share spent in page_document, the same for
both), index size on disk, peak RSS, p50/p95 wall time per query kind.

    nice -n 10 .venv/bin/python bench/search_scale.py --pages 100000 [--backends whoosh,tantivy]
        [--work-dir DIR] [--json FILE]

--json keeps each query's top 10 URLs too (``top``), to compare the results of two runs.

No database or network is needed. Targets (issue 28): Tantivy <= 3 ms CPU per page
indexed; p95 < 100 ms for every query kind.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))
sys.path.insert(0, str(PROJECT_DIR / "bench"))

SEED = 28
SOURCE_PAGES = 3000
HOSTS = 500
BATCH = 500
QUERIES_PER_KIND = 20
KINDS = ("name", "two_words", "description", "sentence", "phrase", "near", "title",
         "site", "misspelled")


def source_pages() -> list[tuple[str, str, list[str]]]:
    from scratch import debian_doc_texts

    return [(url, title, text.split()) for url, title, text in debian_doc_texts(SOURCE_PAGES)
            if len(text.split()) > 60]


def generate(sources: list[tuple[str, str, list[str]]], count: int, seed: int = SEED):
    """(url, title, text, host, anchors, pagerank) of ``count`` pages."""
    rng = random.Random(seed)
    now = datetime(2026, 11, 1, tzinfo=UTC)
    for i in range(count):
        url, title, words = sources[i % len(sources)]
        length = rng.randint(230, 1200)  # words: about 1,500 to 8,000 characters
        start = rng.randint(0, max(0, len(words) - length))
        text = " ".join(words[start : start + length])
        host = f"h{rng.randrange(HOSTS)}.docs.test"
        path = url.split("/", 3)[-1].replace(".html", "")
        links = rng.choice((0, 5, 20, 60))
        anchors = [" ".join(words[j : j + rng.randint(1, 3)])
                   for j in (rng.randrange(len(words)) for _ in range(links))]
        yield dict(
            url=f"http://{host}/{path}/{i}.html",
            title=f"{title} {i}",
            text=text,
            host=host,
            content_type="text/html",
            fetched_at=now - timedelta(days=rng.randint(0, 400)),
            crawl_id="scale",
            pagerank=round(rng.paretovariate(1.5) - 1.0, 4),
            anchors=anchors,
            lang="en",
        )


def queries(sources: list[tuple[str, str, list[str]]], seed: int = SEED) -> dict[str, list[str]]:
    rng = random.Random(seed + 1)

    def words(n: int) -> list[str]:
        _, _, ws = rng.choice(sources)
        start = rng.randrange(0, max(1, len(ws) - n))
        return [w.strip(".,;:()[]{}\"'") or "x" for w in ws[start : start + n]]

    def word() -> str:
        while True:
            w = words(1)[0]
            if w.isalpha() and len(w) > 4:
                return w

    out: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for _ in range(QUERIES_PER_KIND):
        out["name"].append(word())
        out["two_words"].append(f"{word()} {word()}")
        out["description"].append(" ".join(words(5)))
        out["sentence"].append(" ".join(words(12)))
        out["phrase"].append('"' + " ".join(words(2)) + '"')
        out["near"].append(f"{word()} NEAR/5 {word()}")
        out["title"].append(f"title:{word()}")
        out["site"].append(f"site:h{rng.randrange(HOSTS)}.docs.test {word()}")
        w = word()
        i = rng.randrange(1, len(w) - 1)
        out["misspelled"].append(w[:i] + w[i + 1] + w[i] + w[i + 2 :])
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def child(backend: str, pages: int, folder: Path, reuse: bool = False) -> dict:
    """Build and query one backend's index (run in a process of its own)."""
    from crawler.search import IndexWriter, open_index
    from crawler.search.schema import page_document

    sources = source_pages()
    if reuse and (folder / "BUILT.json").exists():
        return query_only(backend, pages, folder, sources,
                          json.loads((folder / "BUILT.json").read_text()))
    if folder.exists():
        shutil.rmtree(folder)
    ix = open_index(folder, backend=backend)
    writer = IndexWriter(ix)
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    document_cpu = 0.0
    batch: list[dict] = []
    done = 0
    for page in generate(sources, pages):
        before = time.process_time()
        batch.append(page_document(**page, max_body_chars=200_000))
        document_cpu += time.process_time() - before
        if len(batch) >= BATCH:
            writer.apply(batch, (), keep_pagerank=False)
            done += len(batch)
            batch = []
            if done % 20_000 == 0:
                print(f"  {backend}: {done} pages, {time.perf_counter() - started_wall:.0f} s",
                      file=sys.stderr, flush=True)
    if batch:
        writer.apply(batch, (), keep_pagerank=False)
    wall = time.perf_counter() - started_wall
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = time.process_time() - started_cpu
    build_rss = usage.ru_maxrss / 1024
    size = folder_size(folder)
    built = {
        "wall_s": round(wall, 1),
        "pages_per_s": round(pages / wall, 1),
        "cpu_ms_per_page": round(cpu * 1000 / pages, 2),
        "page_document_cpu_ms_per_page": round(document_cpu * 1000 / pages, 2),
        "index_mb": round(size / 1e6, 1),
        "peak_rss_mb_build": round(build_rss, 1),
    }
    (folder / "BUILT.json").write_text(json.dumps(built))
    return query_only(backend, pages, folder, sources, built)


def query_only(backend: str, pages: int, folder: Path, sources: list, built: dict) -> dict:
    """Query a built index: p50/p95 wall and mean CPU per query kind."""
    from crawler.search import SearchEngine, open_index

    engine = SearchEngine(open_index(folder, create=False))
    if os.environ.get("SEARCH_SCALE_PYTHON_BLEND"):
        engine.ix.blend_weight = -1.0  # no pagerank_blend for the engine's weight
    engine.search("python json")  # warm-up (opens the reader)
    latency: dict[str, dict[str, float]] = {}
    totals: dict[str, int] = {}
    top: dict[str, list[str]] = {}
    for kind, texts in queries(sources).items():
        times, cpus = [], []
        for text in texts:
            t0, c0 = time.perf_counter(), time.process_time()
            results = engine.search(text, per_page=10)
            times.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
            totals[kind] = totals.get(kind, 0) + results.total
            top[f"{kind}: {text}"] = [hit.url for hit in results.hits]
        latency[kind] = {
            "p50_ms": round(statistics.median(times), 1),
            "p95_ms": round(percentile(times, 0.95), 1),
            "cpu_mean_ms": round(statistics.mean(cpus), 1),
            "cpu_p95_ms": round(percentile(cpus, 0.95), 1),
        }
    documents = engine.doc_count() if hasattr(engine, "doc_count") else None
    engine.close()
    return {
        "backend": backend,
        "pages": pages,
        "documents": documents,
        **built,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "latency": latency,
        "mean_results": {k: round(v / QUERIES_PER_KIND, 1) for k, v in totals.items()},
        "load": os.getloadavg(),
        "top": top,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--backends", default="tantivy,whoosh")
    parser.add_argument("--work-dir", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the index folders")
    parser.add_argument("--reuse", action="store_true",
                        help="query the index a --keep run left in --work-dir (no build; "
                             "the build figures are that run's)")
    parser.add_argument("--json", type=Path, help="write the results to this file")
    parser.add_argument("--proximity-probe-docs", type=int,
                        help="Tantivy: set crawler.search.tantivy_engine.PROXIMITY_PROBE_DOCS")
    parser.add_argument("--name-part-regex", action="store_true",
                        help="Tantivy: the name-part bonus by regular expressions over the "
                             "term dictionaries (as for an index without its name-part "
                             "vocabulary), not from the vocabulary")
    parser.add_argument("--python-blend", action="store_true",
                        help="Tantivy: blend a window of raw-score hits in Python (the search "
                             "before the pagerank_blend field), not Tantivy's weight_by_field")
    parser.add_argument("--compare-with", type=Path,
                        help="a --json file of an earlier run: per kind, how many queries "
                             "keep their first result and their whole top 10")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.proximity_probe_docs is not None:
            from crawler.search import tantivy_engine

            tantivy_engine.PROXIMITY_PROBE_DOCS = args.proximity_probe_docs
        if args.name_part_regex:
            from crawler.search import tantivy_engine

            tantivy_engine.TantivySearchEngine.name_vocabulary = lambda self: None
        if args.python_blend:
            os.environ["SEARCH_SCALE_PYTHON_BLEND"] = "1"
        print(json.dumps(child(args.child, args.pages, args.work_dir / args.child, args.reuse)))
        return
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="search-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    results = []
    for backend in args.backends.split(","):
        print(f"{backend}: building an index of {args.pages} pages in {work / backend} "
              f"(load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
        out = subprocess.run(
            [sys.executable, __file__, "--child", backend, "--pages", str(args.pages),
             "--work-dir", str(work), *(["--reuse"] if args.reuse else []),
             *([f"--proximity-probe-docs={args.proximity_probe_docs}"]
               if args.proximity_probe_docs is not None else []),
             *(["--name-part-regex"] if args.name_part_regex else []),
             *(["--python-blend"] if args.python_blend else [])],
            capture_output=True, text=True, check=False,
        )
        sys.stderr.write(out.stderr)
        if out.returncode != 0:
            raise SystemExit(f"error: the {backend} run failed")
        result = json.loads(out.stdout.strip().splitlines()[-1])
        results.append(result)
        print(json.dumps({k: v for k, v in result.items() if k != "top"}, indent=1), flush=True)
        if not args.keep:
            shutil.rmtree(work / backend, ignore_errors=True)
    print()
    print("| measure | " + " | ".join(r["backend"] for r in results) + " |")
    print("|---|" + "---|" * len(results))
    for key in ("pages_per_s", "cpu_ms_per_page", "page_document_cpu_ms_per_page",
                "index_mb", "peak_rss_mb_build", "peak_rss_mb"):
        print(f"| {key} | " + " | ".join(str(r[key]) for r in results) + " |")
    for kind in KINDS:
        print(f"| {kind} p50 / p95 ms | " + " | ".join(
            f"{r['latency'][kind]['p50_ms']} / {r['latency'][kind]['p95_ms']} "
            f"(CPU mean {r['latency'][kind]['cpu_mean_ms']}, "
            f"p95 {r['latency'][kind].get('cpu_p95_ms')})"
            for r in results) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if args.compare_with:
        compare(json.loads(args.compare_with.read_text()), results)


def compare(before: list[dict], after: list[dict]) -> None:
    """Per backend and kind: queries whose first result and whole top 10 are unchanged,
    and the mean number of top-10 pages both runs share."""
    earlier = {r["backend"]: r["top"] for r in before if "top" in r}
    for result in after:
        old = earlier.get(result["backend"])
        if old is None:
            continue
        print(f"\n{result['backend']} against the earlier run: same first / same top 10 / "
              "top-10 pages shared (mean)")
        for kind in KINDS:
            keys = [k for k in result["top"] if k.startswith(f"{kind}: ") and k in old]
            first = sum(result["top"][k][:1] == old[k][:1] for k in keys)
            whole = sum(result["top"][k] == old[k] for k in keys)
            shared = statistics.mean(len(set(result["top"][k]) & set(old[k])) for k in keys)
            print(f"  {kind}: {first} / {whole} / {shared:.1f} of {len(keys)} queries")


if __name__ == "__main__":
    main()
