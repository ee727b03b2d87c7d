"""End-to-end: a mirror reached first still ends with the original site crawled and the
mirror's pages recorded as duplicates of it (crawler/dedup/authority.py)."""

from __future__ import annotations

import pytest

from crawler.dedup.content_seen import Duplicate
from crawler.sandbox.hygiene import MIRROR_HOST, MIRROR_PAGES, ORIGINAL_HOST, mirror_web

pytestmark = pytest.mark.slow


def _site(host: str) -> set[str]:
    return {f"http://{host}/"} | {
        f"http://{host}/article/{n}.html" for n in range(1, MIRROR_PAGES + 1)}


def test_the_original_is_kept_when_its_mirror_is_reached_first(sandbox, run_crawl, db):
    server = sandbox(mirror_web())
    result = run_crawl(
        proxy=server.proxy_url,
        # one request at a time: the whole mirror is crawled before the original
        args={"seed_urls": f"http://{MIRROR_HOST}/,http://portal.test/"},
        settings={"CONCURRENT_REQUESTS": 1},
    ).check()
    crawl_id = result.crawl_id
    pages = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s AND host IN (%s, %s)",
        (crawl_id, ORIGINAL_HOST, MIRROR_HOST))}
    assert pages == _site(ORIGINAL_HOST)
    duplicates = dict(db.execute(
        "SELECT url, detail FROM uncrawled WHERE crawl_id = %s AND category = "
        "'duplicate_content'", (crawl_id,)).fetchall())
    assert set(duplicates) == _site(MIRROR_HOST)
    for url, detail in duplicates.items():
        assert Duplicate.parse_detail(detail).original == url.replace(MIRROR_HOST, ORIGINAL_HOST)
        assert "; " in detail  # why the original was kept
    fingerprints = {url for (url,) in db.execute(
        "SELECT url FROM page_fingerprints WHERE crawl_id = %s AND url LIKE %s",
        (crawl_id, f"http://%{MIRROR_HOST}/%"))}
    assert fingerprints == set()
    # the mirror was reached first: every mirror page was fetched before the original's
    mirror = [r.started for r in server.requests_for(MIRROR_HOST) if r.path != "/robots.txt"]
    original = [r.started for r in server.requests_for(ORIGINAL_HOST)
                if r.path != "/robots.txt"]
    assert len(mirror) == len(original) == MIRROR_PAGES + 1
    assert min(original) > min(mirror)
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (crawl_id,)).fetchone()[0]
    assert stats["dedup/authority_replaced"] == MIRROR_PAGES + 1
