"""Frontier throughput and memory with 1M / 10M queued URLs (prints numbers).

Drives the real ``BestFirstScheduler`` (enqueue_request / next_request, its background
writer, PostgreSQL store) of a real Scrapy crawler object, without downloading anything:

1. enqueue: N new URLs as link requests built like ``CrawlerSpider.link_request`` builds
   them, over 10,000 hosts, plus 25% duplicate links (score updates of queued URLs).
   Requests are built in chunks outside the timed part; enqueue_request is timed with
   the background writes it causes (the enqueue loop waits whenever more than two
   batches are unwritten, so the rate is the sustained one, database included). As in a
   crawl, where Scrapy returns to the event loop after each response's output, the loop
   yields every ``--yield-every`` requests (50 by default), so that the background
   writes proceed while URLs are enqueued; 0 enqueues each chunk of 12,500 in one go,
   which leaves the database idle while the process enqueues.
2. dequeue: next_request + ack of D URLs, the buffer being refilled from the database.

RSS is the process's resident memory (VmRSS / VmHWM from /proc/self/status). CPU per new
URL is measured over the enqueue phase (request construction excluded) for this process
(``time.process_time``) and for the PostgreSQL backend of the frontier store's connection
(utime + stime of /proc/<backend pid>/stat): both steadier than the wall-clock rate on a
loaded machine. ``--profile PATH`` runs the enqueue phase under cProfile with a CPU clock
and saves the profile (the rates are then not comparable with unprofiled runs).
Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/frontier_throughput.py --urls 1000000 10000000'

Targets (issue 3): >= 20,000 enqueued URLs/s (batched); RSS <= 500 MB at 10M queued.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import sys
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ENQUEUE_TARGET = 20_000
RSS_TARGET_MB = 500
HOSTS = 10_000
CHUNK = 10_000


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size in MB."""
    values = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":")
                values[key] = int(value.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def backend_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by the process ``pid`` (a PostgreSQL backend
    on this machine)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def make_crawler(database_url: str, crawl_id: str):
    from scrapy.crawler import Crawler
    from scrapy.settings import Settings

    from crawler import settings as project_settings
    from crawler.spiders.general import GeneralSpider

    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    settings.set("CRAWLER_DATABASE_URL", database_url)
    settings.set("DOWNLOAD_DELAY", 0)
    settings.set("FRONTIER_MAX_WAIT", 0)  # the benchmark runs longer than 30 minutes
    settings.set("LOG_LEVEL", "WARNING")
    crawler = Crawler(GeneralSpider, settings)
    crawler._apply_settings()
    crawler.spider = crawler._create_spider(seed_urls="http://h0.test/", crawl_id=crawl_id)
    crawler.engine = crawler._create_engine()
    return crawler


def link_requests(spider, start: int, count: int, n_total: int):
    """Link requests as CrawlerSpider.link_request builds them (meta["link"] a LinkEvent,
    depth)."""
    import scrapy

    from crawler.frontier.links import LinkEvent

    out = []
    for i in range(start, start + count):
        host = f"h{i % HOSTS}.test"
        url = f"http://{host}/section-{i % 97}/article-{i}.html"
        source = f"http://h{(i * 7) % HOSTS}.test/"
        request = scrapy.Request(url, callback=spider.parse, errback=spider.on_error)
        request.meta["depth"] = 1 + i % 9
        request.meta["link"] = LinkEvent(
            url=url,
            source=source,
            source_depth=i % 9,
            source_cash=0.01,
            n_inter=7,
            n_intra=23,
            inter=(i % 4 == 0),
            visibility=1 + i % 3,
            position=1 + i % 3,
            distance=5 if i % 4 == 0 else 1,
            anchor=f"article {i} anchor text",
        )
        out.append(request)
    return out


async def run_one(
    database_url: str, n: int, dequeue: int, profile: cProfile.Profile | None = None,
    yield_every: int = 0,
) -> dict[str, float]:
    from crawler.schedulers.best_first import BestFirstScheduler

    crawl_id = f"bench-frontier-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        from crawler.storage.schema import migrate

        migrate(conn)
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))
    crawler = make_crawler(database_url, crawl_id)
    scheduler = BestFirstScheduler.from_crawler(crawler)
    await scheduler._open(crawler.spider)
    frontier = scheduler.frontier
    spider = crawler.spider
    rss_start, _ = rss_mb()
    store = getattr(frontier.store, "store", frontier.store)  # inside a ThreadedStore
    backend = store.conn.info.backend_pid
    gc.collect()

    build = enqueue = build_cpu = 0.0
    wall = time.perf_counter()
    cpu = time.process_time()
    backend_start = backend_cpu(backend)
    duplicates = 0
    waited = 0.0  # the enqueue loop idle, waiting for the background writes
    if profile is not None:
        profile.enable()
    for start in range(0, n, CHUNK):
        t = time.perf_counter()
        c = time.process_time()
        if profile is not None:
            profile.disable()
        requests = link_requests(spider, start, min(CHUNK, n - start), n)
        # a quarter as many links again, to URLs queued earlier: score updates
        dup = link_requests(spider, max(0, start - 5 * CHUNK), len(requests) // 4, n)
        if profile is not None:
            profile.enable()
        build_cpu += time.process_time() - c
        build += time.perf_counter() - t
        t = time.perf_counter()
        for i, request in enumerate(requests, 1):
            scheduler.enqueue_request(request)
            if yield_every and i % yield_every == 0:
                await asyncio.sleep(0)  # the end of one response's output
        if start:
            for i, request in enumerate(dup, 1):
                duplicates += not scheduler.enqueue_request(request)
                if yield_every and i % yield_every == 0:
                    await asyncio.sleep(0)
        enqueue += time.perf_counter() - t
        del requests, dup
        t = time.perf_counter()
        await asyncio.sleep(0)
        while frontier.unwritten > 2 * frontier.batch_size:
            scheduler._wake.set()
            await asyncio.sleep(0.005)
        waited += time.perf_counter() - t
        if start % 1_000_000 == 0 and start:
            print(
                f"  {start:>10,} queued, {(start) / (time.perf_counter() - wall - build):,.0f}"
                f" URLs/s, RSS {rss_mb()[0]:.0f} MB",
                flush=True,
            )
    t = time.perf_counter()
    while frontier.unwritten:
        scheduler._wake.set()
        await asyncio.sleep(0.01)
    async with scheduler._lock:  # the last write has finished
        pass
    waited += time.perf_counter() - t
    if profile is not None:
        profile.disable()
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu - build_cpu
    backend_used = backend_cpu(backend) - backend_start
    gc.collect()
    rss_queued, hwm_queued = rss_mb()
    queued = frontier.queued

    t = time.perf_counter()
    got = 0
    while got < dequeue:
        request = scheduler.next_request()
        if request is None:
            scheduler._wake.set()
            await asyncio.sleep(0.001)
            continue
        got += 1
        if got % 1000 == 0:
            await asyncio.sleep(0)  # acks and refills happen in the background
    scheduler._poll_acks()
    dequeue_time = time.perf_counter() - t
    await scheduler._close("finished")
    rss_end, hwm = rss_mb()
    with psycopg.connect(database_url) as conn:
        size = conn.execute("SELECT pg_total_relation_size('frontier')").fetchone()[0]
    return {
        "n": n,
        "queued": queued,
        "duplicates": duplicates,
        "wall": wall,
        "build": build,
        "enqueue_calls": enqueue,
        "waited": waited,
        "rate": (n + duplicates) / (wall - build),
        "new_rate": n / (wall - build),
        "dequeue": dequeue,
        "dequeue_rate": dequeue / dequeue_time,
        "rss_start": rss_start,
        "rss_queued": rss_queued,
        "hwm_queued": hwm_queued,
        "hwm": hwm,
        "table_mb": size / 2**20,
        "cpu_us": cpu / n * 1e6,
        "backend_us": backend_used / n * 1e6,
    }


async def run_core(database_url: str, n: int) -> dict[str, float]:
    """The frontier alone (crawler.frontier: Frontier + PostgresStore), fed URLs,
    fingerprints and link statistics directly, payloads pre-serialised: what the
    frontier and its store absorb without Scrapy request objects."""
    from crawler.frontier.frontier import Frontier
    from crawler.frontier.postgres_store import PostgresStore
    from crawler.frontier.scores import link_event, make_strategy
    from crawler.frontier.seen import url_fingerprint

    crawl_id = f"bench-core-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        from crawler.storage.schema import migrate

        migrate(conn)
        conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'general')", (crawl_id,))
    payload = b"\x80\x05" + b"x" * 90  # the size of a stored link request
    frontier = Frontier(
        PostgresStore(database_url, crawl_id),
        make_strategy("bestfirst"),
        serialize=lambda *_: payload,
        max_wait=0,
    )
    await frontier.open()
    event = link_event(
        depth=3,
        n_inter=7,
        n_intra=23,
        inter=False,
        visibility=1,
        position=2,
        distance=1,
        source_cash=0.01,
    )
    writing: asyncio.Task | None = None
    start = time.perf_counter()
    for i in range(n):
        url = f"http://h{i % HOSTS}.test/section-{i % 97}/article-{i}.html"
        frontier.add(
            url_fingerprint(url), url, f"h{i % HOSTS}.test", 0, event.copy(), False, None, link=True
        )
        if i % 4 == 0 and i > 50_000:  # 25% more links to URLs queued earlier
            j = i - 50_000
            old = f"http://h{j % HOSTS}.test/section-{j % 97}/article-{j}.html"
            frontier.add(
                url_fingerprint(old), old, "h.test", 0, event.copy(), False, None, link=True
            )
        if frontier.unwritten >= frontier.batch_size:
            if writing is not None:
                await writing
            writing = asyncio.ensure_future(frontier.flush())
            await asyncio.sleep(0)
    if writing is not None:
        await writing
    await frontier.flush()
    elapsed = time.perf_counter() - start
    await frontier.close()
    return {"n": n, "elapsed": elapsed, "rate": n / elapsed, "rss": rss_mb()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--urls", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--dequeue", type=int, default=100_000)
    parser.add_argument(
        "--yield-every",
        type=int,
        default=50,
        metavar="N",
        help="return to the event loop after every N enqueued requests, as Scrapy does "
        "after each response's output (one page's links); 0: only between chunks of "
        f"{CHUNK:,} (the benchmark before 2026-11-25)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument(
        "--core",
        action="store_true",
        help="measure the frontier alone (no Scrapy requests), not the scheduler",
    )
    parser.add_argument(
        "--profile",
        metavar="PATH",
        help="profile the enqueue phase (cProfile, CPU clock) into PATH",
    )
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    from scrapy.utils.reactor import install_reactor

    # Scrapy's default reactor, on whose asyncio loop the scheduler's writer runs
    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    loop = asyncio.get_event_loop()
    print(
        f"frontier throughput: {os.cpu_count()} CPUs, PostgreSQL "
        f"{psycopg.connect(admin).info.server_version}"
    )
    for n in args.urls:
        name = f"crawler_bench_{uuid.uuid4().hex[:8]}"  # one database per size
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        url = psycopg.conninfo.make_conninfo(admin, dbname=name)
        try:
            if args.core:
                print(f"\n== frontier core: {n:,} new URLs (+25% duplicate links)")
                c = loop.run_until_complete(run_core(url, n))
                print(
                    f"  {c['n']:,} new URLs in {c['elapsed']:.1f} s: {c['rate']:,.0f} URLs/s"
                    f"   target >= {ENQUEUE_TARGET:,} URLs/s: "
                    f"{'met' if c['rate'] >= ENQUEUE_TARGET else 'NOT met'}; "
                    f"RSS {c['rss']:.0f} MB",
                    flush=True,
                )
                continue
            print(f"\n== {n:,} new URLs (+25% duplicate links), then {args.dequeue:,} dequeued;"
                  f" back to the event loop every {args.yield_every or CHUNK:,} requests")
            profile = cProfile.Profile(time.process_time) if args.profile else None
            r = loop.run_until_complete(
                run_one(url, n, args.dequeue, profile, args.yield_every))
            if profile is not None:
                profile.dump_stats(args.profile)
        finally:
            if not args.keep:
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute(
                        sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                            sql.Identifier(name)
                        )
                    )
        print(
            f"enqueue: {r['n']:,} new + {r['duplicates']:,} duplicate links in "
            f"{r['wall'] - r['build']:.1f} s (request construction, {r['build']:.1f} s, "
            f"excluded; enqueue_request calls {r['enqueue_calls']:.1f} s; waiting for the "
            f"background writes {r['waited']:.1f} s)"
        )
        print(
            f"  enqueue rate: {r['rate']:,.0f} links/s, {r['new_rate']:,.0f} new URLs/s"
            f"   target >= {ENQUEUE_TARGET:,} URLs/s: "
            f"{'met' if r['new_rate'] >= ENQUEUE_TARGET else 'NOT met'}"
        )
        print(
            f"  CPU per new URL: {r['cpu_us']:.1f} us this process, {r['backend_us']:.1f} us"
            f" PostgreSQL backend (load average {open('/proc/loadavg').read().split()[0]})"
        )
        print(
            f"  queued: {r['queued']:,}; RSS {r['rss_queued']:.0f} MB with them queued "
            f"(peak {r['hwm_queued']:.0f} MB, {r['rss_start']:.0f} MB at start)"
            f"   target <= {RSS_TARGET_MB} MB at 10M"
        )
        print(
            f"dequeue: {r['dequeue']:,} next_request + ack at {r['dequeue_rate']:,.0f} "
            f"URLs/s (buffer refilled from PostgreSQL); peak RSS {r['hwm']:.0f} MB"
        )
        print(f"frontier table + indexes: {r['table_mb']:,.0f} MB", flush=True)


if __name__ == "__main__":
    main()
