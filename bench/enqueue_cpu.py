"""CPU time per ``BestFirstScheduler.enqueue_request`` call, and per link request built.

A real ``BestFirstScheduler`` is opened on a real crawler of the ``general`` spider with
its PostgreSQL store (a database created for the run), then fed the link requests the
spider itself builds: pages of synthetic HTML (LINKS_PER_PAGE links each, over many
hosts, MENU_LINKS of them to the same menu URLs, so a fifth of the links are duplicates
that raise a queued URL's score) are extracted, and ``CrawlerSpider.link_request`` makes
a request of each link, with the page's link counts known as in ``parse``.

Two CPU figures (``time.process_time``, steady under load unlike wall-clock rates):

- build: µs per ``spider.link_request(link, response)`` (the link event the spider puts
  in ``meta["link"]``);
- enqueue: µs per ``scheduler.enqueue_request(request)``.

The scheduler's background writes run between chunks, outside the timed calls. Run it
inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/enqueue_cpu.py --pages 4000 --rounds 5'
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HOSTS = 2_000
LINKS_PER_PAGE = 40
MENU_LINKS = 10


def make_crawler(database_url: str, crawl_id: str):
    from scrapy.crawler import Crawler
    from scrapy.settings import Settings

    from crawler import settings as project_settings
    from crawler.spiders.general import GeneralSpider

    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    settings.set("CRAWLER_DATABASE_URL", database_url)
    settings.set("DOWNLOAD_DELAY", 0)
    # no age eviction: its scans of the queue would compete for the CPU with the timed calls
    settings.set("FRONTIER_MAX_WAIT", 0)
    settings.set("LOG_LEVEL", "WARNING")
    crawler = Crawler(GeneralSpider, settings)
    crawler._apply_settings()
    crawler.spider = crawler._create_spider(seed_urls="http://h0.test/", crawl_id=crawl_id)
    crawler.engine = crawler._create_engine()
    return crawler


def page_html(page: int) -> bytes:
    """A page with LINKS_PER_PAGE links: MENU_LINKS to its site's menu (the same URLs
    on every page of the site), the others to articles found nowhere else."""
    host = f"h{page % HOSTS}.test"
    links = [
        f'<li><a href="http://{host}/menu/{m}.html">Menu {m}</a></li>' for m in range(MENU_LINKS)
    ]
    for j in range(LINKS_PER_PAGE - MENU_LINKS):
        n = page * LINKS_PER_PAGE + j
        target = f"h{(page * 7 + j) % HOSTS}.test"
        links.append(
            f'<p>See <a href="http://{target}/section-{n % 97}/article-{n}.html">'
            f"article {n} about things</a> here.</p>"
        )
    body = "\n".join(links)
    return (
        f"<html><head><title>Page {page}</title></head><body><h1>Page {page}</h1>"
        f"{body}</body></html>"
    ).encode()


def page_links(spider, page: int):
    """(response, its LinkRecords) of one page, the page's link counts registered with
    the spider as ``parse`` does before it builds the link requests."""
    from scrapy import Request
    from scrapy.http import HtmlResponse

    from crawler.extract import extract_page
    from crawler.frontier.scores import page_link_kinds
    from crawler.items import LinkRecord

    url = f"http://h{page % HOSTS}.test/page-{page}.html"
    request = Request(url, meta={"depth": 1 + page % 5, "frontier": {"cash": 0.01}})
    response = HtmlResponse(url, body=page_html(page), encoding="utf-8", request=request)
    extracted = extract_page(response.body, url, encoding="utf-8")
    links = [
        LinkRecord(ln.url, ln.anchor_text, ln.visibility, ln.position, ln.distance)
        for ln in extracted.links
    ]
    spider.__dict__.setdefault("_page_link_kinds", {})[id(response)] = page_link_kinds(
        url, [ln.target_url for ln in links]
    )
    return response, links


async def run(database_url: str, pages: int, rounds: int, chunk: int) -> list[dict[str, float]]:
    from crawler.schedulers.best_first import BestFirstScheduler
    from crawler.storage.schema import migrate

    crawl_id = f"bench-enqueue-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        migrate(conn)
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))
    crawler = make_crawler(database_url, crawl_id)
    spider = crawler.spider
    scheduler = BestFirstScheduler.from_crawler(crawler)
    await scheduler._open(spider)
    frontier = scheduler.frontier
    results = []
    page = 0
    for _ in range(rounds):
        build = enqueue = 0.0
        calls = added = 0
        chunks = []
        for _ in range(0, pages, chunk):
            prepared = [page_links(spider, p) for p in range(page, page + chunk)]
            page += chunk
            gc.collect()
            t = time.process_time()
            requests = [
                spider.link_request(link, response)
                for response, links in prepared
                for link in links
            ]
            build += time.process_time() - t
            t = time.process_time()
            for request in requests:
                added += scheduler.enqueue_request(request)
            spent = time.process_time() - t
            enqueue += spent
            chunks.append(spent / len(requests) * 1e6)
            calls += len(requests)
            for response, _ in prepared:
                spider._page_link_kinds.pop(id(response), None)
            del prepared, requests
            # let the background writer catch up, outside the timed calls
            while frontier.unwritten > frontier.batch_size:
                scheduler._wake.set()
                await asyncio.sleep(0.005)
            await asyncio.sleep(0)
        results.append(
            {
                "calls": calls,
                "added": added,
                "build_us": build / calls * 1e6,
                "enqueue_us": enqueue / calls * 1e6,
                "chunks": chunks,
            }
        )
        r = results[-1]
        print(
            f"  round: {calls:,} enqueue_request calls ({added:,} new URLs): "
            f"enqueue {r['enqueue_us']:.2f} µs/call, link_request {r['build_us']:.2f} µs/call"
            f"   load {open('/proc/loadavg').read().split()[0]}",
            flush=True,
        )
    await scheduler._close("finished")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=4000, help="pages per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=250, help="pages per timed chunk")
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    loop = asyncio.get_event_loop()
    name = f"crawler_bench_enqueue_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    print(
        f"enqueue CPU: {args.rounds} rounds of {args.pages:,} pages x {LINKS_PER_PAGE} links "
        f"({MENU_LINKS} menu links per page); load {open('/proc/loadavg').read().strip()}"
    )
    try:
        results = loop.run_until_complete(run(url, args.pages, args.rounds, args.chunk))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
    enqueue = [r["enqueue_us"] for r in results]
    chunks = [c for r in results for c in r["chunks"]]
    build = [r["build_us"] for r in results]
    # the least disturbed chunks: other processes on the same cores slow a chunk down,
    # never speed it up
    print(
        f"enqueue_request per chunk of {args.chunk} pages: min {min(chunks):.2f}, "
        f"10th percentile {statistics.quantiles(chunks, n=10)[0]:.2f}, "
        f"median {statistics.median(chunks):.2f} µs/call ({len(chunks)} chunks)"
    )
    print(
        f"enqueue_request: median {statistics.median(enqueue):.2f} µs/call "
        f"(min {min(enqueue):.2f}); link_request: median {statistics.median(build):.2f} "
        f"µs/call (min {min(build):.2f}); load {open('/proc/loadavg').read().strip()}"
    )


if __name__ == "__main__":
    main()
