"""Search relevance benchmark on an API reference the project does not otherwise use.

The corpus is the Java SE 17 API reference of Debian's ``openjdk-17-doc`` (javadoc: one
page per class, "Uses of Class" pages, package summaries listing every class with its first
sentence, the all-classes index, the alphabetical index, the deprecated list): the
``java.base`` module plus the reference's top-level pages. Queries are generated and judged
automatically, one target page each:

- ``name``: a class's simple name (``Paths``, ``Arrays``, ``Map.Entry``) -> its class page,
  for the classes whose simple name is unique in the corpus;
- ``stem``: the same for every class whose simple name stems like another class's
  (``Paths`` and ``Path``, ``Executors`` and ``Executor``): the exact name must win;
- ``sentence``: the first sentence of a class's description (javadoc's summary sentence,
  which the package summary and the indexes repeat) -> the class page.

The pages are read from the package's files with the crawler's own extractor
(``crawler.extract.extract_page``), ranked with the crawler's weighted PageRank over their
links and indexed with ``crawler.search`` (a ``scrapy reindex``-style rebuild). No HTTP
crawl: the search is what is measured, and crawling ~3,000 pages through the sandbox
would take minutes without changing a document. ``--code DIR`` imports ``crawler`` from
another checkout (e.g. an export of ``main``) for "before" numbers with the same queries.

    apt-get install openjdk-17-doc        # once (about 13 MB download, 276 MB installed)
    .venv/bin/python bench/search_relevance_eval.py
    git -C /work/main archive main | tar -x -C /tmp/main-code
    .venv/bin/python bench/search_relevance_eval.py --code /tmp/main-code

Targets: MRR >= 0.9 for each query kind, p95 latency < 100 ms.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import lxml.html
import numpy as np
from whoosh.lang.porter import stem

PROJECT_DIR = Path(__file__).resolve().parent.parent
DOC_ROOT = "/usr/share/doc/openjdk-17-jre-headless/api"
BASE_URL = "http://docs.java.test/api/"
#: Ranks looked at per query; a target further down counts 0 in MRR.
DEPTH = 30
TARGETS = {"mrr": 0.9, "latency_p95_ms": 100.0}
_CLASS_FILE = re.compile(r"[A-Z][A-Za-z0-9_.]*\.html")
# javadoc's summary sentence: up to the first period followed by white space
_SENTENCE_END = re.compile(r"\.(\s|$)")


def corpus_files(root: Path, modules: list[str]) -> list[Path]:
    """The reference's top-level pages, its alphabetical index and the modules' pages."""
    files = sorted(root.glob("*.html")) + sorted((root / "index-files").glob("*.html"))
    for module in modules:
        files += sorted((root / module).rglob("*.html"))
    return files


def is_class_page(rel: str) -> bool:
    parts = rel.split("/")
    return (
        len(parts) > 2
        and "class-use" not in parts
        and "doc-files" not in parts
        and _CLASS_FILE.fullmatch(parts[-1]) is not None
    )


def first_sentence(html: bytes) -> str:
    """The first sentence of a class page's description block ('' when none)."""
    root = lxml.html.fromstring(html)
    blocks = root.xpath(
        "//section[contains(@class,'class-description')]//div[contains(@class,'block')]"
    )
    if not blocks:
        return ""
    text = " ".join(blocks[0].text_content().split())
    match = _SENTENCE_END.search(text)
    return text[: match.start() + 1] if match else text


def build_queries(
    root: Path, rels: list[str], per_kind: int, seed: int
) -> list[tuple[str, str, str]]:
    """(kind, query, target URL) for ``per_kind`` sampled classes of each kind."""
    classes = [rel for rel in rels if is_class_page(rel)]
    names: dict[str, list[str]] = {}
    for rel in classes:
        names.setdefault(rel.rsplit("/", 1)[1][: -len(".html")], []).append(rel)
    unique = sorted(name for name, found in names.items() if len(found) == 1)
    rng = random.Random(seed)
    queries = [
        ("name", name, BASE_URL + names[name][0])
        for name in rng.sample(unique, min(per_kind, len(unique)))
    ]
    stems: dict[str, list[str]] = {}
    for name in unique:
        stems.setdefault(stem(name.lower()), []).append(name)
    queries += [
        ("stem", name, BASE_URL + names[name][0])
        for group in stems.values()
        if len(group) > 1
        for name in sorted(group)
    ]
    sentences: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for rel in rng.sample(classes, len(classes)):
        sentence = first_sentence((root / rel).read_bytes())
        if len(sentence.split()) < 4 or sentence in seen:
            continue  # too short to be a description, or shared by several classes
        seen.add(sentence)
        sentences.append(("sentence", sentence, BASE_URL + rel))
        if len(sentences) >= per_kind:
            break
    return queries + sentences


