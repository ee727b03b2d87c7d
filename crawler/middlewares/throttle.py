"""AutoThrottle that never lowers a slot's delay below its Crawl-delay.

Scrapy's AutoThrottle clamps the delays it computes to [DOWNLOAD_DELAY,
AUTOTHROTTLE_MAX_DELAY] only, so it would undo a robots.txt Crawl-delay. This extension
(an EXTENSIONS entry replacing Scrapy's; enabled by AUTOTHROTTLE_ENABLED as usual) also
keeps every slot at or above the delay its slot settings (DownloaderSlots.configured)
name, where the Crawl-delay extension puts Crawl-delay (and DOWNLOAD_SLOTS puts yours).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.extensions.throttle import AutoThrottle

from crawler.downloader.slots import DownloaderSlots

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class CrawlDelayAutoThrottle(AutoThrottle):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.slots = DownloaderSlots.from_crawler(crawler)

    def _response_downloaded(self, response: Response, request: Request, spider: Spider) -> None:
        super()._response_downloaded(response, request, spider)
        key, slot = self._get_slot(request, spider)
        if key is None or slot is None:
            return
        floor = (self.slots.configured(key) or {}).get("delay")
        if floor is not None and slot.delay < float(floor):
            slot.delay = float(floor)
