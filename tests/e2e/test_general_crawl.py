"""End-to-end: `scrapy crawl general` over the sandbox web into PostgreSQL."""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

import pytest

from crawler.sandbox import build_synthetic_web, canonical
from crawler.sandbox.synthetic import DEFAULT_SITES, MIN_SITE_PAGES

pytestmark = pytest.mark.slow


def requested_urls(server) -> list[str]:
    """Canonical URLs of the page requests in the sandbox log (robots.txt excluded)."""
    urls = []
    for record in server.log:
        if record.path == "/robots.txt":
            continue
        query = f"?{record.query}" if record.query else ""
        urls.append(canonical(f"http://{record.host}{record.path}{query}"))
    return urls


def missing_pages_report(missing, extra, server, db, result) -> str:
    """Why pages were not stored (a failure seen once in CI, not reproduced): whether
    each was requested, its uncrawled row, and the crawl's warnings and stats."""
    requested = Counter(requested_urls(server))
    uncrawled = dict(db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s AND url = ANY(%s)",
        (result.crawl_id, sorted(missing)),
    ).fetchall())
    lines = [f"extra: {sorted(extra)}"]
    lines += [f"missing {url}: requested {requested[url]}x, uncrawled {uncrawled.get(url)}"
              for url in sorted(missing)]
    log = result.stderr.splitlines()
    lines += [line for line in log if " WARNING: " in line or " ERROR: " in line][:40]
    lines += log[-80:]
    return "\n".join(lines)


def test_general_crawl_stores_exactly_the_reachable_allowed_pages(sandbox, run_crawl, db):
    # mirrors are left out: the content-seen test (tests/dedup) rejects their pages
    # sites of 45 pages: the smallest web that still has the 300 pages asserted below
    web = build_synthetic_web(
        trap=False, faults=False, mirrors=False, site_sizes=dict.fromkeys(DEFAULT_SITES, 45)
    )
    server = sandbox(web)
    expected = web.reachable(web.seeds)
    assert all(web.is_html_ok(url) for url in expected)
    hosts = Counter(urlsplit(url).hostname for url in expected)
    assert len(expected) >= 300 and len(hosts) >= 6

    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": ",".join(web.seeds)},
        settings={"DEPTH_LIMIT": 0},
    ).check()

    rows = db.execute(
        "SELECT url, final_url, host, status, depth, title, content_type FROM pages "
        "WHERE crawl_id = %s", (result.crawl_id,),
    ).fetchall()
    stored = [row[0] for row in rows]
    assert len(stored) == len(set(stored))
    assert set(stored) == set(expected), missing_pages_report(
        set(expected) - set(stored), set(stored) - set(expected), server, db, result
    )
    for url, final_url, host, status, depth, title, content_type in rows:
        assert (final_url, host, status, content_type) == (url, urlsplit(url).hostname, 200,
                                                           "text/html")
        assert depth >= expected[url] and title

    requested = requested_urls(server)
    duplicates = [url for url, n in Counter(requested).items() if n > 1]
    assert duplicates == []
    assert set(requested) == set(expected)

    # Scheduled but not stored: exactly the robots-disallowed URLs linked from stored pages.
    disallowed = {
        link for url in expected for link in web.outlinks(url) if not web.robots_allows(link)
    }
    assert disallowed, "the sandbox web should exercise robots.txt"
    uncrawled = db.execute(
        "SELECT url, category FROM uncrawled WHERE crawl_id = %s", (result.crawl_id,)
    ).fetchall()
    assert dict(uncrawled) == {url: "robots_disallowed" for url in disallowed}

    links = db.execute(
        "SELECT count(*), count(*) FILTER (WHERE distance = 5) FROM links WHERE crawl_id = %s",
        (result.crawl_id,),
    ).fetchone()
    assert links[0] == sum(len(web.outlinks(url)) for url in expected)
    assert 0 < links[1] < links[0]

    crawl = db.execute(
        "SELECT spider, finish_reason, stats->>'store/pages' FROM crawls WHERE id = %s",
        (result.crawl_id,),
    ).fetchone()
    assert crawl == ("general", "finished", str(len(expected)))


def test_faulty_pages_are_categorised(sandbox, run_crawl, db):
    # the smallest sites: the fault pages are the same on them, the crawl half as long
    web = build_synthetic_web(
        trap=False,
        faults=True,
        mirrors=False,
        site_sizes=dict.fromkeys(DEFAULT_SITES, MIN_SITE_PAGES),
    )
    server = sandbox(web)
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": ",".join(web.seeds)},
        settings={"DEPTH_LIMIT": 0, "DOWNLOAD_MAXSIZE": 1_000_000, "RETRY_TIMES": 0},
    ).check()
    crawl = result.crawl_id
    pages = {
        row[0]: row[1:]
        for row in db.execute(
            "SELECT url, final_url, content_type, title, text FROM pages WHERE crawl_id = %s",
            (crawl,),
        )
    }
    uncrawled = dict(
        db.execute("SELECT url, category FROM uncrawled WHERE crawl_id = %s", (crawl,))
    )
    faults = web.faults
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert faults["large"] in uncrawled, (errors, result.stderr[-3000:])
    assert uncrawled[faults["not_found"]] == "http_404"
    assert uncrawled[faults["forbidden"]] == "http_403"
    assert uncrawled[faults["unavailable"]] == "http_503"
    assert uncrawled[faults["image"]] == "unsupported_mime"
    assert uncrawled[faults["pdf"]] == "unsupported_mime"
    assert uncrawled[faults["large"]] == "too_large"
    assert uncrawled[faults["dead_host"]] == "connection"

    assert pages[faults["text"]][1] == "text/plain"
    assert "faster class loading" in pages[faults["text"]][3]
    # A redirect is stored under the URL scheduled with its final URL, unless its target
    # was already seen: then it is a duplicate_url and the target is the stored page.
    target = web.redirect_target(faults["redirect"])
    assert target in pages
    if faults["redirect"] in pages:
        assert pages[faults["redirect"]][0] == target
    else:
        assert uncrawled[faults["redirect"]] == "duplicate_url"
    assert faults["slow"] in pages and faults["broken_html"] in pages
    assert "caf\u00e9" in pages[faults["windows_1252"]][3].lower()
    assert faults["no_charset"] in pages

    # Every URL the crawler asked the sandbox for is a page or has one category.
    for url in set(requested_urls(server)):
        target = web.redirect_target(url)
        assert url in pages or url in uncrawled or (target and target in pages), url
    assert not set(pages) & set(uncrawled)
