"""The offline demo (README quick start): crawl the sandbox web into the embedded database.

Starts the sandbox web on 127.0.0.1, runs ``scrapy crawl general`` through it as a proxy
with the embedded PostgreSQL under ``.crawl/``, then prints what was stored and the next
three commands to try on it (search, serve, report), ready to paste.

Everything under the data folder is the demo's own: a search index left there by an older
version of the project (another schema) is rebuilt from the demo's database before the
crawl, where a user's crawl stops with an error asking for `scrapy reindex`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from scrapy.settings import Settings
from whoosh import index as whoosh_index

from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web
from crawler.sandbox.run import sandbox_env
from crawler.search.engine import SearchEngine
from crawler.search.index import INDEX_NAME, SearchIndexError, open_index, rebuild_index
from crawler.search.source import iter_page_documents
from crawler.storage.database import ENV_DATABASE_URL, CrawlDatabase, EmbeddedPostgres

#: Queries the next-steps search is picked from: the first with results in the demo's
#: index (the Debian documentation when installed, else a synthetic site's topic).
NEXT_QUERIES = ("python json", "java", "recipe")
EXPECTED_ERRORS = (
    "demo: the sandbox web has deliberately faulty pages (server errors, dropped "
    "connections, slow pages, a calendar trap, robots.txt rules): log lines about them "
    "below are expected; the summary counts them under 'not crawled'"
)


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


def rebuild_outdated_index(db: CrawlDatabase, path: Path) -> int | None:
    """Rebuild the index in ``path`` from every crawl in ``db`` when it was built with
    another schema; the number of pages indexed, None when the index is missing or
    current."""
    if not whoosh_index.exists_in(str(path), indexname=INDEX_NAME):
        return None
    try:
        open_index(path, create=False).close()
    except SearchIndexError:
        print(f"demo: the search index in {path} was built with another schema (an older "
              f"version); rebuilding the demo's index from {db.display_url}", flush=True)
    else:
        return None
    with db.connect(autocommit=True) as conn:
        count = rebuild_index(path, iter_page_documents(conn, None))
    print(f"demo: search index {path} rebuilt: {count} pages", flush=True)
    return count


def searchable_query(index_dir: Path) -> str:
    """The first of NEXT_QUERIES with results in the index (the last one otherwise)."""
    try:
        ix = open_index(index_dir, create=False)
    except SearchIndexError:
        return NEXT_QUERIES[-1]
    engine = SearchEngine.from_settings(Settings(), ix)
    try:
        for query in NEXT_QUERIES:
            if engine.search(query, per_page=1).total:
                return query
        return NEXT_QUERIES[-1]
    finally:
        engine.close()
        ix.close()


def next_steps(data_dir: str, crawl_id: str, query: str) -> str:
    """The commands to try on the demo's data, ready to paste in the current folder."""
    scrapy = Path(sys.executable).with_name("scrapy")
    if scrapy.is_file():
        program = [os.path.relpath(scrapy) if scrapy.is_relative_to(Path.cwd()) else str(scrapy)]
    else:
        program = [sys.executable, "-m", "scrapy"]
    # the demo's data: its embedded database and index, whatever the environment says
    env = f"{ENV_DATABASE_URL}= " if os.environ.get(ENV_DATABASE_URL) else ""
    data = [] if Path(data_dir) == Path(".crawl") else ["-s", f"CRAWLER_DATA_DIR={data_dir}"]

    def command(*words: str) -> str:
        return env + shlex.join([*program, *words, *data])

    return "\n".join([
        "next: search, browse and report on the demo's data (paste these here):",
        f"  {command('search', query)}",
        f"  {command('serve')}    # then open http://127.0.0.1:8080/ (Ctrl-C stops it)",
        f"  {command('report', '--crawl-id', crawl_id)}",
    ])


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
    # the crawl below always uses the embedded database (CRAWLER_DATABASE_URL is removed
    # from its environment): so does the summary, whatever the environment says
    db = CrawlDatabase(url="", embedded=EmbeddedPostgres(Path(args.data_dir) / "pgdata"))
    db.prepare()  # keeps the embedded server up for the summary after the crawl
    try:
        index_dir = Path(args.data_dir) / "index"
        rebuild_outdated_index(db, index_dir)
        with SandboxServer(web) as server:
            print(f"sandbox web on {server.proxy_url}: {len(web.hosts)} hosts, "
                  f"{len(seeds)} seeds", flush=True)
            print(EXPECTED_ERRORS, flush=True)
            env = sandbox_env(server.proxy_url)
            env.pop(ENV_DATABASE_URL, None)
            cmd = [
                sys.executable, "-m", "scrapy", "crawl", "general",
                "-a", f"seed_urls={','.join(seeds)}", "-a", f"crawl_id={crawl_id}",
                # the documentation corpora link to real sites: stay on the sandbox hosts
                "-a", "allowed_domains=test",
                "-s", f"CRAWLER_DATA_DIR={args.data_dir}", "-s", f"SEARCH_INDEX_DIR={index_dir}",
                # the sandbox is on this machine: no politeness delay needed here
                "-s", "DOWNLOAD_DELAY=0", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=4",
                "-s", f"CLOSESPIDER_PAGECOUNT={args.max_pages}",
                # the next steps search the index: index every page before the crawl exits
                "-s", "SEARCH_INDEX_CLOSE_TIMEOUT=-1",
                "-s", "LOG_LEVEL=WARNING",
            ]
            code = subprocess.call(cmd, env=env, cwd=Path.cwd())
        print(summary(db, crawl_id))
        print(next_steps(args.data_dir, crawl_id, searchable_query(index_dir)))
        return code
    finally:
        db.close()


if __name__ == "__main__":
    sys.exit(main())
