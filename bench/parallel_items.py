"""CPU per response of Scrapy's handling of a callback's output, by CONCURRENT_ITEMS
(prints numbers).

Scrapy 2.19 (``Scraper.handle_spider_output_async``, with an asyncio event loop) hands
each response's output to ``scrapy.utils.asyncio._parallel_asyncio``, which starts
CONCURRENT_ITEMS worker tasks and a queue of twice that size *per response*, however
few outputs the response has. A page of ours yields one item and its links.

This runs a real ``Scraper`` (spider middlewares and item pipelines of a plain Scrapy
crawler, none of ours) over ``--responses`` responses, each yielding one item and
``--links`` requests through an asynchronous generator (as our content-seen middleware's
``process_spider_output`` is one), and prints the CPU time (``time.process_time``) per
response for each CONCURRENT_ITEMS value. The engine is a stand-in whose ``crawl``
only counts requests: scheduling is not what is measured here.

    .venv/bin/python bench/parallel_items.py [--responses 3000] [--links 40]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, Spider
from scrapy.core.scraper import Scraper
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse

VALUES = (100, 16, 8, 4, 1)


class _Spider(Spider):
    name = "parallel-items"


class _CountingEngine:
    """Only what Scraper calls for a Request output: ``crawl``."""

    def __init__(self) -> None:
        self.crawled = 0

    def crawl(self, request: Request) -> None:
        self.crawled += 1


async def _output(item: dict[str, Any], requests: list[Request]) -> AsyncIterator[Any]:
    yield item
    for request in requests:
        yield request


async def measure(concurrent_items: int, responses: int, links: int) -> tuple[float, int]:
    """CPU ms per response, and the requests the engine received."""
    crawler = Crawler(
        _Spider,
        {
            "CONCURRENT_ITEMS": concurrent_items,
            "LOG_ENABLED": False,
            # the asyncio event loop of asyncio.run, as under the asyncio reactor
            "TWISTED_REACTOR_ENABLED": False,
        },
    )
    crawler._apply_settings()
    crawler.spider = crawler._create_spider()
    engine = _CountingEngine()
    crawler.engine = engine  # type: ignore[assignment]
    scraper = Scraper(crawler)
    await scraper.open_spider_async()
    request = Request("http://a.test/")
    response = HtmlResponse("http://a.test/", body=b"<html></html>", request=request)
    links_out = [Request(f"http://a.test/{i}") for i in range(links)]
    start = time.process_time()
    for n in range(responses):
        item = {"url": f"http://a.test/{n}"}
        await scraper.handle_spider_output_async(_output(item, links_out), request, response)
    cpu = time.process_time() - start
    return 1000 * cpu / responses, engine.crawled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--responses", type=int, default=3000)
    parser.add_argument("--links", type=int, default=40, help="requests yielded per response")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.responses} responses, each 1 item + {args.links} requests")
    for round_ in range(1, args.rounds + 1):
        for value in VALUES:
            ms, crawled = asyncio.run(measure(value, args.responses, args.links))
            assert crawled == args.responses * args.links
            load = open("/proc/loadavg").read().split()[0]
            print(
                f"  round {round_} CONCURRENT_ITEMS={value:<3}  {ms:.3f} ms CPU per "
                f"response (load {load})",
                flush=True,
            )


if __name__ == "__main__":
    main()
