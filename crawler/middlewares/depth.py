"""The depth threshold ("crawl & stop with threshold") as a spider middleware.

Scrapy's DepthMiddleware (``meta["depth"]``, DEPTH_PRIORITY, ``meta["depth_reset"]``)
whose refused requests are not dropped silently: each URL beyond DEPTH_LIMIT is emitted
once as ``UncrawledItem(url, "depth_exceeded")`` in place of its request. The project
sets DEPTH_LIMIT = 10 (0 means no limit).

A link beyond the limit to a URL that was scheduled at a lower depth (a navigation link
back to the home page, say) records nothing: the URLs let through are remembered, at
least the last UNCRAWLED_RECORD_ONCE_MAX of them. Beyond that memory, the database keeps
things right: ``depth_exceeded`` is a weak category that never replaces another row of
the same URL, and a URL stored as a page keeps no such row (schema migration "weak
uncrawled categories").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.spidermiddlewares.depth import DepthMiddleware

from crawler import defaults
from crawler.items import UncrawledItem
from crawler.politeness.once import RecentKeys
from crawler.urls import canonical_url

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class DepthLimitMiddleware(DepthMiddleware):
    scheduled: RecentKeys  # URLs let through (depth within the limit)
    recorded: RecentKeys  # URLs recorded as depth_exceeded

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DepthLimitMiddleware:
        middleware = super().from_crawler(crawler)
        capacity = crawler.settings.getint(
            "UNCRAWLED_RECORD_ONCE_MAX", defaults.UNCRAWLED_RECORD_ONCE_MAX
        )
        middleware.scheduled = RecentKeys(capacity)
        middleware.recorded = RecentKeys(capacity)
        return middleware

    def get_processed_request(  # type: ignore[override]
        self, request: Request, response: Response | None
    ) -> Request | UncrawledItem | None:
        processed = super().get_processed_request(request, response)
        if not self.maxdepth:
            return processed
        url = canonical_url(request.url) or request.url
        if processed is not None or response is None:
            self.scheduled.add(url)
            return processed
        if url in self.scheduled or not self.recorded.add(url):
            return None
        self.stats.inc_value("depth/recorded_count")
        depth: Any = request.meta.get("depth")
        return UncrawledItem(
            url, "depth_exceeded", f"depth {depth} > DEPTH_LIMIT {self.maxdepth}"
        )
