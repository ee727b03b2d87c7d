"""A site's distinct titles (docs/dedup.md): two pages of one host whose titles differ
are different documents for the near-duplicate test, in memory, in lookup mode, after a
restart (titles from the `pages` rows) and in the shared test."""

from __future__ import annotations

import asyncio
import uuid

import numpy as np
import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from crawler import defaults
from crawler.dedup import ContentSeenTest, Duplicate
from crawler.dedup.content_seen import PageFingerprint, title_key
from crawler.dedup.shared import SharedContentSeen
from crawler.dedup.store import FingerprintStore
from crawler.storage.database import CrawlDatabase
from tests.dedup.test_content_seen import article, replace_words
from tests.dedup.test_content_seen_crawl import crawl_stats

BODY = article(900, 600)
ORIGINAL = "http://docs.test/strftime.html"


def page(title: str, body: str = BODY) -> str:
    """What the test fingerprints: the title, then the text."""
    return f"{title}\n{body}"


# (url, title, body, expected original or None); every body is a near copy of BODY:
# 1 % of its words replaced (first stage, Jaccard >= 0.8) or 5 % (second stage)
NEAR_1 = replace_words(BODY, 100)
NEAR_5 = replace_words(BODY, 20)
CASES = [
    # same host, another title: another document, in both stages
    ("http://docs.test/wcsftime.html", "wcsftime", NEAR_1, None),
    ("http://docs.test/wcsftime-5.html", "wcsftime (wide)", NEAR_5, None),
    # same host, same title once white space is collapsed and case folded: a copy
    ("http://docs.test/strftime.html?session=7", "  STRFTIME\n", NEAR_1, ORIGINAL),
    ("http://docs.test/print/strftime.html", "strftime", NEAR_5, ORIGINAL),
    # same host, no title: judged as before
    ("http://docs.test/untitled.html", "", NEAR_1, ORIGINAL),
    # other host, other title: a mirror, judged as before
    ("http://mirror.test/strftime.html", "Mirror: strftime", NEAR_1, ORIGINAL),
    ("http://mirror.test/wcsftime.html", "wcsftime", NEAR_5, ORIGINAL),
]


def decisions(test: ContentSeenTest, stored: dict[str, np.ndarray] | None = None) -> list:
    """Admit the original, then judge every case against it alone."""
    original = test.fingerprint(page("strftime"))
    test.add(ORIGINAL, original, "strftime")
    if stored is not None:
        stored[ORIGINAL] = original.minutiae
    found = []
    for url, title, body, _ in CASES:
        fingerprint = test.fingerprint(page(title, body))
        duplicate = test.find(url, fingerprint, stored, title=title)
        found.append(None if duplicate is None else duplicate.original)
    return found


def test_title_key_collapses_white_space_and_folds_case() -> None:
    assert title_key("  Data.Map.LAZY \n ") == title_key("data.map.lazy")
    assert title_key("Data.Map.Lazy") != title_key("Data.Map.Strict")
    assert title_key("") is None and title_key(" \t") is None and title_key(None) is None


@pytest.mark.parametrize("keep_minutiae", [True, False])
def test_same_host_pages_with_other_titles_are_other_documents(keep_minutiae: bool) -> None:
    test = ContentSeenTest(keep_minutiae=keep_minutiae)
    assert test.same_host_titles_differ is defaults.DEDUP_SAME_HOST_TITLES_DIFFER is True
    # lookup mode: the caller passes the candidates' minutiae (the second stage's words
    # of the original are still in memory only in the in-memory mode; in lookup mode
    # they come from its `pages` row, absent here, so the 5 % copies are not caught)
    stored = None if keep_minutiae else {}
    expected = [case[3] for case in CASES]
    if not keep_minutiae:
        expected = [None if body is NEAR_5 else original for _, _, body, original in CASES]
    assert decisions(test, stored) == expected


def test_the_setting_off_judges_as_before() -> None:
    test = ContentSeenTest(same_host_titles_differ=False)
    assert decisions(test) == [ORIGINAL] * len(CASES)


def test_the_second_stage_decided_the_five_percent_copies() -> None:
    test = ContentSeenTest(same_host_titles_differ=False)
    test.check(ORIGINAL, page("strftime"), "strftime")
    _, duplicate = test.check("http://docs.test/w.html", page("wcsftime", NEAR_5), "wcsftime")
    assert duplicate is not None and duplicate.alignment is not None  # stage 2 decided
    assert duplicate.similarity < test.threshold


