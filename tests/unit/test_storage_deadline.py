"""The storage deadline counts from the response's arrival (docs/performance.md, kill
window): the engine's response_received signal stamps the request, the spider copies the
stamp into its PageItem, the pipeline's write schedule starts from it."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest
from scrapy import Request, signals
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.items import RECEIVED_AT_META, PageItem
from crawler.pipelines.postgres import PostgresStorePipeline
from crawler.spiders.general import GeneralSpider

INTERVAL = 2.0


def _pipeline() -> PostgresStorePipeline:
    # never opened: process_item only buffers, and no database is reached
    crawler = get_crawler(GeneralSpider, {"STORE_FLUSH_INTERVAL": INTERVAL})
    return PostgresStorePipeline.from_crawler(crawler)


def _page(url: str, received_at: float | None) -> PageItem:
    return PageItem(url=url, final_url=url, host="a.test", status=200,
                    content_type="text/html", fetched_at=datetime.now(UTC), depth=0, size=1,
                    content_md5="0" * 32, received_at=received_at)


def test_the_engine_signal_stamps_the_request_when_its_response_arrives() -> None:
    pipeline = _pipeline()
    request = Request("http://a.test/")
    response = HtmlResponse("http://a.test/", body=b"<html></html>", request=request)
    before = time.time()
    pipeline.crawler.signals.send_catch_log(
        signals.response_received, response=response, request=request, spider=None
    )
    assert before <= request.meta[RECEIVED_AT_META] <= time.time()


def test_the_spider_copies_the_stamp_into_its_page_item() -> None:
    spider = get_crawler(GeneralSpider)._create_spider(seed_urls="http://a.test/",
                                                         crawl_id="deadline")
    request = Request("http://a.test/page", meta={"depth": 0, RECEIVED_AT_META: 1234.5})
    response = HtmlResponse("http://a.test/page", body=b"<html><title>t</title></html>",
                            encoding="utf-8", request=request,
                            headers={"Content-Type": "text/html"})
    pages = [out for out in spider.parse(response) if isinstance(out, PageItem)]
    assert [p.received_at for p in pages] == [1234.5]


@pytest.mark.parametrize(
    ("age", "counted_age"),
    [
        (1.5, 1.5),  # waited 1.5 s to be parsed: 0.5 s left before the write must end
        (10.0, INTERVAL),  # older than the interval: written at once, nothing earlier
        (-5.0, 0.0),  # a stamp from the future counts as now
        (None, 0.0),  # no stamp (a replayed item): counted from now
    ],
)
def test_the_write_deadline_counts_from_the_stamp(age: float | None,
                                                  counted_age: float) -> None:
    pipeline = _pipeline()
    now = time.time()
    item = _page("http://a.test/p", None if age is None else now - age)
    asyncio.run(pipeline.process_item(item))
    assert pipeline.pages == {"http://a.test/p": item}
    assert pipeline.schedule.deadline == pytest.approx(now - counted_age + INTERVAL, abs=0.2)
