"""Robots exclusion (RFC 9309) and Crawl-delay as a downloader middleware.

A subclass of Scrapy's RobotsTxtMiddleware with the semantics of
:mod:`crawler.politeness.robots`: 2xx parsed (first ROBOTSTXT_MAX_SIZE bytes), 4xx allow
all, 5xx/429/timeout/network error disallow all until a retry after
ROBOTSTXT_RETRY_INTERVAL, at most ROBOTSTXT_MAX_REDIRECTS redirects, one cache entry per
scheme+host+port kept ROBOTSTXT_CACHE_TTL seconds, matching with the product token of
the User-Agent. Every request waits for its origin's rules before it reaches the
downloader, so nothing but robots.txt leaves the process for a host before the decision.

Refusals raise :class:`RobotsDisallowed` (recorded as ``robots_disallowed``) or, when the
host could not be reached at all, :class:`RobotsUnreachable` carrying the failure's
category (``connection``, ``timeout``).

``Crawl-delay`` and ``Request-rate`` (capped by ROBOTSTXT_MAX_CRAWL_DELAY) become the
delay of the host's downloader slot, live and in ``Downloader.per_slot_settings`` so a
slot re-created after garbage collection keeps it. Such slots get no jitter, and their
``slot.lastseen`` also moves to the arrival of each response: the delay is a minimum gap
between the requests as the server sees them. Schedulers read
``slot.delay``/``slot.lastseen``.

With ROBOTS_FOLLOW_SITEMAPS the sitemaps named in robots.txt are fetched (through the
downloader middlewares, so robots rules and delays apply) and their URLs scheduled.
"""

from __future__ import annotations

import asyncio
import logging
from time import monotonic
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.sitemap import Sitemap

from crawler import defaults
from crawler.middlewares.useragent import crawler_user_agent
from crawler.politeness.robots import (
    PARSED,
    UNREACHABLE,
    RobotsCache,
    RobotsRules,
    capped_delay,
    product_token,
    robots_origin,
    robots_url,
    rules_after_failure,
    rules_from_response,
)
from crawler.urls import canonical_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

# Sitemap index files nest at most this deep (an index naming indexes naming sitemaps).
_SITEMAP_MAX_NESTING = 2


class RobotsDisallowed(IgnoreRequest):
    """The URL is disallowed for this crawler by its host's robots.txt."""


class RobotsUnreachable(IgnoreRequest):
    """The host's robots.txt could not be fetched at all: nothing is requested from the
    host until a retry succeeds. ``uncrawled_category`` is the fetch failure's category."""

    def __init__(self, message: str, category: str) -> None:
        super().__init__(message)
        self.uncrawled_category = category


