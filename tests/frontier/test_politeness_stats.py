"""A delayed host and a slow host never stall the others; idle waits end when the next
host becomes ready (not at the engine's 5 s heartbeat); crawl_stats rows add up."""

from __future__ import annotations

import pytest

from crawler.sandbox import SandboxWeb, html_page
from tests.frontier.test_crawl_order import filler

pytestmark = pytest.mark.slow


def _site(web: SandboxWeb, host: str, pages: int, delay: float = 0.0) -> None:
    links = " ".join(f'<a href="/p{i}">p{i}</a>' for i in range(pages))
    web.add_page(f"http://{host}/", html_page(host, links + filler(host)))
    for i in range(pages):
        web.add_page(f"http://{host}/p{i}", html_page(f"{host} {i}", filler(f"{host}{i}")),
                     delay=delay)


def politeness_web() -> SandboxWeb:
    web = SandboxWeb()
    hosts = ["slow.test", "fast.test", "sluggish.test"]
    web.add_page("http://portal.test/", html_page("Portal", " ".join(
        f'<a href="http://{h}/">{h}</a>' for h in hosts) + filler("portal")))
    _site(web, "slow.test", 4)
    web.set_robots("slow.test", "User-agent: *\nCrawl-delay: 1\n")
    _site(web, "fast.test", 30)
    _site(web, "sluggish.test", 2, delay=3.0)  # each answer takes 3 s
    return web


def overlap(records) -> int:
    events = sorted([(r.started, 1) for r in records] + [(r.finished, -1) for r in records])
    now = peak = 0
    for _, step in events:
        now += step
        peak = max(peak, now)
    return peak


def test_slow_hosts_do_not_stall_the_crawl_and_stats_rows_add_up(sandbox, run_crawl, db):
    server = sandbox(politeness_web())
    result = run_crawl(proxy=server.proxy_url, args={"seed_urls": "http://portal.test/"},
                       settings={"CONCURRENT_REQUESTS": 4, "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
                                 "STATS_INTERVAL": 1}).check()
    log = {h: [r for r in server.requests_for(h) if r.path != "/robots.txt"]
           for h in ("slow.test", "fast.test", "sluggish.test")}
    assert {h: len(r) for h, r in log.items()} == {
        "slow.test": 5, "fast.test": 31, "sluggish.test": 3}
    slow = sorted(r.started for r in server.requests_for("slow.test"))  # robots.txt too
    # fast.test is done before slow.test's third request and sluggish.test's first page
    sluggish_page = min(r.finished for r in log["sluggish.test"] if r.path != "/")
    assert max(r.finished for r in log["fast.test"]) < min(slow[2], sluggish_page)
    # slow.test is served as soon as its Crawl-delay is over, not at the next heartbeat
    gaps = [b - a for a, b in zip(slow, slow[1:], strict=False)]
    assert min(gaps) >= 1.0 and max(gaps) < 1.9, gaps
    assert all(overlap(records) == 1 for records in log.values())

    rows = db.execute(
        "SELECT pages, queue_size, queue_inter, queue_intra, enqueued, dequeued, wait_min,"
        " wait_avg, wait_max, evicted, duplicates, pages_per_minute, interval_seconds"
        " FROM crawl_stats WHERE crawl_id = %s AND queue_size IS NOT NULL ORDER BY at",
        (result.crawl_id,),
    ).fetchall()
    assert len(rows) >= 5  # about one per second of a crawl of 8+ s
    requests = sum(len(r) for r in log.values()) + 1  # + the portal
    assert sum(r[5] for r in rows) == requests == sum(r[4] for r in rows)  # dequeued, enqueued
    assert sum(r[0] for r in rows) == len(server.log)  # every response, robots.txt included
    assert rows[-1][1] == 0 and all(r[1] == r[2] + r[3] for r in rows)
    assert max(r[8] for r in rows if r[8] is not None) >= 1.0  # slow.test's pages waited
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    assert sum(r[10] for r in rows) == stats.get("frontier/duplicates", 0)
    assert all(r[9] == 0 and r[12] > 0 for r in rows)
    # pages per minute of each interval, from the same row (interval_seconds is rounded to
    # the millisecond, the rate was computed before: allow that rounding, no more)
    for r in rows:
        assert r[11] == pytest.approx(r[0] * 60 / r[12], rel=0.0005 / (r[12] - 0.0005)), r