def load_pages(root: Path, files: list[Path]) -> tuple[list[dict], list[str]]:
    from crawler.extract import extract_page

    try:  # the page content model (issue 25), when the code has it
        from crawler.content import main_content
    except ImportError:
        main_content = None
    pages = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        url = BASE_URL + rel
        html = path.read_bytes()
        page = extract_page(html, url)
        extra = {}
        if main_content is not None:
            content = main_content(html)
            extra = {"main_text": content.text, "headings": content.headings, "lang": content.lang}
        pages.append(
            {"url": url, "title": page.title, "text": page.text, "links": page.links, **extra}
        )
    return pages, [p["url"] for p in pages]


def pagerank(pages: list[dict]) -> list[float]:
    from crawler.ranking.pagerank import weighted_pagerank

    number = {page["url"]: i for i, page in enumerate(pages)}
    sources, targets, weights = [], [], []
    for i, page in enumerate(pages):
        for link in page["links"]:
            j = number.get(link.url)
            if j is not None and j != i:
                sources.append(i)
                targets.append(j)
                weights.append(link.visibility * link.position * link.distance)
    result = weighted_pagerank(
        len(pages),
        np.array(sources, dtype=np.int64),
        np.array(targets, dtype=np.int64),
        np.array(weights, dtype=np.float64),
    )
    return result.relative.tolist()


def documents(pages: list[dict], ranks: list[float]):
    from crawler.search.schema import page_document

    parameters = inspect.signature(page_document).parameters
    takes_anchors = "anchors" in parameters
    inlinks: dict[str, list[tuple[str, str]]] = {}
    if "inlinks" in parameters:  # in-link anchor text (issue 25), as source.py reads it
        from crawler.search.fields import inlink_anchor_text

        for page in pages:
            for ln in page["links"]:
                if ln.anchor_text and ln.url != page["url"]:
                    inlinks.setdefault(ln.url, []).append((page["url"], ln.anchor_text))
    fetched = datetime.now(UTC)
    for page, rank in zip(pages, ranks, strict=True):
        extra = {"anchors": [ln.anchor_text for ln in page["links"]]} if takes_anchors else {}
        if "main_text" in page and "main_text" in parameters:
            extra.update(main_text=page["main_text"], headings=page["headings"], lang=page["lang"])
        if "inlinks" in parameters:
            extra["inlinks"] = inlink_anchor_text(inlinks.get(page["url"], []), "docs.java.test")
        yield page_document(
            url=page["url"],
            title=page["title"],
            text=page["text"],
            host="docs.java.test",
            content_type="text/html",
            fetched_at=fetched,
            pagerank=rank,
            **extra,
        )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))]


def evaluate(engine, queries):
    ranks = []
    for _kind, query, url in queries:
        rank = None
        for hit in engine.search(query, per_page=DEPTH).hits:
            if hit.url == url:
                rank = hit.rank
                break
        ranks.append(rank)
    return ranks


