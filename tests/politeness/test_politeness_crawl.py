"""End-to-end: Crawl-delay, Request-rate and per-host concurrency on the request log."""

from __future__ import annotations

import pytest

from crawler.sandbox import SandboxWeb, html_page
from tests.politeness.logs import max_overlap, start_gaps

pytestmark = pytest.mark.slow


def _site(web: SandboxWeb, host: str, pages: int, delay: float = 0.0) -> None:
    links = " ".join(f'<a href="/p{i}.html">p{i}</a>' for i in range(pages))
    web.add_page(f"http://{host}/", html_page(host, links))
    for i in range(pages):
        web.add_page(f"http://{host}/p{i}.html", html_page(f"{host} {i}", ""), delay=delay)


def politeness_web() -> SandboxWeb:
    web = SandboxWeb()
    hosts = ["slow.test", "rate.test", "capped.test", "fast.test", "busy.test"]
    web.add_page("http://portal.test/", html_page("Portal", " ".join(
        f'<a href="http://{host}/">{host}</a>' for host in hosts)))
    _site(web, "slow.test", 5)
    web.set_robots("slow.test", "User-agent: *\nCrawl-delay: 1\n")
    _site(web, "rate.test", 4)
    web.set_robots("rate.test", "User-agent: *\nRequest-rate: 2/1s\n")  # 0.5 s
    _site(web, "capped.test", 3)
    web.set_robots("capped.test", "User-agent: crawler\nCrawl-delay: 3600\n")
    _site(web, "fast.test", 40)
    _site(web, "busy.test", 12, delay=0.4)
    return web


# The downloader slot alone must keep the delays with Scrapy's scheduler; the project's
# best-first scheduler reads the same slot to decide when a host is ready.
@pytest.mark.parametrize("scheduler", [
    "scrapy.core.scheduler.Scheduler",
    "crawler.schedulers.best_first.BestFirstScheduler",
])
def test_crawl_delay_request_rate_and_concurrency(sandbox, run_crawl, scheduler):
    server = sandbox(politeness_web())
    run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://portal.test/"},
        settings={
            "SCHEDULER": scheduler,
            "RETRY_TIMES": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
            "ROBOTSTXT_MAX_CRAWL_DELAY": 1.5,
            # AutoThrottle on, with a ceiling far below the Crawl-delays: they must win
            "AUTOTHROTTLE_ENABLED": True,
            "AUTOTHROTTLE_START_DELAY": 0,
            "AUTOTHROTTLE_MAX_DELAY": 0.2,
        },
    ).check()
    log = {host: server.requests_for(host) for host in
           ("slow.test", "rate.test", "capped.test", "fast.test", "busy.test")}
    assert {host: len(records) for host, records in log.items()} == {
        "slow.test": 7, "rate.test": 6, "capped.test": 5, "fast.test": 42, "busy.test": 14}

    # Gaps between request starts, robots.txt included (it is a request to the host too).
    assert min(start_gaps(log["slow.test"])) >= 1.0
    assert min(start_gaps(log["rate.test"])) >= 0.5
    assert min(start_gaps(log["capped.test"])) >= 1.5  # capped: not 3600 s
    assert max(start_gaps(log["capped.test"])) < 3.0

    # Other hosts keep being crawled meanwhile: slow.test's waiting requests do not hold
    # the downloader, fast.test (42 requests) is done before slow.test (7).
    assert max(r.started for r in log["fast.test"]) < max(r.started for r in log["slow.test"])

    # Per-host concurrency never exceeds CONCURRENT_REQUESTS_PER_DOMAIN, and is used.
    for host, records in log.items():
        assert max_overlap(records) <= 2, host
    assert max_overlap(log["busy.test"]) == 2
