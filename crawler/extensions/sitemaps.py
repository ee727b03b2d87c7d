"""The sitemaps named in robots.txt (ROBOTS_FOLLOW_SITEMAPS), as an extension.

One job: on Scrapy's ``robots_parsed`` signal every new ``Sitemap:`` is fetched once
(through the downloader middlewares, so robots rules, delays and budget apply); sitemap
index files are followed two levels deep, gzipped sitemaps decompressed, and each
``<loc>`` scheduled with the spider's ``seed_request()`` at depth 1, at most
ROBOTS_SITEMAP_MAX_URLS per process.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import NotConfigured
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import Sitemap

from crawler import defaults
from crawler.urls import canonical_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

# Sitemap index files nest at most this deep (an index naming indexes naming sitemaps).
_SITEMAP_MAX_NESTING = 2


class RobotsSitemaps:
    def __init__(self, crawler: Crawler, *, max_urls: int, max_size: int) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.max_urls = max_urls
        self.max_size = max_size
        self._seen: set[str] = set()
        self._scheduled = 0
        crawler.signals.connect(self.robots_parsed, signal=signals.robots_parsed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsSitemaps:
        settings = crawler.settings
        if not settings.getbool("ROBOTS_FOLLOW_SITEMAPS", defaults.ROBOTS_FOLLOW_SITEMAPS):
            raise NotConfigured
        return cls(
            crawler,
            max_urls=settings.getint("ROBOTS_SITEMAP_MAX_URLS", defaults.ROBOTS_SITEMAP_MAX_URLS),
            max_size=settings.getint("DOWNLOAD_MAXSIZE"),
        )

    def robots_parsed(self, robotparser: Any, request: Request) -> None:
        for url in getattr(robotparser, "sitemaps", ()):
            sitemap = canonical_url(url)
            if sitemap and sitemap not in self._seen:
                self._seen.add(sitemap)
                fetching = deferred_from_coro(self._fetch_sitemap(sitemap, 0))
                fetching.addErrback(
                    lambda failure, url=sitemap: logger.error(
                        "sitemap %s: %s", url, failure.getErrorMessage()
                    )
                )

    async def _fetch_sitemap(self, url: str, nesting: int) -> None:
        if self._scheduled >= self.max_urls:
            return
        request = Request(
            url, priority=RobotsTxtMiddleware.DOWNLOAD_PRIORITY - 1, callback=NO_CALLBACK,
            dont_filter=True,
        )
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:
            logger.info("sitemap %s not fetched: %s", url, exc)
            self.stats.inc_value("robotstxt/sitemap_errors")
            return
        body = self._sitemap_body(response)
        if response.status != 200 or body is None:
            logger.info("sitemap %s: HTTP %d, not a sitemap", url, response.status)
            self.stats.inc_value("robotstxt/sitemap_errors")
            return
        try:
            sitemap = Sitemap(body)
        except Exception as exc:  # lxml gives up on some garbage
            logger.info("sitemap %s unreadable: %s", url, exc)
            self.stats.inc_value("robotstxt/sitemap_errors")
            return
        self.stats.inc_value("robotstxt/sitemap_count")
        locations = [entry["loc"] for entry in sitemap if entry.get("loc")]
        if sitemap.type == "sitemapindex":
            if nesting >= _SITEMAP_MAX_NESTING:
                return
            for loc in locations:
                child = canonical_url(loc)
                if child and child not in self._seen:
                    self._seen.add(child)
                    await self._fetch_sitemap(child, nesting + 1)
            return
        if sitemap.type != "urlset":
            return
        spider = self.crawler.spider
        make_request = getattr(spider, "seed_request", None)
        for loc in locations:
            if self._scheduled >= self.max_urls:
                logger.info("ROBOTS_SITEMAP_MAX_URLS (%d) reached", self.max_urls)
                return
            target = canonical_url(loc)
            if target is None:
                continue
            page_request = make_request(target) if make_request else Request(target)
            page_request.meta.setdefault("depth", 1)
            page_request.meta["sitemap"] = url
            self._scheduled += 1
            self.stats.inc_value("robotstxt/sitemap_urls")
            self.crawler.engine.crawl(page_request)

    def _sitemap_body(self, response: Response) -> bytes | None:
        if gzip_magic_number(response):
            try:
                return gunzip(response.body, max_size=self.max_size)
            except Exception:
                return None
        return response.body
