"""robots.txt ``Crawl-delay`` / ``Request-rate`` as the delay of the host's downloader slot.

An extension with one job: when RobotsExclusionMiddleware decides an origin's rules
(signal ``robots_rules_known``, sent before the requests waiting for them resume), the
requested gap (capped by ROBOTSTXT_MAX_CRAWL_DELAY) becomes the delay of the host's
downloader slot, live and in the slot's settings (DownloaderSlots.configure) so a slot
re-created after garbage collection keeps it. Such slots get no jitter, and their
``slot.lastseen`` also moves to the arrival of each response: the delay is a minimum gap
between the requests as the server sees them. Schedulers read
``slot.delay``/``slot.lastseen``.
"""

from __future__ import annotations

import logging
from time import monotonic
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from crawler import defaults
from crawler.downloader.slots import DownloaderSlots
from crawler.middlewares.robots import robots_rules_known
from crawler.middlewares.useragent import crawler_user_agent
from crawler.politeness.robots import RobotsRules, capped_delay, product_token

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


class CrawlDelay:
    def __init__(
        self,
        crawler: Crawler,
        *,
        product_token: str,
        max_crawl_delay: float,
        base_delay: float,
        autothrottle: bool,
    ) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.slots = DownloaderSlots.from_crawler(crawler)
        self.product_token = product_token
        self.max_crawl_delay = max_crawl_delay
        self.base_delay = base_delay
        self.autothrottle = autothrottle
        # slot key (host name) -> origin -> delay asked by that origin's robots.txt
        self._host_delays: dict[str, dict[str, float]] = {}
        # slot key -> the DOWNLOAD_SLOTS entry it had before a Crawl-delay was applied
        self._original_slot_settings: dict[str, dict[str, Any] | None] = {}
        # slots whose delay comes from robots.txt: timed from each response too
        self._crawl_delay_slots: set[str] = set()
        crawler.signals.connect(self.rules_known, signal=robots_rules_known)
        crawler.signals.connect(self._response_downloaded, signal=signals.response_downloaded)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlDelay:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        return cls(
            crawler,
            product_token=product_token(
                settings.get("ROBOTSTXT_USER_AGENT") or crawler_user_agent(settings)
            ),
            max_crawl_delay=settings.getfloat(
                "ROBOTSTXT_MAX_CRAWL_DELAY", defaults.ROBOTSTXT_MAX_CRAWL_DELAY
            ),
            base_delay=settings.getfloat("DOWNLOAD_DELAY"),
            autothrottle=settings.getbool("AUTOTHROTTLE_ENABLED"),
        )

    def rules_known(self, rules: RobotsRules, request: Request) -> None:
        # the host's slot, or its server's with POLITENESS_KEY=ip: the largest delay asked
        # by the hosts of one server is that server's
        slot_key = self.slots.server_key(urlparse_cached(request).hostname or "")
        requested = rules.requested_delay(self.product_token)
        delay = capped_delay(requested, self.max_crawl_delay)
        if requested is not None and delay is not None and delay < requested:
            logger.info(
                "%s asks for %.1f s between requests: capped to %.1f s (ROBOTSTXT_MAX_CRAWL_DELAY)",
                rules.describe(),
                requested,
                delay,
            )
        delays = self._host_delays.setdefault(slot_key, {})
        if delay is None and rules.origin not in delays:
            return
        if delay is None:
            del delays[rules.origin]
        else:
            delays[rules.origin] = delay
        self.set_slot_delay(slot_key, max(delays.values(), default=None))

    def set_slot_delay(self, slot_key: str, crawl_delay: float | None) -> None:
        """Make ``crawl_delay`` the minimum delay of the downloader slot ``slot_key``
        (None: back to the slot's configured delay)."""
        slots = self.slots
        if slot_key not in self._original_slot_settings:
            original = slots.configured(slot_key)
            self._original_slot_settings[slot_key] = dict(original) if original else None
        original = self._original_slot_settings[slot_key]
        base = float((original or {}).get("delay", self.base_delay))
        slot = slots.slot(slot_key)
        if crawl_delay is None:
            self._crawl_delay_slots.discard(slot_key)
            slots.configure(slot_key, dict(original) if original is not None else None)
            if slot is not None:
                slot.delay = base
                slot.jitter = float((original or {}).get("jitter", slots.default_jitter))
            return
        floor = max(base, crawl_delay)
        slots.configure(slot_key, {**(original or {}), "delay": floor, "jitter": 0.0})
        if slot is not None:
            slot.delay = max(slot.delay, floor) if self.autothrottle else floor
            slot.jitter = 0.0
            # the robots.txt response just arrived: time the first page from it
            slot.lastseen = max(slot.lastseen, monotonic())
        self._crawl_delay_slots.add(slot_key)
        self.stats.set_value(f"robotstxt/crawl_delay/{slot_key}", floor)
        logger.debug("slot %s: delay %.2f s from robots.txt", slot_key, floor)

    def _response_downloaded(self, response: Response, request: Request) -> None:
        """Time a Crawl-delay slot's gap from the response too, not only from the moment
        the request was dispatched. The downloader marks ``slot.lastseen`` when it hands a
        request over, which can be well before the request reaches the wire (connection
        set-up, a busy event loop); the response, though, arrives after the server saw the
        request. So the next request, sent a delay after both, reaches the server at least
        a delay after the previous one whatever the latency. Runs before the downloader
        picks the slot's next request."""
        key = request.meta.get("download_slot")
        if key in self._crawl_delay_slots:
            slot = self.slots.slot(key)
            if slot is not None:
                slot.lastseen = max(slot.lastseen, monotonic())
