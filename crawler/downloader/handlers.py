"""Scrapy's HTTP/1.1 download handler without twisted's hidden automatic retry.

Twisted's ``HTTPConnectionPool`` silently sends an idempotent request a second time when
it failed on a reused keep-alive connection before any response (``retryAutomatically``,
on by default; scrapy/scrapy#3997). A host that drops every connection (the sandbox's
unknown hosts, a dead origin behind a proxy) then costs two requests per attempt, and
RETRY_TIMES no longer says how many requests a URL may cost. With this handler the only
retries are RetryMiddleware's, so a dead host's robots.txt costs exactly one request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


class ExplicitRetryHTTPDownloadHandler(HTTP11DownloadHandler):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._pool.retryAutomatically = False
