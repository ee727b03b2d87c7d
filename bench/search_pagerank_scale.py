"""PageRank at scale: `scrapy pagerank` over 1M pages and 20M links in PostgreSQL.

Generates a synthetic crawl inside a fresh database (server-side generate_series: pages
on 1,000 hosts, links with random visibility/position/distance attributes, most targets
drawn from a skewed distribution so some pages are popular, 5% of the links to URLs that
were never fetched), then runs the real command (`scrapy pagerank --no-index`) as a
subprocess and reports its wall time and peak memory (max RSS of the child process).

    unshare -n sh -c 'ip link set lo up && \
      CRAWLER_TEST_DATABASE_URL="postgresql:///postgres?host=/var/run/postgresql&user=postgres" \
      .venv/bin/python bench/search_pagerank_scale.py'
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from crawler.storage.database import CrawlDatabase  # noqa: E402

TARGETS = {"seconds": 300.0, "max_rss_gb": 4.0}


def generate(conn: psycopg.Connection, pages: int, per_page: int) -> tuple[int, int]:
    conn.execute("INSERT INTO crawls (id, spider) VALUES ('scale', 'bench')")
    conn.execute(
        "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth,"
        " content_md5, size)"
        " SELECT 'scale', u, u, 'h' || (i %% 1000) || '.test', 200, now(), 0, 'x', 1"
        " FROM (SELECT i, 'http://h' || (i %% 1000) || '.test/p' || i AS u"
        "       FROM generate_series(0, %s - 1) AS i) AS s",
        (pages,),
    )
    # k-th link of page i: 70% to a skewed (popular-first) page, 25% uniform, 5% outside
    conn.execute(
        "INSERT INTO links (crawl_id, source_url, target_url, visibility, position, distance)"
        " SELECT 'scale', 'http://h' || (i %% 1000) || '.test/p' || i,"
        "  CASE WHEN r < 0.05 THEN 'http://gone' || (i %% 977) || '.test/x' || k"
        "       ELSE 'http://h' || (t %% 1000) || '.test/p' || t END,"
        "  1 + (i + k) %% 3, 1 + (i * 7 + k) %% 3, CASE WHEN (i + 3 * k) %% 4 = 0 THEN 5 ELSE 1 END"
        " FROM (SELECT i, k, random() AS r,"
        "        CASE WHEN random() < 0.74"
        "             THEN floor(%s * power(random(), 3))::bigint"
        "             ELSE floor(%s * random())::bigint END AS t"
        "       FROM generate_series(0, %s - 1) AS i, generate_series(0, %s - 1) AS k) AS g"
        " ON CONFLICT DO NOTHING",
        (pages, pages, pages, per_page),
    )
    conn.execute("ANALYZE pages")
    conn.execute("ANALYZE links")
    n_pages = conn.execute("SELECT count(*) FROM pages WHERE crawl_id = 'scale'").fetchone()[0]
    n_links = conn.execute("SELECT count(*) FROM links WHERE crawl_id = 'scale'").fetchone()[0]
    return n_pages, n_links


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-url", default=os.environ.get("CRAWLER_TEST_DATABASE_URL"))
    parser.add_argument("--pages", type=int, default=1_000_000)
    parser.add_argument("--links-per-page", type=int, default=21)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if not args.server_url:
        raise SystemExit("set CRAWLER_TEST_DATABASE_URL or --server-url")
    name = f"crawler_bench_pagerank_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.make_conninfo(args.server_url, dbname=name)
    try:
        CrawlDatabase(url=url).prepare()
        print(f"pagerank scale benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}, "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
        started = time.perf_counter()
        with psycopg.connect(url, autocommit=True) as conn:
            pages, links = generate(conn, args.pages, args.links_per_page)
        print(f"generated {pages} pages and {links} links in PostgreSQL in "
              f"{time.perf_counter() - started:.0f} s")
        env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings",
               "PYTHONPATH": str(PROJECT_DIR), "CRAWLER_DATABASE_URL": url}
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "scrapy", "pagerank", "--crawl-id", "scale", "--no-index",
             "--top", "5"],
            env=env, capture_output=True, text=True, cwd=PROJECT_DIR,
        )
        seconds = time.perf_counter() - started
        rss_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 / 1024
        print("--- scrapy pagerank --crawl-id scale --no-index --top 5")
        print(proc.stdout.rstrip())
        if proc.returncode != 0:
            print(proc.stderr[-3000:])
            return 1
        print("---")
        print(f"wall time {seconds:.1f} s (target < {TARGETS['seconds']:.0f} s: "
              f"{'met' if seconds < TARGETS['seconds'] else 'NOT met'}); peak memory of the "
              f"command {rss_gb:.2f} GB (target <= {TARGETS['max_rss_gb']:g} GB: "
              f"{'met' if rss_gb <= TARGETS['max_rss_gb'] else 'NOT met'})")
        return 0
    finally:
        if not args.keep:
            with psycopg.connect(args.server_url, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(name)))


if __name__ == "__main__":
    sys.exit(main())
