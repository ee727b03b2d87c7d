"""Ordering quality of each frontier strategy and of Scrapy's default scheduler (prints numbers).

True PageRank is computed over the sandbox's full link graph (``web.link_graph(seeds)``,
damping 0.85, crawler.ranking.pagerank_of_graph). Then the same web is crawled, in the
same run and with the same settings, once per strategy of BestFirstScheduler and once
with Scrapy's own scheduler (``scrapy.core.scheduler.Scheduler``, its defaults: LIFO
memory queues in a DownloaderAwarePriorityQueue, RFPDupeFilter). The order of the pages
is the order of the requests in the sandbox's log; the score after k% is the share of the
total PageRank held by the pages among the first k% of the graph's pages fetched.

Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/frontier_ordering.py'

Target (issue 3): bestfirst captures >= 1.5x what Scrapy's default order captures at 10%.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.ranking.pagerank import pagerank_of_graph  # noqa: E402
from crawler.sandbox import SandboxServer, build_synthetic_web, canonical  # noqa: E402

STRATEGIES = ["bestfirst", "opic", "backlink", "interintra", "bfs", "dfs"]
SCRAPY_DEFAULT = "scrapy-default"
POINTS = (0.10, 0.25, 0.50)
TARGET = 1.5

# the same for every crawl: a few requests at a time, so that the order matters
SETTINGS = {
    "CONCURRENT_REQUESTS": 2,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
    "DOWNLOAD_DELAY": 0,
    "DEPTH_LIMIT": 0,
    "ROBOTSTXT_OBEY": True,
    "LOG_LEVEL": "WARNING",
    "SEARCH_INDEX_ENABLED": False,
    "STORE_FLUSH_INTERVAL": 0.5,
}


def crawl(server: SandboxServer, seeds: list[str], database_url: str, workdir: Path,
          scheduler: str) -> tuple[list[str], float]:
    """Crawl the sandbox; the canonical URLs requested (robots.txt excluded), in order."""
    before = len(server.log)
    settings = dict(SETTINGS)
    if scheduler == SCRAPY_DEFAULT:
        settings["SCHEDULER"] = "scrapy.core.scheduler.Scheduler"
    else:
        settings["FRONTIER_STRATEGY"] = scheduler
    cmd = [sys.executable, "-m", "scrapy", "crawl", "general",
           "-a", "seed_urls=" + ",".join(seeds), "-a", f"crawl_id=order-{uuid.uuid4().hex[:8]}"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    cmd += ["-s", f"CRAWLER_DATA_DIR={workdir / scheduler}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings", "PYTHONPATH": str(ROOT),
           "CRAWLER_DATABASE_URL": database_url, "http_proxy": server.proxy_url,
           "https_proxy": server.proxy_url}
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if proc.returncode != 0:
        raise SystemExit(f"{scheduler}: crawl failed\n{proc.stderr[-3000:]}")
    urls = [canonical(f"http://{r.host}{r.path}" + (f"?{r.query}" if r.query else ""))
            for r in server.log[before:] if r.path != "/robots.txt"]
    return urls, elapsed


def captured(order: list[str], rank: dict[str, float], points=POINTS) -> list[float]:
    """Share of the total PageRank among the first k% of the graph's pages fetched."""
    pages = [u for u in dict.fromkeys(order) if u in rank]
    out = []
    for share in points:
        k = max(1, round(share * len(rank)))
        out.append(sum(rank[u] for u in pages[:k]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7, help="synthetic web seed")
    parser.add_argument("--portal", action="store_true",
                        help="start from the portal page instead of the 7 site home pages")
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    web = build_synthetic_web(args.seed, trap=False)
    seeds = [web.portal] if args.portal else list(web.seeds)
    graph = web.link_graph(seeds)
    raw = pagerank_of_graph(graph)
    total = sum(raw.values())
    rank = {u: v / total for u, v in raw.items()}
    print(f"sandbox web (seed {args.seed}): {len(graph)} HTML pages, "
          f"{sum(len(v) for v in graph.values())} links; seeds: "
          f"{'the portal' if args.portal else f'{len(seeds)} site home pages'}")
    print("settings: " + ", ".join(f"{k}={v}" for k, v in SETTINGS.items()
                                   if k not in ("LOG_LEVEL",)))
    name = f"crawler_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    results: dict[str, list[float]] = {}
    server = SandboxServer(web).start()
    try:
        with tempfile.TemporaryDirectory(prefix="frontier-order-") as tmp:
            for scheduler in [SCRAPY_DEFAULT, *STRATEGIES]:
                order, elapsed = crawl(server, seeds, url, Path(tmp), scheduler)
                results[scheduler] = captured(order, rank)
                fetched = len([u for u in dict.fromkeys(order) if u in rank])
                print(f"  crawled with {scheduler}: {len(order)} requests, {fetched} of the "
                      f"graph's pages, {elapsed:.1f} s", flush=True)
    finally:
        server.stop()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
    header = "".join(f"{f'after {int(p * 100)}%':>12}" for p in POINTS)
    print(f"\nshare of the total PageRank fetched{' ' * 4}{header}   vs Scrapy default at 10%")
    base = results[SCRAPY_DEFAULT][0]
    for scheduler, values in results.items():
        cells = "".join(f"{v:12.3f}" for v in values)
        print(f"  {scheduler:<36}{cells}   {values[0] / base:.2f}x")
    ratio = results["bestfirst"][0] / base
    print(f"\nbestfirst / Scrapy default at 10%: {ratio:.2f}x   target >= {TARGET}x: "
          f"{'met' if ratio >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