class RobotsExclusionMiddleware(RobotsTxtMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        self.product_token = product_token(
            settings.get("ROBOTSTXT_USER_AGENT") or crawler_user_agent(settings)
        )
        self.ttl = settings.getfloat("ROBOTSTXT_CACHE_TTL", defaults.ROBOTSTXT_CACHE_TTL)
        self.retry_interval = settings.getfloat(
            "ROBOTSTXT_RETRY_INTERVAL", defaults.ROBOTSTXT_RETRY_INTERVAL
        )
        self.parse_limit = settings.getint("ROBOTSTXT_MAX_SIZE", defaults.ROBOTSTXT_MAX_SIZE)
        self.max_redirects = settings.getint(
            "ROBOTSTXT_MAX_REDIRECTS", defaults.ROBOTSTXT_MAX_REDIRECTS
        )
        self.max_crawl_delay = settings.getfloat(
            "ROBOTSTXT_MAX_CRAWL_DELAY", defaults.ROBOTSTXT_MAX_CRAWL_DELAY
        )
        self.follow_sitemaps = settings.getbool(
            "ROBOTS_FOLLOW_SITEMAPS", defaults.ROBOTS_FOLLOW_SITEMAPS
        )
        self.sitemap_max_urls = settings.getint(
            "ROBOTS_SITEMAP_MAX_URLS", defaults.ROBOTS_SITEMAP_MAX_URLS
        )
        self.base_delay = settings.getfloat("DOWNLOAD_DELAY")
        self.autothrottle = settings.getbool("AUTOTHROTTLE_ENABLED")
        self.cache = RobotsCache()
        self._pending: dict[str, asyncio.Future[RobotsRules]] = {}
        # slot key (host name) -> origin -> delay asked by that origin's robots.txt
        self._host_delays: dict[str, dict[str, float]] = {}
        # slot key -> the DOWNLOAD_SLOTS entry it had before a Crawl-delay was applied
        self._original_slot_settings: dict[str, dict[str, Any] | None] = {}
        self._sitemaps_seen: set[str] = set()
        self._sitemap_urls = 0
        # slots whose delay comes from robots.txt: timed from each response too
        self._crawl_delay_slots: set[str] = set()
        crawler.signals.connect(self._response_downloaded, signal=signals.response_downloaded)

    # --- decisions -------------------------------------------------------------------
    async def process_request(self, request: Request) -> None:  # type: ignore[override]
        if request.meta.get("dont_obey_robotstxt"):
            return
        if urlparse_cached(request).scheme not in ("http", "https"):
            return
        rules = await self.robot_parser(request)
        self.process_request_2(rules, request)  # type: ignore[arg-type]

    def process_request_2(self, rp: RobotsRules, request: Request) -> None:  # type: ignore[override]
        if rp.allowed(request.url, self.product_token):
            return
        if rp.state == UNREACHABLE:
            self._stats.inc_value("robotstxt/refused_unreachable")
            message = f"{rp.describe()}: host fully disallowed until robots.txt can be fetched"
            if rp.refusal_category != "robots_disallowed":
                raise RobotsUnreachable(message, rp.refusal_category)
            raise RobotsDisallowed(message)
        logger.debug("Forbidden by robots.txt: %s", request)
        self._stats.inc_value("robotstxt/forbidden")
        raise RobotsDisallowed(f"forbidden by {rp.describe()}")

    async def robot_parser(self, request: Request) -> RobotsRules:  # type: ignore[override]
        origin = robots_origin(request.url)
        rules = self.cache.get(origin, monotonic())
        if rules is not None:
            return rules
        pending = self._pending.get(origin)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[RobotsRules] = asyncio.get_running_loop().create_future()
        self._pending[origin] = future
        try:
            rules = await self._fetch_rules(origin, request)
        except Exception as exc:  # never leave waiting requests hanging
            logger.exception("robots.txt of %s: unexpected error", origin)
            rules = rules_after_failure(
                origin, f"{type(exc).__name__}: {exc}", monotonic(),
                retry_interval=self.retry_interval,
            )
        except BaseException:  # cancelled: the waiting requests are cancelled too
            future.cancel()
            raise
        finally:
            del self._pending[origin]
        self.cache.put(rules)
        try:
            # before the waiting requests resume: their slot must already be slowed down
            self._apply_crawl_delay(rules, urlparse_cached(request).hostname or "")
        finally:
            future.set_result(rules)
        if rules.state == PARSED and not rules.stale:
            await self.crawler.signals.send_catch_log_async(
                signal=signals.robots_parsed, robotparser=rules, request=request
            )
            self._follow_sitemaps(rules)
        return rules

    async def _fetch_rules(self, origin: str, request: Request) -> RobotsRules:
        robots_request = Request(
            robots_url(request.url),
            priority=self.DOWNLOAD_PRIORITY,
            meta={"dont_obey_robotstxt": True, "redirect_ttl": self.max_redirects},
            callback=NO_CALLBACK,
            dont_filter=True,
        )
        previous = self.cache.previous(origin)
        self._stats.inc_value("robotstxt/request_count")
        try:
            response = await self.crawler.engine.download_async(robots_request)
        except IgnoreRequest as exc:
            # too many redirects (RFC 9309 2.3.1.2: may be treated as unavailable)
            self._stats.inc_value("robotstxt/ignored")
            logger.info("robots.txt of %s unavailable (%s): allowing everything", origin, exc)
            return rules_from_response(
                origin, 404, b"", monotonic(), ttl=self.ttl,
                retry_interval=self.retry_interval,
            )
        except Exception as exc:
            from crawler.failures import categorize_failure  # imports this module

            category, detail = categorize_failure(exc)
            self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
            if category == "too_large":
                logger.info("robots.txt of %s too large (%s): allowing everything", origin, detail)
                return rules_from_response(
                    origin, 404, b"", monotonic(), ttl=self.ttl,
                    retry_interval=self.retry_interval,
                )
            if category not in ("connection", "timeout"):
                category = "robots_disallowed"
            rules = rules_after_failure(
                origin, detail, monotonic(), retry_interval=self.retry_interval,
                category=category, previous=previous,
            )
            logger.info(
                "robots.txt of %s unreachable (%s): host disallowed for %.0f s",
                origin, detail, self.retry_interval,
            )
            self._stats.inc_value("robotstxt/unreachable")
            return rules
        self._stats.inc_value("robotstxt/response_count")
        self._stats.inc_value(f"robotstxt/response_status_count/{response.status}")
        rules = rules_from_response(
            origin, response.status, response.body, monotonic(), ttl=self.ttl,
            retry_interval=self.retry_interval, parse_limit=self.parse_limit,
            previous=previous,
        )
        if rules.truncated:
            self._stats.inc_value("robotstxt/truncated")
            logger.info(
                "robots.txt of %s is %d bytes: only the first %d are parsed",
                origin, len(response.body), self.parse_limit,
            )
        if rules.state == UNREACHABLE:
            self._stats.inc_value("robotstxt/unreachable")
            logger.info(
                "robots.txt of %s answered HTTP %d: host disallowed for %.0f s",
                origin, response.status, self.retry_interval,
            )
        return rules

    # --- Crawl-delay -----------------------------------------------------------------
    def _apply_crawl_delay(self, rules: RobotsRules, slot_key: str) -> None:
        requested = rules.requested_delay(self.product_token)
        delay = capped_delay(requested, self.max_crawl_delay)
        if requested is not None and delay is not None and delay < requested:
            logger.info(
                "%s asks for %.1f s between requests: capped to %.1f s "
                "(ROBOTSTXT_MAX_CRAWL_DELAY)", rules.describe(), requested, delay,
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
        downloader = self.crawler.engine.downloader
        if slot_key not in self._original_slot_settings:
            original = downloader.per_slot_settings.get(slot_key)
            self._original_slot_settings[slot_key] = dict(original) if original else None
        original = self._original_slot_settings[slot_key]
        base = float((original or {}).get("delay", self.base_delay))
        slot = downloader.slots.get(slot_key)
        if crawl_delay is None:
            self._crawl_delay_slots.discard(slot_key)
            if original is None:
                downloader.per_slot_settings.pop(slot_key, None)
            else:
                downloader.per_slot_settings[slot_key] = dict(original)
            if slot is not None:
                slot.delay = base
                slot.jitter = float((original or {}).get("jitter", downloader._jitter))
            return
        floor = max(base, crawl_delay)
        downloader.per_slot_settings[slot_key] = {
            **(original or {}), "delay": floor, "jitter": 0.0,
        }
        if slot is not None:
            slot.delay = max(slot.delay, floor) if self.autothrottle else floor
            slot.jitter = 0.0
            # the robots.txt response just arrived: time the first page from it
            slot.lastseen = max(slot.lastseen, monotonic())
        self._crawl_delay_slots.add(slot_key)
        self._stats.set_value(f"robotstxt/crawl_delay/{slot_key}", floor)
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
            slot = self.crawler.engine.downloader.slots.get(key)
            if slot is not None:
                slot.lastseen = max(slot.lastseen, monotonic())

    # --- sitemaps --------------------------------------------------------------------
    def _follow_sitemaps(self, rules: RobotsRules) -> None:
        if not self.follow_sitemaps:
            return
        for url in rules.sitemaps:
            sitemap = canonical_url(url)
            if sitemap and sitemap not in self._sitemaps_seen:
                self._sitemaps_seen.add(sitemap)
                fetching = deferred_from_coro(self._fetch_sitemap(sitemap, 0))
                fetching.addErrback(
                    lambda failure, url=sitemap: logger.error(
                        "sitemap %s: %s", url, failure.getErrorMessage()
                    )
                )

    async def _fetch_sitemap(self, url: str, nesting: int) -> None:
        if self._sitemap_urls >= self.sitemap_max_urls:
            return
        request = Request(
            url, priority=self.DOWNLOAD_PRIORITY - 1, callback=NO_CALLBACK, dont_filter=True
        )
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:
            logger.info("sitemap %s not fetched: %s", url, exc)
            self._stats.inc_value("robotstxt/sitemap_errors")
            return
        body = self._sitemap_body(response)
        if response.status != 200 or body is None:
            logger.info("sitemap %s: HTTP %d, not a sitemap", url, response.status)
            self._stats.inc_value("robotstxt/sitemap_errors")
            return
        try:
            sitemap = Sitemap(body)
        except Exception as exc:  # lxml gives up on some garbage
            logger.info("sitemap %s unreadable: %s", url, exc)
            self._stats.inc_value("robotstxt/sitemap_errors")
            return
        self._stats.inc_value("robotstxt/sitemap_count")
        locations = [entry["loc"] for entry in sitemap if entry.get("loc")]
        if sitemap.type == "sitemapindex":
            if nesting >= _SITEMAP_MAX_NESTING:
                return
            for loc in locations:
                child = canonical_url(loc)
                if child and child not in self._sitemaps_seen:
                    self._sitemaps_seen.add(child)
                    await self._fetch_sitemap(child, nesting + 1)
            return
        if sitemap.type != "urlset":
            return
        spider = self.crawler.spider
        make_request = getattr(spider, "seed_request", None)
        for loc in locations:
            if self._sitemap_urls >= self.sitemap_max_urls:
                logger.info("ROBOTS_SITEMAP_MAX_URLS (%d) reached", self.sitemap_max_urls)
                return
            target = canonical_url(loc)
            if target is None:
                continue
            page_request = make_request(target) if make_request else Request(target)
            page_request.meta.setdefault("depth", 1)
            page_request.meta["sitemap"] = url
            self._sitemap_urls += 1
            self._stats.inc_value("robotstxt/sitemap_urls")
            self.crawler.engine.crawl(page_request)

    def _sitemap_body(self, response: Response) -> bytes | None:
        if gzip_magic_number(response):
            try:
                return gunzip(
                    response.body, max_size=self.crawler.settings.getint("DOWNLOAD_MAXSIZE")
                )
            except Exception:
                return None
        return response.body
