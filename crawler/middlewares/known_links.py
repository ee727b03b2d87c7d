"""Links to URLs the frontier has seen stop here (spider middleware).

Documentation pages repeat their navigation: on a web of such sites most link requests a
page yields are to URLs seen before. Each went on through the referer middleware and the
engine to the scheduler, whose only work was to raise the URL's score, and came back as a
``request_dropped`` signal; that was about a sixth of the crawl thread's time
(docs/performance.md). Placed after the depth, URL-rule and trap middlewares (which keep
their say over every link), this middleware hands such a link to the scheduler's
``absorb_known_link`` (the same score update) and yields nothing for it. With another
scheduler (a spider's own SCHEDULER), or a request that is not a plain link, nothing
changes.

Stats: ``frontier/known_links`` (link requests that stopped here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class KnownLinksMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.stats = crawler.stats

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None:  # start requests (seeds)
            return request
        engine = self.crawler.engine
        scheduler = engine.scheduler if engine is not None else None
        absorb = getattr(scheduler, "absorb_known_link", None)
        if absorb is None or not absorb(request):
            return request
        self.stats.inc_value("frontier/known_links")
        return None
