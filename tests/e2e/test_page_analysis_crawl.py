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
    # about half of the pages over the main-content limit: their whole text is stored as
    # their main content, by the worker and by the crawl process alike
    sizes = sorted(len(web.fetch(url).body) for url in expected)
    limit = sizes[len(sizes) // 2]
    over_limit = sum(size > limit for size in sizes)
    assert 0 < over_limit < len(sizes)
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
            "PAGE_MAIN_CONTENT_MAX_BYTES": limit,
        },
    ).check()

    rows = db.execute(
        "SELECT url, title, text, main_text, headings, lang FROM pages WHERE crawl_id = %s",
        (result.crawl_id,),
    ).fetchall()
    assert {row[0] for row in rows} == expected
    for url, title, text, main_text, headings, lang in rows:
        resource = web.fetch(url)
        analysis = analyse_html(
            resource.body, url, encoding="utf-8", main_content_max_bytes=limit
        )
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
        "(stats->>'dedup/worker_fingerprints')::int, "
        "(stats->>'page_analysis/whole_text_pages')::int FROM crawls WHERE id = %s",
        (result.crawl_id,),
    ).fetchone()
    workers, in_process, known_links, worker_fingerprints, whole_text = stats
    assert whole_text == over_limit
    assert workers is not None, stats
    # the content-seen test took the worker's fingerprint of each page it analysed
    assert worker_fingerprints == workers
    # how many go to the worker depends on its start-up time (load): some must
    assert workers + in_process == len(expected) and workers >= 10, stats
    # navigation links between the sites' pages: most links are to URLs seen before
    assert known_links > len(expected)


def _frontier_rows(db, crawl_id: str) -> set[tuple]:
    # what a URL's in-links gave it, whatever the order of the crawl (not OPIC cash)
    return set(db.execute(
        "SELECT f.url, f.state, f.depth, f.backlinks, f.link_score, f.attributes "
        "FROM frontier f JOIN frontier_crawls c ON c.key = f.crawl WHERE c.crawl_id = %s",
        (crawl_id,),
    ).fetchall())


def test_links_to_seen_urls_absorbed_without_requests_score_as_their_requests(
    sandbox, run_crawl, db
):
    # the general spider's known-link shortcut against every link's request through the
    # middlewares: the same pages fetched, the same URLs refused (depth, traps), the same
    # in-link statistics of every URL in the frontier
    sites = dict.fromkeys(list(DEFAULT_SITES)[:2], 40)
    web = build_synthetic_web(trap=True, faults=False, mirrors=False, site_sizes=sites)
    server = sandbox(web)
    seeds = [url for url in web.seeds if url.split("/")[2] in sites]
    # a seed is a URL the frontier has seen without the trap guard's check: links to it
    # are refused (URL longer than TRAP_MAX_URL_LENGTH) either way
    long_seed = "http://news.alpha.test/companies/retirement-few-investor.html"
    seeds += [long_seed, "http://calendar.trap.test/cal/2026/11"]
    runs = {}
    for shortcut in (True, False):
        result = run_crawl(
            proxy=server.proxy_url,
            args={"seed_urls": ",".join(seeds), "allowed_domains": "alpha.test,trap.test"},
            settings={
                "DEPTH_LIMIT": 3, "PAGE_ANALYSIS_PROCESSES": 0, "CONCURRENT_REQUESTS": 1,
                "KNOWN_LINKS_SHORTCUT": shortcut, "SEARCH_INDEX_ENABLED": False,
                "TRAP_MAX_URL_LENGTH": 60,
            },
        ).check()
        stats = db.execute(
            "SELECT stats->>'frontier/known_links', stats->>'trap/refused', "
            "stats->>'request_depth_max', "
            "coalesce((stats->>'frontier/known_links/shortcut')::int, 0) "
            "FROM crawls WHERE id = %s",
            (result.crawl_id,),
        ).fetchone()
        pages = {r[0] for r in db.execute(
            "SELECT url FROM pages WHERE crawl_id = %s", (result.crawl_id,)
        ).fetchall()}
        uncrawled = set(db.execute(
            "SELECT url, category FROM uncrawled WHERE crawl_id = %s", (result.crawl_id,)
        ).fetchall())
        runs[shortcut] = (stats, pages, uncrawled, _frontier_rows(db, result.crawl_id))
    (*on_stats, on_shortcut), *on = runs[True]
    (*off_stats, off_shortcut), *off = runs[False]
    # one request at a time: both crawls fetch in the same order, so that even the links
    # to seen URLs and the trap refusals (one per link) are counted alike
    assert on == off and on_stats == off_stats
    pages, uncrawled, _ = on
    assert len(pages) > 40 and {c for _, c in uncrawled} >= {"trap", "depth_exceeded"}
    assert long_seed in pages
    known, trap_refused, _ = (int(v) for v in on_stats)
    assert off_shortcut == 0 and known > len(pages) and trap_refused > 18
    # (nearly) every link to a seen URL took the shortcut
    assert 0.7 * known < on_shortcut <= known
