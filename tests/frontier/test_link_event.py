"""LinkEvent (crawler/frontier/links.py): built by the spider from a real response,
consumed by the real BestFirstScheduler with its PostgreSQL store."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.squeues import PickleFifoDiskQueue
from scrapy.utils.test import get_crawler

from crawler.frontier.links import LinkEvent
from crawler.frontier.scores import link_event
from crawler.schedulers.best_first import BestFirstScheduler
from crawler.spiders.general import GeneralSpider

PAGE = b"""<html><head><title>Source</title></head><body>
<p>Read <a href="http://www.b.test/Story?z=1&a=2#top">the story</a> today.</p>
<p><a href="/about">About us</a> <a href="http://a.test/contact">Contact</a></p>
</body></html>"""


def _crawler(database_url: str, crawl_id: str) -> Any:
    crawler = get_crawler(GeneralSpider, {"CRAWLER_DATABASE_URL": database_url})
    crawler.spider = crawler._create_spider(seed_urls="http://a.test/", crawl_id=crawl_id)
    crawler.engine = crawler._create_engine()
    return crawler


def _response(url: str = "http://a.test/news", body: bytes = PAGE) -> HtmlResponse:
    """A fetched page: scheduled at depth 2 with cash 0.6, reached through a redirect."""
    request = Request(
        url,
        meta={
            "depth": 2,
            "frontier": {"cash": 0.6, "fp": 1, "score": 0.0, "inter": True, "stats": {}},
            "redirect_urls": ["http://A.test/old-news?b=2&a=1"],
        },
    )
    return HtmlResponse(
        url,
        body=body,
        encoding="utf-8",
        request=request,
        headers={"Content-Type": "text/html; charset=utf-8"},
    )


def _link_requests(spider: GeneralSpider, response: HtmlResponse) -> list[Request]:
    return [out for out in spider.parse(response) if isinstance(out, Request)]


def test_the_spider_puts_a_typed_link_event_in_each_link_request():
    crawler = get_crawler(GeneralSpider)
    spider = crawler._create_spider(seed_urls="http://a.test/", crawl_id="links")
    requests = _link_requests(spider, _response())
    events = {r.url: r.meta["link"] for r in requests}
    assert all(isinstance(event, LinkEvent) for event in events.values())
    story = "http://www.b.test/Story?a=2&z=1"  # canonical
    assert sorted(events) == ["http://a.test/about", "http://a.test/contact", story]
    assert events[story] == LinkEvent(
        url=story,
        source="http://a.test/old-news?a=1&b=2",  # the scheduled URL: first of the redirects
        source_depth=2,
        source_cash=0.6,
        n_inter=1,
        n_intra=2,
        inter=True,
        visibility=events[story].visibility,
        position=events[story].position,
        distance=events[story].distance,
        anchor="the story",
    )
    about = events["http://a.test/about"]
    assert (about.inter, about.anchor, about.n_inter, about.n_intra) == (False, "About us", 1, 2)
    for event in events.values():
        assert event.url == next(r.url for r in requests if r.meta["link"] is event)


def test_the_scheduler_turns_link_events_into_url_statistics(migrated, crawl_row):
    crawler = _crawler(migrated, crawl_row())
    spider = crawler.spider
    scheduler = BestFirstScheduler.from_crawler(crawler)
    requests = _link_requests(spider, _response())
    events = {r.url: r.meta["link"] for r in requests}
    # the same story linked from a second page of another site: a duplicate link event
    other = _response("http://c.test/", b'<a href="http://www.b.test/Story?a=2&z=1">s</a>')
    again = _link_requests(spider, other)
    expected = {
        url: link_event(
            depth=3,
            n_inter=e.n_inter,
            n_intra=e.n_intra,
            inter=e.inter,
            visibility=e.visibility,
            position=e.position,
            distance=e.distance,
            source_cash=e.source_cash,
        )
        for url, e in events.items()
    }
    story = "http://www.b.test/Story?a=2&z=1"
    expected[story].absorb(again[0].meta["link"].stats(None, 0.0))

    async def run() -> dict[str, dict[str, Any]]:
        await scheduler._open(spider)
        try:
            assert [scheduler.enqueue_request(r) for r in requests] == [True] * 3
            assert [scheduler.enqueue_request(r) for r in again] == [False]
            assert all("link" not in r.meta for r in requests + again)  # not stored
            handed = [scheduler.next_request() for _ in range(3)]
            return {r.url: r.meta["frontier"] for r in handed if r is not None}
        finally:
            await scheduler._close("finished")

    frontier = asyncio.run(run())
    assert sorted(frontier) == sorted(events)
    for url, meta in frontier.items():
        assert meta["stats"] == expected[url].as_dict(), url
        assert meta["inter"] is events[url].inter
    assert frontier[story]["stats"]["backlinks"] == 2


def test_a_link_dict_of_an_older_spider_scores_the_same(migrated, crawl_row):
    crawler = _crawler(migrated, crawl_row())
    spider = crawler.spider
    scheduler = BestFirstScheduler.from_crawler(crawler)
    typed = _link_requests(spider, _response())
    plain = [r.replace(url=r.url.replace("://", "://plain."), meta=dict(r.meta)) for r in typed]
    for request in plain:
        event = request.meta["link"]
        request.meta["link"] = {
            "url": request.url,
            "source": event.source,
            "source_depth": event.source_depth,
            "source_cash": event.source_cash,
            "n_inter": event.n_inter,
            "n_intra": event.n_intra,
            "inter": event.inter,
            "visibility": event.visibility,
            "position": event.position,
            "distance": event.distance,
            "anchor": event.anchor,
        }

    async def run() -> dict[str, dict[str, Any]]:
        await scheduler._open(spider)
        try:
            for request in typed + plain:
                assert scheduler.enqueue_request(request)
            handed = [scheduler.next_request() for _ in range(6)]
            return {r.url: r.meta["frontier"]["stats"] for r in handed if r is not None}
        finally:
            await scheduler._close("finished")

    stats = asyncio.run(run())
    assert len(stats) == 6
    for request in typed:
        assert stats[request.url.replace("://", "://plain.")] == stats[request.url]


def test_a_link_event_survives_scrapys_disk_queue(tmp_path):
    """With Scrapy's own scheduler and JOBDIR, link requests are pickled to disk."""
    crawler = get_crawler(GeneralSpider)
    crawler.spider = crawler._create_spider(seed_urls="http://a.test/", crawl_id="links")
    requests = _link_requests(crawler.spider, _response())
    key = str(tmp_path / "queue")
    queue = PickleFifoDiskQueue.from_crawler(crawler, key)
    for request in requests:
        queue.push(request)
    queue.close()
    queue = PickleFifoDiskQueue.from_crawler(crawler, key)
    for request in requests:
        stored = queue.pop()
        assert stored.url == request.url
        assert isinstance(stored.meta["link"], LinkEvent)
        assert stored.meta["link"] == request.meta["link"]
    queue.close()
    event = requests[0].meta["link"]
    assert pickle.loads(pickle.dumps(event, protocol=pickle.HIGHEST_PROTOCOL)) == event


def test_a_rewritten_link_keeps_its_event():
    event = LinkEvent("http://a.test/x?sid=1", "http://a.test/", 0, 1.0, 0, 1, False, 1, 1, 1, "")
    moved = event.to("http://a.test/x")
    assert moved.url == "http://a.test/x"
    assert moved.stats(None, 0.0) == event.stats(None, 0.0)
