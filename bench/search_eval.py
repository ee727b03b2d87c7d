"""Search benchmark: known-item retrieval quality, query latency, indexing rate.

Crawls the sandbox web (synthetic sites + the Debian documentation sites: Python 3.11,
PostgreSQL 15, Django) with a real `scrapy crawl` into a fresh database, the search
pipeline indexing as it goes; then computes the weighted PageRank, rebuilds the index from
PostgreSQL (indexing rate) and runs the judged known-item queries below with BM25F alone
and with the PageRank blend (MRR, P@1), and measures query latency over the whole index.

Run inside a loopback-only namespace, like the tests:

    unshare -n sh -c 'ip link set lo up && \
      CRAWLER_TEST_DATABASE_URL="postgresql:///postgres?host=/var/run/postgresql&user=postgres" \
      .venv/bin/python bench/search_eval.py'

Only http:// goes through the sandbox proxy; the docs' links to real https:// sites fail at
once (no route), as they would on a machine without network.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from crawler.ranking.pagerank import weighted_pagerank  # noqa: E402
from crawler.ranking.store import load_link_graph, store_scores  # noqa: E402
from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web  # noqa: E402
from crawler.search import SearchEngine, open_index, rebuild_index, update_pagerank  # noqa: E402
from crawler.search.source import iter_page_documents  # noqa: E402
from crawler.storage.database import CrawlDatabase  # noqa: E402

PY = "http://docs.python.test/library/"
PG = "http://docs.postgresql.test/"
DJ = "http://docs.django.test/"

#: Known-item queries: a function, class or SQL command name -> the page documenting it.
JUDGED: list[tuple[str, str]] = [
    ("json.dumps", PY + "json.html"),
    ("os.path.join", PY + "os.path.html"),
    ("re.sub", PY + "re.html"),
    ("itertools.groupby", PY + "itertools.html"),
    ("collections.OrderedDict", PY + "collections.html"),
    ("datetime.timedelta", PY + "datetime.html"),
    ("subprocess.run", PY + "subprocess.html"),
    ("argparse.ArgumentParser", PY + "argparse.html"),
    ("functools.lru_cache", PY + "functools.html"),
    ("pathlib.Path", PY + "pathlib.html"),
    ("asyncio.gather", PY + "asyncio-task.html"),
    ("heapq.heappush", PY + "heapq.html"),
    ("CREATE INDEX", PG + "sql-createindex.html"),
    ("ALTER TABLE", PG + "sql-altertable.html"),
    ("VACUUM", PG + "sql-vacuum.html"),
    ("EXPLAIN", PG + "sql-explain.html"),
    ("COPY", PG + "sql-copy.html"),
    ("CREATE TRIGGER", PG + "sql-createtrigger.html"),
    ("DROP TABLE", PG + "sql-droptable.html"),
    ("INSERT", PG + "sql-insert.html"),
    ("GRANT", PG + "sql-grant.html"),
    ("CREATE VIEW", PG + "sql-createview.html"),
    ("TRUNCATE", PG + "sql-truncate.html"),
    ("LISTEN", PG + "sql-listen.html"),
    ("get_object_or_404", DJ + "topics/http/shortcuts.html"),
    ("QuerySet.select_related", DJ + "ref/models/querysets.html"),
    ("ModelForm", DJ + "topics/forms/modelforms.html"),
    ("HttpResponseRedirect", DJ + "ref/request-response.html"),
    ("reverse_lazy", DJ + "ref/urlresolvers.html"),
    ("TemplateView", DJ + "ref/class-based-views/base.html"),
    ("ForeignKey", DJ + "ref/models/fields.html"),
    ("login_required", DJ + "topics/auth/default.html"),
    ("Paginator", DJ + "ref/paginator.html"),
    ("Subquery", DJ + "ref/models/expressions.html"),
    ("slugify", DJ + "ref/utils.html"),
    ("JsonResponse", DJ + "ref/request-response.html"),
]

#: More queries for the latency measurement: operators, phrases, fields, filters, misses.
LATENCY_EXTRA = [
    "python database", "index AND table", "json OR xml", "cookie XOR session",
    "select NOT insert", "query NEAR/5 plan", '"regular expression"', "title:tutorial",
    "site:docs.python.test string", "format:html transaction", "updated:year model",
    "recipes", "interest rate", "pyhton", "the", "function argument default value",
    "url:sql", "(sort OR order) AND list", "-python documentation", "django form validation",
]

TARGETS = {"mrr_blend": 0.8, "latency_p95_ms": 100.0}


def rank_of(engine: SearchEngine, query: str, url: str, depth: int = 100) -> int | None:
    results = engine.search(query, per_page=depth)
    for hit in results.hits:
        if hit.url == url:
            return hit.rank
    return None


def evaluate(engine: SearchEngine) -> tuple[float, float, list[int | None]]:
    ranks = [rank_of(engine, query, url) for query, url in JUDGED]
    mrr = sum(1.0 / r for r in ranks if r) / len(ranks)
    p1 = sum(1 for r in ranks if r == 1) / len(ranks)
    return mrr, p1, ranks


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def crawl(database_url: str, data_dir: Path, crawl_id: str, index: bool) -> tuple[float, str]:
    web = build_synthetic_web()
    seeds = list(web.seeds) + add_debian_docs(web)
    with SandboxServer(web) as server:
        env = {k: v for k, v in os.environ.items()
               if k.lower() not in ("http_proxy", "https_proxy", "no_proxy")}
        env.update(
            # both: https links must not bypass the sandbox (scrapy crawl refuses otherwise)
            http_proxy=server.proxy_url, https_proxy=server.proxy_url,
            SCRAPY_SETTINGS_MODULE="crawler.settings",
            PYTHONPATH=str(PROJECT_DIR), CRAWLER_DATABASE_URL=database_url,
        )
        cmd = [
            sys.executable, "-m", "scrapy", "crawl", "general",
            "-a", f"seed_urls={','.join(seeds)}", "-a", f"crawl_id={crawl_id}",
            "-s", f"CRAWLER_DATA_DIR={data_dir}", "-s", "DOWNLOAD_DELAY=0",
            "-s", "CONCURRENT_REQUESTS=32", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=8",
            "-s", "DOWNLOAD_TIMEOUT=5", "-s", "RETRY_TIMES=0", "-s", "LOG_LEVEL=INFO",
            "-s", f"SEARCH_INDEX_ENABLED={index}",
        ]
        started = time.perf_counter()
        proc = subprocess.run(cmd, env=env, cwd=data_dir, capture_output=True, text=True)
        seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"crawl failed:\n{proc.stderr[-4000:]}")
    return seconds, proc.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-url", default=os.environ.get("CRAWLER_TEST_DATABASE_URL"),
                        help="PostgreSQL server where a bench database is created")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument("--latency-rounds", type=int, default=5)
    parser.add_argument("--compare-crawl", action="store_true",
                        help="also crawl once without the search pipeline (crawl rate cost)")
    parser.add_argument("--work-dir", help="keep crawl data here (default: a temporary folder)")
    parser.add_argument("--reuse", metavar="DATABASE",
                        help="skip the crawl: use this kept database and --work-dir")
    parser.add_argument("--search-only", action="store_true",
                        help="with --reuse: skip PageRank and reindexing too, search the "
                             "index in --work-dir (a change of ranking code only)")
    args = parser.parse_args()
    if not args.server_url:
        raise SystemExit("set CRAWLER_TEST_DATABASE_URL or --server-url")

    if args.reuse and not args.work_dir:
        raise SystemExit("--reuse needs --work-dir")
    name = args.reuse or f"crawler_bench_search_{uuid.uuid4().hex[:8]}"
    if not args.reuse:
        with psycopg.connect(args.server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    database_url = psycopg.conninfo.make_conninfo(args.server_url, dbname=name)
    CrawlDatabase(url=database_url).prepare()
    try:
        if args.work_dir:
            Path(args.work_dir).mkdir(parents=True, exist_ok=True)
            return run(database_url, Path(args.work_dir), args)
        with tempfile.TemporaryDirectory(prefix="bench-search-") as tmp:
            return run(database_url, Path(tmp), args)
    finally:
        if not (args.keep or args.reuse):
            with psycopg.connect(args.server_url, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(name)))
        else:
            print(f"kept database {name}")


def run(database_url: str, tmp: Path, args: argparse.Namespace) -> int:
    print(f"search benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    if args.compare_crawl:
        plain_dir = tmp / "plain"
        plain_dir.mkdir()
        seconds, _ = crawl(database_url, plain_dir, "bench-plain", index=False)
        with psycopg.connect(database_url) as conn:
            pages = conn.execute(
                "SELECT count(*) FROM pages WHERE crawl_id = 'bench-plain'").fetchone()[0]
        print(f"crawl without the search pipeline: {pages} pages in {seconds:.1f} s "
              f"({pages / seconds:.1f} pages/s)")
    data_dir = tmp / "crawl"
    crawl_id = "bench-search"
    seconds = 0.0
    if not args.reuse:
        data_dir.mkdir()
        seconds, _ = crawl(database_url, data_dir, crawl_id, index=True)
    index_dir = data_dir / "index"
    with psycopg.connect(database_url, autocommit=True) as conn:
        if args.search_only:
            print("search only: the index in", index_dir)
        else:
            index_pages(conn, data_dir, crawl_id, seconds)
    return evaluate_index(index_dir, args)


def index_pages(conn: psycopg.Connection, data_dir: Path, crawl_id: str,
                seconds: float) -> None:
    """Report the crawl, compute the PageRank into the index, rebuild the index."""
    index_dir = data_dir / "index"
    pages = conn.execute(
        "SELECT count(*) FROM pages WHERE crawl_id = %s", (crawl_id,)).fetchone()[0]
    hosts = conn.execute(
        "SELECT count(DISTINCT host) FROM pages WHERE crawl_id = %s", (crawl_id,)
    ).fetchone()[0]
    ix = open_index(index_dir)
    with ix.searcher() as searcher:
        indexed = searcher.doc_count()
    if seconds:
        print(f"crawl with the search pipeline: {pages} pages on {hosts} hosts in "
              f"{seconds:.1f} s ({pages / seconds:.1f} pages/s); "
              f"pages in the index at crawl end: {indexed}")
    else:
        print(f"reused crawl: {pages} pages on {hosts} hosts; indexed: {indexed}")

    started = time.perf_counter()
    graph = load_link_graph(conn, crawl_id)
    result = weighted_pagerank(len(graph.urls), graph.sources, graph.targets, graph.weights)
    store_scores(conn, crawl_id, graph.urls, result.relative)
    ranked = time.perf_counter() - started
    print(f"pagerank: {len(graph.urls)} pages, {len(graph.sources)} links between them, "
          f"{result.iterations} iterations, load+compute+store {ranked:.2f} s")
    started = time.perf_counter()
    changed = update_pagerank(ix, dict(zip(graph.urls, result.relative.tolist(),
                                           strict=True)))
    print(f"pagerank into the index: {changed} documents re-added in "
          f"{time.perf_counter() - started:.1f} s")
    ix.close()

    started = time.perf_counter()
    count = rebuild_index(index_dir, iter_page_documents(conn, crawl_id))
    seconds = time.perf_counter() - started
    print(f"reindex from PostgreSQL: {count} pages in {seconds:.1f} s "
          f"= {count / seconds:.1f} pages/s (one process)")


def evaluate_index(index_dir: Path, args: argparse.Namespace) -> int:
    ix = open_index(index_dir, create=False)
    bm25 = SearchEngine(ix, pagerank_weight=0.0)
    blend = SearchEngine(ix)  # SEARCH_PAGERANK_WEIGHT default
    mrr_bm25, p1_bm25, ranks_bm25 = evaluate(bm25)
    mrr_blend, p1_blend, ranks_blend = evaluate(blend)
    print(f"\nknown-item queries: {len(JUDGED)} (rank of the judged page; - = not in top 100)")
    print(f"{'query':28s} {'BM25F':>6s} {'blend':>6s}  page")
    for (query, url), a, b in zip(JUDGED, ranks_bm25, ranks_blend, strict=True):
        print(f"{query:28s} {a or '-':>6} {b or '-':>6}  {url}")
    print(f"BM25F alone: MRR {mrr_bm25:.3f}  P@1 {p1_bm25:.3f}")
    print(f"BM25F x PageRank blend (w={blend.pagerank_weight:g}): MRR {mrr_blend:.3f}  "
          f"P@1 {p1_blend:.3f}   target MRR >= {TARGETS['mrr_blend']}: "
          f"{'met' if mrr_blend >= TARGETS['mrr_blend'] else 'NOT met'}")

    sweep = []
    for weight in (0.1, 0.2, 0.3, 0.5, 0.75, 1.0):
        engine = SearchEngine(ix, pagerank_weight=weight)
        mrr, p1, _ = evaluate(engine)
        engine.close()
        sweep.append(f"w={weight:g}: {mrr:.3f}/{p1:.3f}")
    print("sensitivity to SEARCH_PAGERANK_WEIGHT (MRR/P@1; the default 0.5 was set before "
          "this evaluation): " + ", ".join(sweep))

    queries = [q for q, _ in JUDGED] + LATENCY_EXTRA
    blend.search("warm up")
    timings: list[float] = []
    for _ in range(args.latency_rounds):
        for query in queries:
            started = time.perf_counter()
            blend.search(query, per_page=10)  # ranking, 10 snippets, suggestion
            timings.append((time.perf_counter() - started) * 1000)
    p50, p95 = percentile(timings, 50), percentile(timings, 95)
    print(f"\nquery latency over {blend.doc_count()} indexed pages, {len(timings)} searches "
          f"({len(queries)} queries x {args.latency_rounds}), 10 results with snippets: "
          f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {max(timings):.1f} ms, "
          f"mean {statistics.mean(timings):.1f} ms   target p95 < "
          f"{TARGETS['latency_p95_ms']:g} ms: "
          f"{'met' if p95 < TARGETS['latency_p95_ms'] else 'NOT met'}")
    bm25.close()
    blend.close()
    ix.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
