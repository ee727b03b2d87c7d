"""End-to-end: URL-parameter rules learned on the sandbox's parameter-explosion site,
while the paging site keeps every page; rules are stored per crawl, listed by
``scrapy urlrules`` and loaded again by a resumed crawl."""

from __future__ import annotations

import subprocess
from collections import Counter

import pytest

from crawler.sandbox.hygiene import (
    GALLERIES,
    GALLERY_HOST,
    PAGING_HOST,
    PAGING_PAGES,
    gallery_url,
    gallery_views,
    parameter_web,
)
from tests.commands import run_scrapy

pytestmark = pytest.mark.slow

PARAMETERS = ("size", "sort", "theme", "view")


def run_urlrules(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_scrapy("urlrules", *args, database_url=database_url)


def test_parameter_rules_on_the_sandbox(sandbox, run_crawl, db, database_url):
    server = sandbox(parameter_web())
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": f"http://{GALLERY_HOST}/,http://{PAGING_HOST}/"},
    ).check()
    crawl_id = result.crawl_id

    # <= 3 requests per gallery (of 48 views each), every gallery stored once
    per_path = Counter(r.path for r in server.requests_for(GALLERY_HOST)
                       if r.path.startswith("/gallery/"))
    assert set(per_path) == {f"/gallery/{n}" for n in range(1, GALLERIES + 1)}
    assert max(per_path.values()) <= 3
    stored = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s AND host = %s AND url LIKE %s",
        (crawl_id, GALLERY_HOST, "%/gallery/%"))}
    assert stored == {gallery_url(n, gallery_views()[0]) for n in range(1, GALLERIES + 1)}

    # the paging site keeps all its pages (each fetched once); its 'view' is learned,
    # 'page' is proven to matter
    paging = Counter((r.path, r.query) for r in server.requests_for(PAGING_HOST))
    for n in range(1, PAGING_PAGES + 1):
        assert paging[("/list", f"page={n}")] == 1
    pages = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s AND host = %s", (crawl_id, PAGING_HOST))}
    assert pages == {f"http://{PAGING_HOST}/"} | {
        f"http://{PAGING_HOST}/list?page={n}" for n in range(1, PAGING_PAGES + 1)}

    rules = db.execute(
        "SELECT host, path, parameter, active FROM url_parameter_rules WHERE crawl_id = %s",
        (crawl_id,)).fetchall()
    host_rules = {(h, p, n, a) for h, p, n, a in rules if h == GALLERY_HOST and p == ""}
    assert host_rules == {(GALLERY_HOST, "", name, True) for name in PARAMETERS}
    assert ("paging.test", "/list", "page", False) in rules
    assert ("paging.test", "/list", "view", True) in rules
    assert not [r for r in rules if r[2] == "page" and r[3]]

    # every view not fetched is recorded: the rule that removed it, or (for the first
    # galleries, whose 48 links were queued before the rules) the trap defence's
    # query-variant cap of 20, or the content-seen test for the two views fetched
    kinds = Counter()
    for url, category, detail in db.execute(
            "SELECT url, category, detail FROM uncrawled WHERE crawl_id = %s AND url LIKE %s",
            (crawl_id, f"http://{GALLERY_HOST}/gallery/%")):
        kind = "duplicate" if category == "duplicate_content" else detail.split(":", 1)[0]
        kinds[url.split("?")[0].rsplit("/", 1)[1], kind] += 1
        if kind == "url_parameters":
            assert detail.startswith("url_parameters: same page as http://gallery.test/")
            assert detail.endswith("(scrapy urlrules)")
    for path, requests in per_path.items():
        n = path.rsplit("/", 1)[1]
        shape = {kind: count for (m, kind), count in kinds.items() if m == n}
        if requests == 3:  # learned on this path: 20 variants admitted by the trap cap
            assert shape == {"query_variants": 28, "duplicate": 2, "url_parameters": 17}
        else:  # host-wide rules: its views rewritten (parsed after the rules) or
            # refused at the downloader (queued before them)
            assert requests == 1
            assert shape in ({"url_parameters": 47},
                             {"query_variants": 28, "url_parameters": 19}), (n, shape)
    assert sum(1 for r in per_path.values() if r == 3) >= 3  # host rules need 3 paths

    listing = run_urlrules(database_url, "--crawl-id", crawl_id, "--all")
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.splitlines()
    active = sum(1 for r in rules if r[3])
    assert lines[0] == f"Crawl {crawl_id}: {active} active URL-parameter rules, 1 undone"
    assert "gallery.test (every path)  drop 'view'" in lines
    assert "paging.test/list  drop 'page' [undone]" in lines
    assert any(line.startswith("    undone ") and "differ only in 'page'" in line
               for line in lines)
    missing = run_urlrules(database_url, "--crawl-id", "no-such-crawl")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr.startswith("error: no crawl 'no-such-crawl' in ")

    # resumed: the rules are loaded (and robots.txt is not asked again)
    server.clear_log()
    again = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": f"http://{GALLERY_HOST}/gallery/7", "crawl_id": crawl_id},
    ).check()
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (again.crawl_id,)).fetchone()[0]
    assert stats["urlrules/loaded"] == active
    assert Counter(r.path for r in server.requests_for(GALLERY_HOST)) == {"/gallery/7": 1}
