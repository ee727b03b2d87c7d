"""A host whose robots.txt is still being fetched holds two places of CONCURRENT_REQUESTS
(the robots.txt request and one request waiting for it), not one more per request of it
up to CONCURRENT_REQUESTS_PER_DOMAIN: the other hosts are crawled meanwhile
(FRONTIER_ONE_REQUEST_PER_NEW_HOST; issue 29, docs/performance.md)."""

from __future__ import annotations

import pytest

from crawler.sandbox import SandboxWeb, html_page

pytestmark = pytest.mark.slow

ROBOTS_DELAY = 3.0


def new_hosts_web() -> SandboxWeb:
    web = SandboxWeb()
    # slow.test answers its robots.txt after ROBOTS_DELAY s, fast.test at once
    web.set_robots("slow.test", "User-agent: *\nDisallow: /private/\n", delay=ROBOTS_DELAY)
    web.set_robots("fast.test", "User-agent: *\nDisallow:\n")
    for host in ("slow.test", "fast.test"):
        for i in range(4):
            web.add_page(f"http://{host}/p{i}", html_page(f"{host} {i}", ""))
    return web


SEEDS = ",".join(
    [f"http://slow.test/p{i}" for i in range(4)] + [f"http://fast.test/p{i}" for i in range(4)]
)


@pytest.mark.parametrize("one_per_new_host", [True, False])
def test_other_hosts_are_crawled_while_a_new_hosts_robots_txt_is_fetched(
    sandbox, run_crawl, one_per_new_host
):
    server = sandbox(new_hosts_web())
    # three places in all and per host (a robots.txt request takes one of each too):
    # slow.test's seeds come first
    run_crawl(proxy=server.proxy_url, args={"seed_urls": SEEDS}, settings={
        "CONCURRENT_REQUESTS": 3, "CONCURRENT_REQUESTS_PER_DOMAIN": 3,
        "FRONTIER_ONE_REQUEST_PER_NEW_HOST": one_per_new_host,
    }).check()
    slow = server.requests_for("slow.test")
    fast = server.requests_for("fast.test")
    (robots,) = [r for r in slow if r.path == "/robots.txt"]
    assert robots.finished - robots.started >= ROBOTS_DELAY
    # robots.txt is obeyed first either way
    assert sorted(r.path for r in slow) == ["/p0", "/p1", "/p2", "/p3", "/robots.txt"]
    assert min(r.started for r in slow if r.path != "/robots.txt") >= robots.finished
    assert sorted(r.path for r in fast) == ["/p0", "/p1", "/p2", "/p3", "/robots.txt"]
    fast_pages_meanwhile = sum(
        1 for r in fast if r.path != "/robots.txt" and r.finished < robots.finished
    )
    if one_per_new_host:
        # slow.test's robots.txt and one seed waiting for it hold two places; fast.test
        # uses the third
        assert fast_pages_meanwhile == 4
    else:
        # (the behaviour before: two slow.test seeds and the robots.txt request held the
        # three places for ROBOTS_DELAY s; a fast.test seed may slip in between them)
        assert fast_pages_meanwhile <= 1
