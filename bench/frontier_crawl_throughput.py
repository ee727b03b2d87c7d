"""Crawl throughput of `general` with BestFirstScheduler vs Scrapy's default scheduler
(prints numbers).

Both crawl the same sandbox web (the synthetic web without its faults, plus the Debian
documentation sites that are installed on this machine) through the same sandbox server,
in the same run, alternating, ``--rounds`` times each; the project's settings except
DOWNLOAD_DELAY=0 (the sandbox is local), a per-host concurrency of 8 and no search
indexing; links out of the sandbox's ``.test`` hosts are not followed
(``-a allowed_domains=test``). Pages/s = responses received /
the crawl's elapsed time (Scrapy's ``elapsed_time_seconds``, engine start to close).

Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/frontier_crawl_throughput.py'

Target (issue 3): BestFirstScheduler >= 0.9x Scrapy's default scheduler's pages/s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web  # noqa: E402

TARGET = 0.9
SCHEDULERS = {
    "BestFirstScheduler": "crawler.schedulers.best_first.BestFirstScheduler",
    "Scrapy default": "scrapy.core.scheduler.Scheduler",
}
SETTINGS = {
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DEPTH_LIMIT": 0,
    # not the frontier's business, and the same for both: left out so that the numbers
    # show the scheduler's cost rather than Whoosh's
    "SEARCH_INDEX_ENABLED": False,
    "LOG_LEVEL": "WARNING",
}


def crawl(server, seeds, database_url, workdir: Path, scheduler: str) -> dict:
    crawl_id = f"speed-{uuid.uuid4().hex[:8]}"
    settings = {**SETTINGS, "SCHEDULER": SCHEDULERS[scheduler],
                "CRAWLER_DATA_DIR": str(workdir / crawl_id)}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "general",
           "-a", "seed_urls=" + ",".join(seeds), "-a", f"crawl_id={crawl_id}",
           "-a", "allowed_domains=test"]  # the docs' links to the real web are not followed
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings", "PYTHONPATH": str(ROOT),
           "CRAWLER_DATABASE_URL": database_url, "http_proxy": server.proxy_url,
           "https_proxy": server.proxy_url}
    proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{scheduler}: crawl failed\n{proc.stderr[-3000:]}")
    with psycopg.connect(database_url) as conn:
        stats = conn.execute("SELECT stats FROM crawls WHERE id = %s", (crawl_id,)).fetchone()[0]
        pages = conn.execute("SELECT count(*) FROM pages WHERE crawl_id = %s",
                             (crawl_id,)).fetchone()[0]
    if isinstance(stats, str):
        stats = json.loads(stats)
    responses = stats.get("response_received_count", 0)
    elapsed = stats["elapsed_time_seconds"]
    return {"responses": responses, "pages": pages, "elapsed": elapsed,
            "rate": responses / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    # no faults: its host with a 5xx robots.txt holds requests for ROBOTSTXT_RETRY_INTERVAL
    web = build_synthetic_web(7, trap=False, faults=False)
    seeds = list(web.seeds) + add_debian_docs(web)
    print(f"sandbox: synthetic web + {len(seeds) - len(web.seeds)} documentation sites; "
          f"{os.cpu_count()} CPUs; settings: "
          + ", ".join(f"{k}={v}" for k, v in SETTINGS.items() if k != "LOG_LEVEL")
          + " (others: crawler/settings.py)")
    name = f"crawler_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    rates: dict[str, list[float]] = {s: [] for s in SCHEDULERS}
    server = SandboxServer(web).start()
    try:
        with tempfile.TemporaryDirectory(prefix="frontier-speed-") as tmp:
            for round_ in range(1, args.rounds + 1):
                order = list(SCHEDULERS) if round_ % 2 else list(reversed(SCHEDULERS))
                for scheduler in order:
                    r = crawl(server, seeds, url, Path(tmp), scheduler)
                    rates[scheduler].append(r["rate"])
                    print(f"  round {round_} {scheduler:<20} {r['responses']:>6} responses "
                          f"({r['pages']} pages stored) in {r['elapsed']:6.1f} s: "
                          f"{r['rate']:6.1f} pages/s", flush=True)
    finally:
        server.stop()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
    medians = {s: statistics.median(v) for s, v in rates.items()}
    for scheduler, median in medians.items():
        print(f"{scheduler:<20} median {median:6.1f} pages/s")
    ratio = medians["BestFirstScheduler"] / medians["Scrapy default"]
    print(f"BestFirstScheduler / Scrapy default: {ratio:.2f}x   target >= {TARGET}x: "
          f"{'met' if ratio >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
