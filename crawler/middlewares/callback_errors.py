"""A spider callback that raises must not lose its URL: record it as uncrawled `other`."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from scrapy.http import Response

from crawler.items import UncrawledItem
from crawler.urls import scheduled_url

logger = logging.getLogger(__name__)


class CallbackErrorMiddleware:
    """Spider middleware turning an exception of a callback into an UncrawledItem."""

    def __init__(self, crawler: Any) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> CallbackErrorMiddleware:
        return cls(crawler)

    def process_spider_exception(
        self, response: Response, exception: Exception
    ) -> Iterable[UncrawledItem]:
        self.stats.inc_value("spider_exceptions/recorded")
        logger.error("callback failed on %s: %r", response.url, exception)
        detail = f"callback error: {type(exception).__name__}: {exception}"[:500]
        return [UncrawledItem(scheduled_url(response), "other", detail)]
