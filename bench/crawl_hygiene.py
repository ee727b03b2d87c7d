"""Crawl hygiene on the sandbox (prints numbers): URL-parameter rules, the copy kept
among duplicates, dead hosts and robots verdicts kept across a resume.

Each scenario crawls a web of crawler/sandbox/hygiene.py twice in the same run, with the
feature on and off, through the same sandbox server, and counts requests in the
server's log and rows in PostgreSQL:

1. parameter explosion (20 galleries x 48 views) + paging site (8 pages):
   URLRULES_ENABLED on / off. Target (issue 16): <= 3 requests per gallery path, no
   gallery and no list page lost.
2. a mirror reached first (CONCURRENT_REQUESTS=1): DEDUP_KEEP_AUTHORITATIVE on / off.
   Target: the original site stored, every mirror page a duplicate of it.
3. dead hosts (a dropped connection, a 502 gateway, a refused CONNECT), crawled then
   resumed with a new seed: ROBOTSTXT_SHARE_VERDICTS on / off, and with
   ``--baseline-root DIR`` the code of another checkout (e.g. /work/main, before this
   change) on the same web. Target: one request per dead host, none after the resume.

Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/crawl_hygiene.py'
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import uuid
from collections import Counter
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.sandbox import SandboxServer  # noqa: E402
from crawler.sandbox.hygiene import (  # noqa: E402
    BAD_GATEWAY_HOST,
    DROPPED_HOST,
    GALLERY_HOST,
    MIRROR_HOST,
    ORIGINAL_HOST,
    PAGING_HOST,
    TUNNEL_HOST,
    dead_hosts_web,
    mirror_web,
    parameter_web,
)

SETTINGS = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
            "SEARCH_INDEX_ENABLED": False, "LOG_LEVEL": "WARNING"}


def load() -> str:
    """The 1, 5 and 15 minute load averages (the machine is shared: read numbers with it)."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def crawl(server, database_url: str, workdir: Path, seeds: str, settings: dict,
          crawl_id: str | None = None, root: Path = ROOT) -> tuple[str, dict]:
    crawl_id = crawl_id or f"hygiene-{uuid.uuid4().hex[:8]}"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "general", "-a", f"seed_urls={seeds}",
           "-a", f"crawl_id={crawl_id}"]
    for key, value in {**SETTINGS, "CRAWLER_DATA_DIR": str(workdir / crawl_id),
                       **settings}.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings", "PYTHONPATH": str(root),
           "CRAWLER_DATABASE_URL": database_url, "http_proxy": server.proxy_url,
           "https_proxy": server.proxy_url}
    proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"crawl failed\n{proc.stderr[-3000:]}")
    with psycopg.connect(database_url) as conn:
        stats = conn.execute("SELECT stats FROM crawls WHERE id = %s", (crawl_id,)).fetchone()[0]
    return crawl_id, json.loads(stats) if isinstance(stats, str) else stats


def pages_of(database_url: str, crawl_id: str, host: str) -> int:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT count(*) FROM pages WHERE crawl_id = %s AND host = %s",
                            (crawl_id, host)).fetchone()[0]


def parameters(url: str, tmp: Path) -> None:
    print(f"1. parameter explosion + paging (load average {load()})")
    for enabled in (True, False):
        server = SandboxServer(parameter_web()).start()
        try:
            crawl_id, stats = crawl(server, url, tmp, f"http://{GALLERY_HOST}/,"
                                    f"http://{PAGING_HOST}/", {"URLRULES_ENABLED": enabled})
            per_path = Counter(r.path for r in server.requests_for(GALLERY_HOST)
                               if r.path.startswith("/gallery/"))
            lists = pages_of(url, crawl_id, PAGING_HOST) - 1
            print(f"   URLRULES_ENABLED={enabled!s:<5}: {sum(per_path.values()):4d} gallery "
                  f"requests for {len(per_path)} galleries (max {max(per_path.values())} per "
                  f"path), {pages_of(url, crawl_id, GALLERY_HOST) - 1} galleries stored, "
                  f"{lists} of 8 list pages stored, {stats['elapsed_time_seconds']:.1f} s, "
                  f"load {load()}", flush=True)
        finally:
            server.stop()


def authority(url: str, tmp: Path) -> None:
    print(f"2. mirror reached first (load average {load()})")
    for enabled in (True, False):
        server = SandboxServer(mirror_web()).start()
        try:
            crawl_id, stats = crawl(server, url, tmp, f"http://{MIRROR_HOST}/,http://portal.test/",
                                    {"DEDUP_KEEP_AUTHORITATIVE": enabled,
                                     "CONCURRENT_REQUESTS": 1})
            print(f"   DEDUP_KEEP_AUTHORITATIVE={enabled!s:<5}: "
                  f"{pages_of(url, crawl_id, ORIGINAL_HOST)} original pages stored, "
                  f"{pages_of(url, crawl_id, MIRROR_HOST)} mirror pages stored, "
                  f"{stats.get('dedup/authority_replaced', 0)} copies replaced, "
                  f"{stats['elapsed_time_seconds']:.1f} s, load {load()}", flush=True)
        finally:
            server.stop()


def dead_hosts(url: str, tmp: Path, baseline: Path | None, baseline_url: str) -> None:
    print(f"3. dead hosts, crawled then resumed (load average {load()})")
    dead = (DROPPED_HOST, BAD_GATEWAY_HOST, f"{TUNNEL_HOST}:443", f"{DROPPED_HOST}:443")
    runs: list[tuple[str, Path, dict, str]] = [
        (f"ROBOTSTXT_SHARE_VERDICTS={shared!s:<5}", ROOT,
         {"ROBOTSTXT_SHARE_VERDICTS": shared, "RETRY_TIMES": 1}, url)
        for shared in (True, False)]
    if baseline is not None:  # its own database: an older schema
        runs.append((f"code of {baseline}", baseline, {"RETRY_TIMES": 1}, baseline_url))
    for label, root, settings, url in runs:
        server = SandboxServer(dead_hosts_web()).start()
        try:
            crawl_id, stats = crawl(server, url, tmp, "http://portal.test/", settings,
                                    root=root)
            first = Counter(r.host for r in server.requests_for() if r.host in dead)
            robots = stats.get("robotstxt/request_count", 0)
            server.clear_log()
            _, again = crawl(server, url, tmp, "http://portal.test/again.html", settings,
                             crawl_id, root=root)
            second = Counter(r.host for r in server.requests_for() if r.host in dead)
            print(f"   {label}: first crawl {sum(first.values())} "
                  f"requests to 3 dead hosts ({dict(first)}), {stats.get('dead_host/refused')} "
                  f"URLs refused without a request, {robots} robots.txt requests; resumed: "
                  f"{sum(second.values())} requests to dead hosts, "
                  f"{again.get('robotstxt/request_count', 0)} robots.txt requests; "
                  f"load {load()}", flush=True)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline-root", type=Path, default=None,
                        help="another checkout whose code also crawls the dead hosts")
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    names = [f"crawler_bench_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with psycopg.connect(admin, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url, baseline_url = (psycopg.conninfo.make_conninfo(admin, dbname=name) for name in names)
    try:
        with tempfile.TemporaryDirectory(prefix="hygiene-") as tmp:
            parameters(url, Path(tmp))
            authority(url, Path(tmp))
            dead_hosts(url, Path(tmp), args.baseline_root, baseline_url)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            for name in names:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(name)))


if __name__ == "__main__":
    main()
