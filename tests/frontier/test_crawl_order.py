"""Real `scrapy crawl` processes against the sandbox: the request log follows each
strategy's order exactly (one request at a time), and the size cap evicts."""

from __future__ import annotations

import random

import pytest

from crawler.sandbox import SandboxWeb, html_page
from tests.frontier.graphs import EXPECTED_ORDER, GRAPH, NAMES, S

pytestmark = pytest.mark.slow

def filler(seed: str) -> str:
    """Text after the links (so they start in the first third of the page: position 3),
    different on every page (the content-seen test drops near-duplicates)."""
    rng = random.Random(seed)
    return "<p>" + " ".join(f"w{rng.randrange(5000)}" for _ in range(200)) + "</p>"


def graph_web(delay: float = 0.0) -> SandboxWeb:
    web = SandboxWeb()
    for url, links in GRAPH.items():
        anchors = " ".join(f'<a href="{link}">{NAMES[link]}</a>' for link in links)
        web.add_page(url, html_page(NAMES[url], f"<p>{anchors}</p>{filler(url)}"), delay=delay)
    return web


def requested(server) -> list[str]:
    return [f"http://{r.host}{r.path}" for r in server.requests_for() if r.path != "/robots.txt"]


def one_at_a_time(strategy: str) -> dict[str, object]:
    return {
        "FRONTIER_STRATEGY": strategy,
        "CONCURRENT_REQUESTS": 1,
        # the next request waits until the last response's links are all queued
        "SCRAPER_SLOT_MAX_ACTIVE_SIZE": 1,
    }


@pytest.mark.parametrize("strategy", ["bfs", "dfs", "opic", "bestfirst"])
def test_the_request_log_follows_the_strategy(strategy, sandbox, run_crawl):
    server = sandbox(graph_web())
    run_crawl(proxy=server.proxy_url, args={"seed_urls": S},
              settings=one_at_a_time(strategy)).check()
    assert " ".join(NAMES[u] for u in requested(server)) == EXPECTED_ORDER[strategy]


def test_strategy_argument_overrides_the_setting(sandbox, run_crawl, db):
    server = sandbox(graph_web())
    result = run_crawl(proxy=server.proxy_url,
                       args={"seed_urls": S, "strategy": "interintra"},
                       settings=one_at_a_time("bfs")).check()
    assert " ".join(NAMES[u] for u in requested(server)) == EXPECTED_ORDER["interintra"]
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()
    assert stats[0]["frontier/strategy"] == "interintra"
    assert stats[0]["frontier/dequeued"] == len(GRAPH)
    assert stats[0]["frontier/duplicates"] == 2  # B from p, r from B (or p)


def test_the_size_cap_evicts_and_records_never_fetched_urls(sandbox, run_crawl, db):
    # slow pages: the queue holds more than 2 URLs for many flushes
    server = sandbox(graph_web(delay=0.2))
    result = run_crawl(proxy=server.proxy_url, args={"seed_urls": S}, settings={
        **one_at_a_time("bfs"), "FRONTIER_MAX_SIZE": 2, "FRONTIER_FLUSH_INTERVAL": 0.1,
    }).check()
    evicted = dict(db.execute(
        "SELECT url, detail FROM uncrawled WHERE crawl_id = %s AND category = 'evicted'",
        (result.crawl_id,),
    ).fetchall())
    fetched = requested(server)
    assert evicted and not set(evicted) & set(fetched)
    assert len(fetched) == len(set(fetched))
    assert set(evicted) | set(fetched) <= set(GRAPH)
    assert set(evicted.values()) == {"frontier over FRONTIER_MAX_SIZE (2)"}
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()
    assert stats[0]["frontier/evicted/size"] == len(evicted)
