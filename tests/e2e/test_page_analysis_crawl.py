"""A general crawl analyses its pages in a worker process and stops links to seen URLs
before the engine: what it stores and fetches is what the crawl process alone gives."""

from __future__ import annotations

from collections import Counter

import pytest

from crawler.content import join_headings
from crawler.page_analysis import analyse_html
from crawler.sandbox import build_synthetic_web
from crawler.sandbox.synthetic import DEFAULT_SITES
from tests.e2e.test_general_crawl import requested_urls

pytestmark = pytest.mark.slow


def test_pages_analysed_by_a_worker_are_stored_as_the_crawl_process_would_store_them(
    sandbox, run_crawl, db
):
    sites = dict.fromkeys(list(DEFAULT_SITES)[:3], 45)
    web = build_synthetic_web(trap=False, faults=False, mirrors=False, site_sizes=sites)
    web_hosts = set(sites)
    server = sandbox(web)
    expected = {url for url in web.reachable(web.seeds) if url.split("/")[2] in web_hosts}
    seeds = [url for url in web.seeds if url.split("/")[2] in web_hosts]
    # a delay per host keeps the crawl going past the worker's start (ready 1.4-4.8 s after
    # the pool opens at load 10-12): until then the crawl process analyses pages
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": ",".join(seeds), "allowed_domains": ",".join(sorted(web_hosts))},
        settings={
            "DEPTH_LIMIT": 0, "DOWNLOAD_DELAY": 0.15, "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
            "RANDOMIZE_DOWNLOAD_DELAY": False, "PAGE_ANALYSIS_PROCESSES": 1,
            # the worker starts with the first page (by default after 20, or once 200
            # requests are queued): at load 10 one started after 20 pages analysed only 8
            "PAGE_ANALYSIS_START_AFTER": 1,
        },
    ).check()

    rows = db.execute(
        "SELECT url, title, text, main_text, headings, lang FROM pages WHERE crawl_id = %s",
        (result.crawl_id,),
    ).fetchall()
    assert {row[0] for row in rows} == expected
    for url, title, text, main_text, headings, lang in rows:
        resource = web.fetch(url)
        analysis = analyse_html(resource.body, url, encoding="utf-8")
        assert (title, text, main_text, headings, lang) == (
            analysis.title, analysis.text, analysis.main_text,
            join_headings(analysis.headings), analysis.lang,
        ), url
    links = db.execute(
        "SELECT count(*) FROM links WHERE crawl_id = %s", (result.crawl_id,)
    ).fetchone()[0]
    assert links == sum(len(web.outlinks(url)) for url in expected)
    requested = [url for url in requested_urls(server) if url.split("/")[2] in web_hosts]
    assert Counter(requested).most_common(1)[0][1] == 1 and set(requested) == expected

    stats = db.execute(
        "SELECT (stats->>'page_analysis/workers')::int, "
        "coalesce((stats->>'page_analysis/in_process')::int, 0), "
        "(stats->>'frontier/known_links')::int, "
        "(stats->>'dedup/worker_fingerprints')::int FROM crawls WHERE id = %s",
        (result.crawl_id,),
    ).fetchone()
    workers, in_process, known_links, worker_fingerprints = stats
    assert workers is not None, stats
    # the content-seen test took the worker's fingerprint of each page it analysed
    assert worker_fingerprints == workers
    # how many go to the worker depends on its start-up time (load): some must
    assert workers + in_process == len(expected) and workers >= 10, stats
    # navigation links between the sites' pages: most links are to URLs seen before
    assert known_links > len(expected)
