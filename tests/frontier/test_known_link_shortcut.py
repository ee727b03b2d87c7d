"""The general spider's known-link shortcut: when it applies, and what it asks of the
frontier (tests/e2e/test_page_analysis_crawl.py compares whole crawls with and without)."""

from __future__ import annotations

import asyncio

from scrapy.http import HtmlResponse, Request
from scrapy.utils.project import get_project_settings
from scrapy.utils.test import get_crawler

from crawler.frontier.links import LinkEvent
from crawler.frontier.seen import url_fingerprint
from crawler.middlewares.content_seen import LINKS_FOLLOWED_META
from crawler.middlewares.known_links import KnownLinkShortcut
from crawler.politeness.traps import TrapGuard
from crawler.spiders.focused import FocusedSpider
from crawler.spiders.general import GeneralSpider
from tests.frontier.graphs import make_frontier
from tests.frontier.test_frontier import add

SEEN = [
    "http://h.test/",
    "http://h.test/a",
    "http://h.test/a?page=2",
    "http://h.test/x/x/x/x/x/",
]


def response(depth: int, followed: bool | None) -> HtmlResponse:
    meta = {"depth": depth}
    if followed is not None:
        meta[LINKS_FOLLOWED_META] = followed
    return HtmlResponse("http://h.test/", body=b"", request=Request("http://h.test/", meta=meta))


def event(url: str) -> LinkEvent:
    return LinkEvent(
        url=url, source="http://h.test/", source_depth=0, source_cash=1.0, n_inter=0,
        n_intra=3, inter=False, visibility=1, position=1, distance=1, anchor="",
    )


class FrontierScheduler:
    """The scheduler's absorb_known_url over a real frontier."""

    def __init__(self, frontier) -> None:
        self.frontier = frontier

    def absorb_known_url(self, url, stats) -> bool:
        return self.frontier.absorb_seen(url_fingerprint(url), stats)


def test_the_shortcut_takes_only_links_whose_middleware_verdicts_are_known():
    async def run():
        frontier = make_frontier("backlink")
        await frontier.open()
        for url in SEEN:
            add(frontier, url)
        stats = get_crawler(GeneralSpider).stats
        guard = TrapGuard(max_url_length=2000, max_path_repetitions=3, max_query_variants=0,
                          max_tracked_paths=10)
        shortcut = KnownLinkShortcut(
            lambda: FrontierScheduler(frontier), lambda: stats, max_depth=2, guard=guard
        )
        # not judged yet, a duplicate's links, links beyond DEPTH_LIMIT: no shortcut
        assert shortcut.page_depth(response(0, None)) is None
        assert shortcut.page_depth(response(0, False)) is None
        assert shortcut.page_depth(response(2, True)) is None
        depth = shortcut.page_depth(response(1, True))
        assert depth == 2
        taken = [url for url in [*SEEN, "http://h.test/new", "http://h.té.test/"]
                 if shortcut.absorb(event(url), depth)]
        # a query (URL-parameter rules, query-variant traps), a trap's path, an unseen URL
        # and a URL that is not ASCII go the middlewares' way
        assert taken == ["http://h.test/", "http://h.test/a"]
        assert frontier.counters.duplicates == 2
        row = frontier.buffer.get(url_fingerprint("http://h.test/a"))
        assert row is not None and row.stats.backlinks == 2
        shortcut.page_done(len(taken), depth)
        assert stats.get_value("frontier/known_links") == 2
        assert stats.get_value("frontier/known_links/shortcut") == 2
        assert stats.get_value("request_depth_max") == 2

    asyncio.run(run())


def project_crawler(**changes):
    # the project's spider middlewares (settings.py), changed
    middlewares = get_project_settings().getdict("SPIDER_MIDDLEWARES")
    middlewares.update(changes.pop("SPIDER_MIDDLEWARES", {}))
    return get_crawler(GeneralSpider, {"SPIDER_MIDDLEWARES": middlewares, **changes})


def test_the_shortcut_is_off_where_a_middleware_it_does_not_know_judges_links():
    assert KnownLinkShortcut.from_crawler(project_crawler()) is not None
    off = [
        {"KNOWN_LINKS_SHORTCUT": False},
        {"SPIDER_MIDDLEWARES": {"crawler.middlewares.known_links.KnownLinksMiddleware": None}},
        {"SPIDER_MIDDLEWARES": {"crawler.middlewares.content_seen.ContentSeenMiddleware": None}},
        {"SPIDER_MIDDLEWARES": {"scrapy.spidermiddlewares.urllength.UrlLengthMiddleware": 870}},
    ]
    for changes in off:
        assert KnownLinkShortcut.from_crawler(project_crawler(**changes)) is None
    # a spider that scores its links itself never takes it
    assert not FocusedSpider.absorbs_known_links and GeneralSpider.absorbs_known_links
