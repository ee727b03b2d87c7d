"""The offline demo (README quick start): crawl the sandbox web into the embedded database.

Starts the sandbox web on 127.0.0.1, runs ``scrapy crawl general`` through it as a proxy
with the embedded PostgreSQL under ``.crawl/``, then prints what was stored.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web
from crawler.storage.database import CrawlDatabase


def summary(db: CrawlDatabase, crawl_id: str) -> str:
    lines: list[str] = []
    with db.connect() as conn:
        crawl = conn.execute(
            "SELECT spider, started_at, finished_at, finish_reason FROM crawls WHERE id = %s",
            (crawl_id,),
        ).fetchone()
        if crawl is None:
            return f"crawl {crawl_id} stored nothing"
        pages = conn.execute(
            "SELECT count(*), count(DISTINCT host), coalesce(sum(size), 0) FROM pages "
            "WHERE crawl_id = %s", (crawl_id,),
        ).fetchone()
        links = conn.execute(
            "SELECT count(*) FROM links WHERE crawl_id = %s", (crawl_id,)
        ).fetchone()
        seconds = (crawl[2] - crawl[1]).total_seconds() if crawl[2] else 0.0
        lines.append(f"crawl {crawl_id} ({crawl[0]}): {crawl[3]} after {seconds:.1f} s")
        lines.append(
            f"pages stored: {pages[0]} on {pages[1]} hosts, {pages[2] / 1e6:.1f} MB; "
            f"links stored: {links[0]}"
        )
        if seconds:
            lines.append(f"crawl rate: {pages[0] / seconds:.1f} pages/s")
        lines.append("pages per host:")
        for host, count in conn.execute(
            "SELECT host, count(*) FROM pages WHERE crawl_id = %s GROUP BY host "
            "ORDER BY count(*) DESC, host", (crawl_id,),
        ):
            lines.append(f"  {count:6d}  {host}")
        lines.append("not crawled, by category:")
        rows = conn.execute(
            "SELECT category, count(*) FROM uncrawled WHERE crawl_id = %s GROUP BY category "
            "ORDER BY count(*) DESC, category", (crawl_id,),
        ).fetchall()
        for category, count in rows or [("(none)", 0)]:
            lines.append(f"  {count:6d}  {category}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", default=".crawl", help="crawl state folder")
    parser.add_argument("--no-docs", action="store_true", help="synthetic sites only")
    parser.add_argument("--max-pages", type=int, default=3000, help="stop after N pages")
    args = parser.parse_args(argv)

    web = build_synthetic_web()
    seeds = list(web.seeds)
    if not args.no_docs:
        seeds += add_debian_docs(web)
    crawl_id = f"demo-{time.strftime('%Y%m%d-%H%M%S')}"
    db = CrawlDatabase.from_settings({"CRAWLER_DATA_DIR": args.data_dir})
    db.prepare()  # keeps the embedded server up for the summary after the crawl
    try:
        with SandboxServer(web) as server:
            print(f"sandbox web on {server.proxy_url}: {len(web.hosts)} hosts, "
                  f"{len(seeds)} seeds", flush=True)
            env = {k: v for k, v in os.environ.items() if k != "CRAWLER_DATABASE_URL"}
            env.update(http_proxy=server.proxy_url, https_proxy=server.proxy_url,
                       SCRAPY_SETTINGS_MODULE="crawler.settings")
            cmd = [
                sys.executable, "-m", "scrapy", "crawl", "general",
                "-a", f"seed_urls={','.join(seeds)}", "-a", f"crawl_id={crawl_id}",
                # the documentation corpora link to real sites: stay on the sandbox hosts
                "-a", "allowed_domains=test",
                "-s", f"CRAWLER_DATA_DIR={args.data_dir}",
                # the sandbox is on this machine: no politeness delay needed here
                "-s", "DOWNLOAD_DELAY=0", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=4",
                "-s", f"CLOSESPIDER_PAGECOUNT={args.max_pages}",
                "-s", "LOG_LEVEL=WARNING",
            ]
            code = subprocess.call(cmd, env=env, cwd=Path.cwd())
        print(summary(db, crawl_id))
        return code
    finally:
        db.close()


if __name__ == "__main__":
    sys.exit(main())
