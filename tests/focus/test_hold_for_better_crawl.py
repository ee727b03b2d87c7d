"""`scrapy crawl focused` with the frontier's FRONTIER_HOLD_FOR_BETTER (set by the spider):
while the Java host is at its per-host limit, the free slot is not given to off-topic
URLs; per-host politeness still holds."""

from __future__ import annotations

import pytest

from crawler.sandbox import SandboxWeb, html_page
from crawler.spiders.focused import FocusedSpider

pytestmark = pytest.mark.slow

HUB = "http://www.hub.test/"
JAVA = [f"http://www.java.test/tutorial-{n}.html" for n in range(1, 5)]
OTHER = [f"http://www.other.test/recipe-{n}.html" for n in range(1, 5)]
JAVA_DELAY = 1.0


def hold_web() -> SandboxWeb:
    web = SandboxWeb()
    anchors = [f'<a href="{url}">Java tutorial {n}</a>' for n, url in enumerate(JAVA, 1)]
    anchors += [f'<a href="{url}">Pasta recipe {n}</a>' for n, url in enumerate(OTHER, 1)]
    web.add_page(HUB, html_page("Hub", "<p>Links.</p><p>" + " ".join(anchors) + "</p>"))
    for n, url in enumerate(JAVA, 1):
        # slow: the Java host stays busy while the other slot is free
        web.add_page(url, html_page(f"Java tutorial {n}", f"<p>Java lesson {n}.</p>"),
                     delay=JAVA_DELAY)
    for n, url in enumerate(OTHER, 1):
        web.add_page(url, html_page(f"Pasta recipe {n}", f"<p>Boil the pasta {n} minutes.</p>"))
    return web


def page_requests(server) -> list:
    """Page requests in the order the server received them (the log is in the order of
    the responses)."""
    return sorted((r for r in server.log if r.path != "/robots.txt"), key=lambda r: r.started)


def crawl(sandbox, run_crawl, hold: object | None) -> list:
    server = sandbox(hold_web())
    settings: dict[str, object] = {"CONCURRENT_REQUESTS": 2, "CONCURRENT_REQUESTS_PER_DOMAIN": 1}
    if hold is not None:
        settings["FRONTIER_HOLD_FOR_BETTER"] = hold
    run_crawl("focused", proxy=server.proxy_url, args={"query": "java", "seed_urls": HUB},
              settings=settings).check()
    return page_requests(server)


def assert_one_at_a_time_per_host(records) -> None:
    by_host: dict[str, list] = {}
    for record in records:
        by_host.setdefault(record.host, []).append(record)
    for host_records in by_host.values():
        host_records.sort(key=lambda r: r.started)
        for earlier, later in zip(host_records, host_records[1:], strict=False):
            assert later.started >= earlier.finished, (earlier, later)


def test_the_focused_spider_enables_it():
    assert FocusedSpider.custom_settings["FRONTIER_HOLD_FOR_BETTER"] == 2.0


def test_off_topic_urls_wait_while_the_java_host_is_busy(sandbox, run_crawl):
    records = crawl(sandbox, run_crawl, hold=None)  # the spider's 2.0
    assert [f"http://{r.host}{r.path}" for r in records] == [HUB, *JAVA, *OTHER]
    # the slot left free while the Java host was busy: the first recipe is only
    # requested once the last Java tutorial is (nothing better waits any more)
    last_java = next(r for r in records if r.path == "/tutorial-4.html")
    first_other = next(r for r in records if r.path == "/recipe-1.html")
    assert first_other.started >= last_java.started
    assert_one_at_a_time_per_host(records)


def test_without_it_the_free_slot_goes_to_the_off_topic_host(sandbox, run_crawl):
    records = crawl(sandbox, run_crawl, hold="None")
    urls = [f"http://{r.host}{r.path}" for r in records]
    assert sorted(urls) == sorted([HUB, *JAVA, *OTHER])
    # every recipe is fetched while the first Java tutorial is still downloading (which
    # of the two hosts' first request reaches the server first is a race)
    assert urls[0] == HUB and urls[6:] == JAVA[1:]
    assert sorted(urls[1:6]) == sorted([JAVA[0], *OTHER])
    assert [url for url in urls if url in OTHER] == OTHER
    first_java = next(r for r in records if r.path == "/tutorial-1.html")
    assert all(r.started < first_java.finished for r in records if r.host == "www.other.test")
    assert_one_at_a_time_per_host(records)