def summary(kind_ranks: list[int | None]) -> tuple[float, float]:
    mrr = sum(1.0 / r for r in kind_ranks if r) / len(kind_ranks)
    p1 = sum(1 for r in kind_ranks if r == 1) / len(kind_ranks)
    return mrr, p1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--doc-root", default=DOC_ROOT)
    parser.add_argument(
        "--modules", default="java.base", help="comma-separated javadoc modules to include"
    )
    parser.add_argument("--queries", type=int, default=100, help="queries per kind")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--latency-rounds", type=int, default=3)
    parser.add_argument("--code", help="import crawler from this checkout (before numbers)")
    parser.add_argument("--work-dir", help="keep the index here (default: a temporary folder)")
    parser.add_argument("--show-misses", type=int, default=15)
    for name in ("exact", "lead", "proximity", "title", "heading", "anchor"):
        parser.add_argument(
            f"--{name}-boost",
            type=float,
            help=f"SEARCH_{name.upper()}_BOOST (default: the setting's)",
        )
    parser.add_argument(
        "--reuse-index",
        action="store_true",
        help="search the index already in --work-dir (query-time changes)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.code).resolve() if args.code else PROJECT_DIR))
    root = Path(args.doc_root)
    if not (root / "index.html").is_file():
        print(f"error: no javadoc in {root}: apt-get install openjdk-17-doc", file=sys.stderr)
        return 2
    if args.work_dir:
        Path(args.work_dir).mkdir(parents=True, exist_ok=True)
        return run(root, Path(args.work_dir), args)
    with tempfile.TemporaryDirectory(prefix="bench-relevance-") as tmp:
        return run(root, Path(tmp), args)


def run(root: Path, work: Path, args: argparse.Namespace) -> int:
    from crawler.search import SearchEngine, open_index, rebuild_index

    code = args.code or str(PROJECT_DIR)
    print(
        f"search relevance benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}, code {code}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    cached = work / "queries.json"
    if args.reuse_index and (work / "index").is_dir() and cached.is_file():
        queries = [tuple(q) for q in json.loads(cached.read_text())]
        print(f"reused index and queries in {work}")
    else:
        files = corpus_files(root, args.modules.split(","))
        started = time.perf_counter()
        pages, urls = load_pages(root, files)
        print(
            f"corpus: {len(pages)} pages of {root} ({args.modules} + top-level pages), "
            f"extracted in {time.perf_counter() - started:.1f} s"
        )
        ranks = pagerank(pages)
        rels = [url[len(BASE_URL) :] for url in urls]
        queries = build_queries(root, rels, args.queries, args.seed)
        if not (args.reuse_index and (work / "index").is_dir()):
            started = time.perf_counter()
            count = rebuild_index(work / "index", documents(pages, ranks))
            seconds = time.perf_counter() - started
            print(
                f"index: {count} pages in {seconds:.1f} s ({count / seconds:.1f} "
                f"pages/s); load average {os.getloadavg()[0]:.2f}"
            )
        cached.write_text(json.dumps(queries))
    ix = open_index(work / "index", create=False)
    changed = {
        name: value
        for name, value in (
            ("exact", args.exact_boost),
            ("lead", args.lead_boost),
            ("proximity", args.proximity_boost),
            ("title", args.title_boost),
            ("heading", args.heading_boost),
            ("anchor", args.anchor_boost),
        )
        if value is not None
    }
    options = {}
    if changed:  # (only the current code has them)
        from crawler.search.query import Boosts

        options["boosts"] = Boosts(**changed)
    engines = {
        "BM25F": SearchEngine(ix, pagerank_weight=0.0, **options),
        "blend": SearchEngine(ix, **options),
    }
    results = {name: evaluate(engine, queries) for name, engine in engines.items()}
    kinds = sorted({kind for kind, _, _ in queries})
    met = True
    for name, ranked in results.items():
        for kind in kinds:
            kind_ranks = [r for (k, _, _), r in zip(queries, ranked, strict=True) if k == kind]
            mrr, p1 = summary(kind_ranks)
            ok = mrr >= TARGETS["mrr"]
            met &= ok or name != "blend"
            print(
                f"{name:6s} {kind:9s} {len(kind_ranks):4d} queries: MRR {mrr:.3f}  "
                f"P@1 {p1:.3f}"
                + (
                    f"   target MRR >= {TARGETS['mrr']}: {'met' if ok else 'NOT met'}"
                    if name == "blend"
                    else ""
                )
            )
    misses = [(q, r) for q, r in zip(queries, results["blend"], strict=True) if r != 1]
    print(f"blend misses (rank != 1): {len(misses)}; first {args.show_misses}:")
    blend = engines["blend"]
    for (kind, query, url), rank in misses[: args.show_misses]:
        top = blend.search(query, per_page=1).hits
        print(
            f"  [{kind}] {query[:70]!r} rank {rank or '-'} -> {url[len(BASE_URL) :]}; "
            f"first: {top[0].url[len(BASE_URL) :] if top else '-'}"
        )
    blend.search("warm up")
    timings: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(args.latency_rounds):
        for kind, query, _url in queries:
            started = time.perf_counter()
            blend.search(query, per_page=10)
            timings[kind].append((time.perf_counter() - started) * 1000)
    for kind in [*kinds, "all"]:
        values = sum(timings.values(), []) if kind == "all" else timings[kind]
        p95 = percentile(values, 95)
        print(
            f"latency, {kind} queries, over {blend.doc_count()} pages, {len(values)} "
            f"searches (10 results with snippets): p50 {percentile(values, 50):.1f} ms, "
            f"p95 {p95:.1f} ms, max {max(values):.1f} ms, mean "
            f"{statistics.mean(values):.1f} ms   target p95 < "
            f"{TARGETS['latency_p95_ms']:g} ms: "
            f"{'met' if p95 < TARGETS['latency_p95_ms'] else 'NOT met'}"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")
    for engine in engines.values():
        engine.close()
    ix.close()
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