def test_an_exact_copy_with_another_title_is_still_an_exact_duplicate() -> None:
    test = ContentSeenTest()
    test.check(ORIGINAL, page("strftime"), "strftime")
    # "strftime()" and "strftime" normalise to the same text, not to the same title
    assert title_key("strftime()") != title_key("strftime")
    _, duplicate = test.check("http://docs.test/copy.html", page("strftime()"), "strftime()")
    assert duplicate == Duplicate(ORIGINAL, 1.0, exact=True)
    # the same text under another title passed apart
    _, duplicate = test.check("http://docs.test/other.html", page("strftime"), "other")
    assert duplicate == Duplicate(ORIGINAL, 1.0, exact=True)


def test_a_copy_admitted_in_place_of_another_carries_its_own_title() -> None:
    test = ContentSeenTest()
    mirror = "http://mirror.test/strftime.html"
    test.check(mirror, page("Mirror: strftime"), "Mirror: strftime")
    fingerprint = test.fingerprint(page("strftime", NEAR_1))
    assert test.find(ORIGINAL, fingerprint, title="strftime").original == mirror
    test.replace_original(mirror, ORIGINAL, fingerprint, "strftime")  # kept by authority
    assert mirror not in test and ORIGINAL in test
    # the new copy's host and title now decide
    _, other = test.check("http://docs.test/wcsftime.html", page("wcsftime", NEAR_1),
                          "wcsftime")
    assert other is None
    _, same = test.check("http://docs.test/print/strftime.html", page("strftime", NEAR_1),
                         "STRFTIME")
    assert same is not None and same.original == ORIGINAL
    _, mirrored = test.check("http://mirror.test/other.html", page("Mirror: strftime", NEAR_1),
                             "Mirror: strftime")
    assert mirrored is not None and mirrored.original == ORIGINAL


# ----------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def crawl_id(database_url: str, db: psycopg.Connection) -> str:
    CrawlDatabase(url=database_url).prepare()
    crawl = f"titles-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl,))
    return crawl


def store_page(db: psycopg.Connection, crawl_id: str, url: str, title: str, text: str) -> None:
    db.execute(
        "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
        "title, text, content_md5, size) VALUES (%s, %s, %s, 'docs.test', 200, now(), 0, "
        "%s, %s, '', 0)", (crawl_id, url, url, title, text))


def test_a_restarted_test_takes_the_titles_of_the_stored_pages(
    database_url: str, crawl_id: str, db: psycopg.Connection
) -> None:
    store_page(db, crawl_id, ORIGINAL, "strftime", BODY)

    async def scenario() -> dict[str, tuple[Duplicate | None, ...]]:
        async with AsyncConnectionPool(database_url, min_size=1, open=False) as pool:
            first = ContentSeenTest()
            store = FingerprintStore(pool, crawl_id, first.scheme)
            fingerprint, _ = first.check(ORIGINAL, page("strftime"), "strftime")
            store.add(ORIGINAL, fingerprint)
            await store.flush()
            found = {}
            for keep in (True, False):  # a new process: in memory, then lookup mode
                rebuilt = ContentSeenTest(keep_minutiae=keep)
                assert await FingerprintStore(pool, crawl_id, rebuilt.scheme).load(
                    rebuilt) == (1, 0)
                stored = None if keep else {ORIGINAL: fingerprint.minutiae}
                found[f"keep={keep}"] = tuple(
                    rebuilt.find(url, rebuilt.fingerprint(page(title, NEAR_1)), stored,
                                 title=title)
                    for url, title in (("http://docs.test/wcsftime.html", "wcsftime"),
                                       ("http://docs.test/print.html", "Strftime"))
                )
            return found

    for label, (other_title, same_title) in asyncio.run(scenario()).items():
        assert other_title is None, label
        assert same_title is not None and same_title.original == ORIGINAL, label


