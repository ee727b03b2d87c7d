"""End-to-end: the depth threshold and the trap defences on the synthetic sandbox web."""

from __future__ import annotations

from collections import Counter

import pytest

from crawler.sandbox import build_synthetic_web, canonical
from crawler.sandbox.synthetic import DEFAULT_SITES, MIN_SITE_PAGES, ROBOTS_5XX_HOST, TRAP_HOST
from tests.politeness.logs import by_host, target, targets

pytestmark = pytest.mark.slow


def requested_pages(server) -> list[str]:
    return [canonical(f"http://{r.host}{target(r)}") for r in server.requests_for()
            if r.path != "/robots.txt"]


def uncrawled_rows(db, crawl_id: str) -> dict[str, tuple[str, str]]:
    return {url: (category, detail) for url, category, detail in db.execute(
        "SELECT url, category, detail FROM uncrawled WHERE crawl_id = %s", (crawl_id,))}


def test_depth_limit_fetches_exactly_the_pages_within_it(sandbox, run_crawl, db):
    # no mirrors: the content-seen test would not follow the links of a mirrored copy,
    # which the ground truth does not model
    # the smallest sites: 117 pages within depth 2 of the seeds instead of 175, still
    # robots-disallowed links before depth 2 and links beyond it
    web = build_synthetic_web(
        trap=False,
        faults=False,
        mirrors=False,
        site_sizes=dict.fromkeys(DEFAULT_SITES, MIN_SITE_PAGES),
    )
    server = sandbox(web)
    seeds = web.seeds[:3]
    expected = web.reachable(seeds, max_depth=2)
    # Scrapy's scheduler, one request at a time, shallowest first: the crawl is
    # breadth-first, so every URL gets its shortest depth, as in the ground truth.
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": ",".join(seeds)},
        settings={"SCHEDULER": "scrapy.core.scheduler.Scheduler", "DEPTH_LIMIT": 2,
                  "DEPTH_PRIORITY": 1, "CONCURRENT_REQUESTS": 1, "RETRY_TIMES": 0},
    ).check()
    requested = requested_pages(server)
    assert Counter(requested).most_common(1)[0][1] == 1
    assert set(requested) == set(expected)

    rows = uncrawled_rows(db, result.crawl_id)
    disallowed = {url for url, (category, _) in rows.items() if category == "robots_disallowed"}
    assert disallowed == {link for url, depth in expected.items() if depth < 2
                          for link in web.outlinks(url) if not web.robots_allows(link)}
    # Links of the depth-2 pages that lead nowhere known: recorded once as depth_exceeded.
    beyond = {link for url, depth in expected.items() if depth == 2
              for link in web.outlinks(url)} - set(expected) - disallowed
    assert beyond
    exceeded = {url: detail for url, (category, detail) in rows.items()
                if category == "depth_exceeded"}
    assert set(exceeded) == beyond
    assert set(exceeded.values()) == {"depth 3 > DEPTH_LIMIT 2"}
    assert set(rows) == disallowed | beyond
    stored = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (result.crawl_id,))}
    assert stored == {url for url in expected if web.is_html_ok(url)}
    assert not stored & set(rows)


def test_traps_cost_a_bounded_number_of_requests(sandbox, run_crawl, db):
    # the smallest sites: the traps and faults are the same on them, the crawl shorter
    web = build_synthetic_web(site_sizes=dict.fromkeys(DEFAULT_SITES, MIN_SITE_PAGES))
    server = sandbox(web)
    budget = 150
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": ",".join(web.seeds)},
        # the trap defence alone: learned URL-parameter rules would fetch fewer variants
        # of the query explosion (tests/hygiene/test_url_rules_crawl.py)
        settings={"RETRY_TIMES": 0, "TRAP_HOST_PAGE_BUDGET": budget,
                  "DOWNLOAD_MAXSIZE": 1_000_000, "URLRULES_ENABLED": False},
    ).check()
    hosts = by_host(server)
    rows = uncrawled_rows(db, result.crawl_id)
    traps = {url: detail for url, (category, detail) in rows.items() if category == "trap"}

    # The infinite calendar: exactly the per-host budget, then every further URL refused.
    calendar = [r for r in hosts[TRAP_HOST] if r.path != "/robots.txt"]
    assert len(calendar) == budget
    refused = [url for url, detail in traps.items() if url.startswith(f"http://{TRAP_HOST}/")]
    assert refused
    assert {traps[url] for url in refused} == {
        f"host_budget: host {TRAP_HOST} used its budget of {budget} pages"}

    # Query-string explosion: 48 links to one listing, 20 variants fetched, 28 refused.
    listing = web.faults["query_explosion"]
    listing_path = listing.split("shop.epsilon.test", 1)[1]
    variants = [t for t in targets(server, "shop.epsilon.test")
                if t.startswith(listing_path + "?")]
    assert len(variants) == len(set(variants)) == 20
    refused_variants = [url for url in traps if url.startswith(listing + "?")]
    assert len(refused_variants) == 28
    assert {traps[url] for url in refused_variants} == {
        f"query_variants: more than 20 query-string variants of {listing}"}

    # Session ids: 15 links (sid=, ;jsessionid=, PHPSESSID=) are one URL, fetched once.
    login_path = web.faults["session_id"].split("www.javadev.test", 1)[1]
    login = [t for t in targets(server, "www.javadev.test") if t.startswith(login_path)]
    assert login == [login_path]

    # A host whose robots.txt answers 503 gets no request but robots.txt.
    assert [r.path for r in hosts[ROBOTS_5XX_HOST]] == ["/robots.txt"]
    assert rows[f"http://{ROBOTS_5XX_HOST}/"][0] == "robots_disallowed"

    # Allow overrides the shorter Disallow on blog.gamma.test; disallowed paths are never
    # requested anywhere.
    allowed_draft = [t for t in targets(server, "blog.gamma.test") if t.startswith("/drafts/")]
    assert len(allowed_draft) == 1
    for url in requested_pages(server):
        assert web.robots_allows(url), url

    # No refused URL is also a stored page.
    stored = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (result.crawl_id,))}
    assert not stored & set(rows)