def test_the_shared_test_takes_the_candidates_titles_from_their_pages_rows(
    database_url: str, crawl_id: str, db: psycopg.Connection
) -> None:
    store_page(db, crawl_id, ORIGINAL, "strftime", BODY)

    async def scenario() -> list[Duplicate | None]:
        async with AsyncConnectionPool(database_url, min_size=1, open=False) as pool:
            shared = SharedContentSeen(pool, crawl_id, ContentSeenTest(keep_minutiae=False))

            def fingerprint(title: str, body: str = NEAR_1) -> PageFingerprint:
                return shared.test.fingerprint(page(title, body))

            assert await shared.check(ORIGINAL, fingerprint("strftime", BODY), "strftime") is None
            found = [await shared.check("http://docs.test/wcsftime.html",
                                        fingerprint("wcsftime"), "wcsftime")]
            # the storage pipeline stores the admitted page (a page without its row yet
            # has no title for the shared test: docs/dedup.md)
            store_page(db, crawl_id, "http://docs.test/wcsftime.html", "wcsftime", NEAR_1)
            found.append(await shared.check("http://docs.test/print.html",
                                            fingerprint("strftime"), "STRFTIME"))
            found.append(await shared.check("http://mirror.test/strftime.html",
                                            fingerprint("Mirror: strftime"), "Mirror: strftime"))
            return found

    other_title, same_title, other_host = asyncio.run(scenario())
    assert other_title is None
    assert same_title is not None and same_title.original == ORIGINAL
    # the page of another title was admitted, so the mirror's nearest is one of the two
    assert other_host is not None and not other_host.exact
    assert other_host.original in (ORIGINAL, "http://docs.test/wcsftime.html")
    rows = db.execute("SELECT url FROM page_fingerprints WHERE crawl_id = %s ORDER BY seq",
                      (crawl_id,)).fetchall()
    assert [r[0] for r in rows] == [ORIGINAL, "http://docs.test/wcsftime.html"]


# ----------------------------------------------------------------------- in a crawl


def test_the_middleware_reads_the_setting_once() -> None:
    from scrapy.utils.test import get_crawler

    from crawler.middlewares.content_seen import ContentSeenMiddleware

    for value, expected in ((None, True), ("False", False), ("1", True)):
        settings = {} if value is None else {"DEDUP_SAME_HOST_TITLES_DIFFER": value}
        middleware = ContentSeenMiddleware.from_crawler(get_crawler(settings_dict=settings))
        assert middleware.same_host_titles_differ is expected


@pytest.mark.slow
def test_a_crawl_keeps_a_sites_pages_of_other_titles(sandbox, run_crawl, db) -> None:
    """One crawl in lookup mode (the candidates' minutiae from PostgreSQL, which takes
    the in-memory mode's code path too), one request at a time, breadth first: the same
    host's near copy of another title is stored, its same-title near copy and the other
    host's copy are near duplicates, the exact copy under another title an exact one."""
    from crawler.sandbox import SandboxWeb, html_page

    body, near = f"<p>{BODY}</p>", f"<p>{NEAR_1}</p>"
    pages = {
        "http://docs.test/strftime.html": ("strftime", body),
        "http://docs.test/wcsftime.html": ("wcsftime", near),
        "http://docs.test/print/strftime.html": ("STRFTIME", near),
        "http://docs.test/copy.html": ("strftime()", body),
        "http://mirror.test/strftime.html": ("Mirror: strftime", body),
    }
    web = SandboxWeb()
    links = "".join(f'<a href="{url}">page {n}</a> ' for n, url in enumerate(pages))
    web.add_page("http://docs.test/", html_page("Reference", f"<p>{links}</p>"))
    for url, (title, html) in pages.items():
        web.add_page(url, html_page(title, html))
    server = sandbox(web)
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://docs.test/", "strategy": "bfs",
              "allowed_domains": "docs.test,mirror.test"},
        settings={"CONCURRENT_REQUESTS": 1, "DEPTH_LIMIT": 0, "RETRY_TIMES": 0,
                  "SEARCH_INDEX_ENABLED": False, "DEDUP_MINUTIAE_IN_MEMORY": False,
                  # the first copy seen is kept (the mirror, linked from docs.test, would
                  # outweigh the original: crawler/dedup/authority.py)
                  "DEDUP_KEEP_AUTHORITATIVE": False},
    ).check()
    stored = {url for (url,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (result.crawl_id,))}
    assert stored == {"http://docs.test/", "http://docs.test/strftime.html",
                      "http://docs.test/wcsftime.html"}
    found = {url: Duplicate.parse_detail(detail) for url, detail in db.execute(
        "SELECT url, detail FROM uncrawled WHERE crawl_id = %s AND category = "
        "'duplicate_content'", (result.crawl_id,))}
    assert {url: (d.original, d.exact) for url, d in found.items()} == {
        "http://docs.test/print/strftime.html": (ORIGINAL, False),
        "http://docs.test/copy.html": (ORIGINAL, True),
        "http://mirror.test/strftime.html": (ORIGINAL, False),
    }
    stats = crawl_stats(db, result.crawl_id)
    assert (stats["dedup/exact"], stats["dedup/near"]) == (1, 2)
