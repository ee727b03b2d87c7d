"""Robots exclusion (RFC 9309) as a downloader middleware: one job, the decision.

A subclass of Scrapy's RobotsTxtMiddleware with the semantics of
:mod:`crawler.politeness.robots`: 2xx parsed (first ROBOTSTXT_MAX_SIZE bytes), 4xx allow
all, 5xx/429/timeout/network error disallow all until a retry after
ROBOTSTXT_RETRY_INTERVAL, at most ROBOTSTXT_MAX_REDIRECTS redirects, one cache entry per
scheme+host+port kept ROBOTSTXT_CACHE_TTL seconds, matching with the product token of
the User-Agent. Every request waits for its origin's rules before it reaches the
downloader, so nothing but robots.txt leaves the process for a host before the decision.

robots.txt is fetched once per verdict lifetime: the request is never retried by
RetryMiddleware, and a host whose fetch failed with a connection error, a refused proxy
tunnel or HTTP 502/503/504 is *dead*: its URLs are refused without a request until the
retry interval is over (stat ``dead_host``). Verdicts are kept per crawl in PostgreSQL
(:mod:`crawler.politeness.verdict_store`): a resumed crawl or another agent asks the
table before the host.

Refusals raise :class:`RobotsDisallowed` (recorded as ``robots_disallowed``) or, when the
host could not be reached at all, :class:`RobotsUnreachable` carrying the failure's
category (``connection``, ``timeout``).

Other components act on the verdicts through signals: :data:`robots_rules_known` (sent
synchronously for every verdict, before the waiting requests resume: Crawl-delay,
crawler/extensions/crawl_delay.py) and Scrapy's ``robots_parsed`` (sitemaps,
crawler/extensions/sitemaps.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from datetime import UTC, datetime
from time import monotonic
from typing import TYPE_CHECKING, Any

from psycopg_pool import AsyncConnectionPool
from scrapy import Request, signals
from scrapy.core.downloader.handlers.http11 import TunnelError
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.httpobj import urlparse_cached

from crawler import defaults
from crawler.downloader.slots import DownloaderSlots
from crawler.failures import categorize_failure
from crawler.middlewares.useragent import crawler_user_agent
from crawler.politeness.robots import (
    PARSED,
    UNREACHABLE,
    RobotsCache,
    RobotsRules,
    dead_scope_of_failure,
    product_token,
    restore_rules,
    robots_origin,
    robots_url,
    rules_after_failure,
    rules_from_response,
)
from crawler.politeness.verdict_store import RobotsVerdictStore, StoredVerdict
from crawler.storage.database import crawl_database

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: Sent (synchronously, ``rules=``, ``request=``) when an origin's rules are decided,
#: before the requests waiting for them resume.
robots_rules_known = object()


class PendingVerdicts:
    """The hosts (downloader slot keys) whose robots.txt verdict is being decided now,
    fetched or read from the database, for each crawler. Requests of such a host wait in
    this middleware, each holding a place of CONCURRENT_REQUESTS: the best-first
    scheduler hands out one of them, not CONCURRENT_REQUESTS_PER_DOMAIN (issue 29)."""

    def __init__(self) -> None:
        self.hosts: Counter[str] = Counter()  # (http and https origins of one host)

    def __contains__(self, host: str) -> bool:
        return host in self.hosts


def pending_verdicts(crawler: Any) -> PendingVerdicts:
    """The crawler's PendingVerdicts, created once per crawler."""
    found = getattr(crawler, "robots_pending_verdicts", None)
    if found is None:
        found = crawler.robots_pending_verdicts = PendingVerdicts()
    return found


class RobotsDisallowed(IgnoreRequest):
    """The URL is disallowed for this crawler by its host's robots.txt."""

    uncrawled_category = "robots_disallowed"


class RobotsUnreachable(IgnoreRequest):
    """The host's robots.txt could not be fetched at all: nothing is requested from the
    host until a retry succeeds. ``uncrawled_category`` is the fetch failure's category."""

    def __init__(self, message: str, category: str) -> None:
        super().__init__(message)
        self.uncrawled_category = category


def _wall(monotonic_time: float) -> float:
    """A monotonic instant as a ``time.time()`` value."""
    return time.time() + (monotonic_time - monotonic())


def _utc(monotonic_time: float) -> str:
    return datetime.fromtimestamp(_wall(monotonic_time), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class RobotsExclusionMiddleware(RobotsTxtMiddleware):
    def __init__(
        self,
        crawler: Crawler,
        *,
        product_token: str,
        ttl: float,
        retry_interval: float,
        parse_limit: int,
        max_redirects: int,
        share_verdicts: bool,
        agents_enabled: bool = False,
    ) -> None:
        super().__init__(crawler)
        self.product_token = product_token
        self.ttl = ttl
        self.retry_interval = retry_interval
        self.parse_limit = parse_limit
        self.max_redirects = max_redirects
        self.share_verdicts = share_verdicts
        self.agents_enabled = agents_enabled
        # whether the verdict table can hold a verdict this process does not have in its
        # cache (spider_opened, _stored_rules)
        self._table_may_know = True
        self.cache = RobotsCache()
        self._pending: dict[str, asyncio.Future[RobotsRules]] = {}
        self.pool: AsyncConnectionPool | None = None
        self.stores: dict[str, RobotsVerdictStore] = {}  # per crawl id
        self._writes: set[asyncio.Task[None]] = set()
        self.pending_hosts = pending_verdicts(crawler)
        # the host key the best-first scheduler keeps a request's host by
        self.slot_key = DownloaderSlots.from_crawler(crawler).slot_key
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsExclusionMiddleware:
        settings = crawler.settings
        return cls(
            crawler,
            product_token=product_token(
                settings.get("ROBOTSTXT_USER_AGENT") or crawler_user_agent(settings)
            ),
            ttl=settings.getfloat("ROBOTSTXT_CACHE_TTL", defaults.ROBOTSTXT_CACHE_TTL),
            retry_interval=settings.getfloat(
                "ROBOTSTXT_RETRY_INTERVAL", defaults.ROBOTSTXT_RETRY_INTERVAL
            ),
            parse_limit=settings.getint("ROBOTSTXT_MAX_SIZE", defaults.ROBOTSTXT_MAX_SIZE),
            max_redirects=settings.getint(
                "ROBOTSTXT_MAX_REDIRECTS", defaults.ROBOTSTXT_MAX_REDIRECTS
            ),
            share_verdicts=settings.getbool(
                "ROBOTSTXT_SHARE_VERDICTS", defaults.ROBOTSTXT_SHARE_VERDICTS
            ),
            agents_enabled=settings.getbool("AGENTS_ENABLED", defaults.AGENTS_ENABLED),
        )

    def _crawl_id(self) -> str:
        spider = self.crawler.spider
        return str(getattr(spider, "crawl_id", "") or getattr(spider, "name", ""))

    # --- life cycle: the verdict table ------------------------------------------------
    async def spider_opened(self, spider: Any) -> None:
        if not self.share_verdicts:
            return
        try:
            database = crawl_database(self.crawler)
            database.prepare()
            self.pool = AsyncConnectionPool(database.url, min_size=1, max_size=2, open=False)
            await self.pool.open(wait=True)
        except Exception:  # the crawl goes on; verdicts are then kept in memory only
            logger.exception("robots verdicts: database unavailable, kept in memory only")
            self.pool = None
            return
        store = self.stores[self._crawl_id()] = RobotsVerdictStore(self.pool, self._crawl_id())
        if not self.agents_enabled:
            # A crawl with no verdict yet, crawled by this process alone: every verdict
            # the table will hold is one this process stored and keeps in its cache.
            # Asking the table before each new host's robots.txt then only delays it:
            # on a new crawl's web of many new hosts the look-ups queued on the pool's
            # two connections and held the hosts' first requests (issue 29,
            # docs/performance.md).
            try:
                self._table_may_know = await store.has_rows()
            except Exception:
                logger.exception("robots verdicts: database look-up failed")

    async def spider_closed(self, spider: Any, reason: str) -> None:
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

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
            if rp.dead:
                self._stats.inc_value("dead_host/refused")
                message = (
                    f"{rp.describe()}: dead host (robots.txt fetch at {_utc(rp.fetched_at)} "
                    f"failed), no request until {_utc(rp.expires_at)}"
                )
            else:
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
        pending_hosts = self.pending_hosts.hosts
        host = self.slot_key(request)
        pending_hosts[host] += 1
        fetched = False
        try:
            rules = await self._stored_rules(origin)
            if rules is None:
                fetched = True
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
            pending_hosts[host] -= 1
            if pending_hosts[host] <= 0:
                del pending_hosts[host]
        self.cache.put(rules)
        if fetched:
            self._save(rules)
            if rules.dead:
                self._stats.inc_value("dead_host")
                logger.info(
                    "%s: dead host, its URLs are refused without a request for %.0f s",
                    rules.describe(), self.retry_interval,
                )
        try:
            # before the waiting requests resume: their slot must already be slowed down
            self.crawler.signals.send_catch_log(
                signal=robots_rules_known, rules=rules, request=request
            )
        finally:
            future.set_result(rules)
        if fetched and rules.state == PARSED and not rules.stale:
            await self.crawler.signals.send_catch_log_async(
                signal=signals.robots_parsed, robotparser=rules, request=request
            )
        return rules

    async def _stored_rules(self, origin: str) -> RobotsRules | None:
        """A live verdict of this crawl from the database (a resumed crawl, another
        agent), or None."""
        store = self.stores.get(self._crawl_id())
        if store is None or not (self._table_may_know or self.cache.dropped):
            return None
        host = origin.split("://", 1)[1].rsplit(":", 1)[0]
        self._stats.inc_value("robotstxt/verdict_lookups")
        try:
            stored = await store.lookup(origin, host)
        except Exception:
            logger.exception("robots verdict of %s: database lookup failed", origin)
            return None
        if stored is None:
            return None
        self._stats.inc_value("robotstxt/verdicts_reused")
        if stored.dead_scope:
            self._stats.inc_value("dead_host/from_database")
        return self._restore(origin, stored)

    def _restore(self, origin: str, stored: StoredVerdict) -> RobotsRules:
        now_wall, now = time.time(), monotonic()
        rules = restore_rules(
            stored.origin, stored.state, now - (now_wall - stored.fetched_at),
            now + (stored.expires_at - now_wall), status=stored.status,
            reason=stored.reason, refusal_category=stored.refusal_category,
            dead_scope=stored.dead_scope, body=stored.body, stale=stored.stale,
        )
        if stored.origin != origin:  # a host-wide dead verdict of another origin
            self.cache.put(rules)
            cached = self.cache.get(origin, now)
            assert cached is not None
            return cached
        return rules

    def _save(self, rules: RobotsRules) -> None:
        store = self.stores.get(self._crawl_id())
        if store is None:
            return

        async def write() -> None:
            try:
                await store.save(rules, _wall(rules.fetched_at), _wall(rules.expires_at))
            except Exception:
                logger.exception("robots verdict of %s not stored", rules.origin)

        task = asyncio.get_running_loop().create_task(write())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _fetch_rules(self, origin: str, request: Request) -> RobotsRules:
        robots_request = Request(
            robots_url(request.url),
            priority=self.DOWNLOAD_PRIORITY,
            # one request per verdict: a failure waits for ROBOTSTXT_RETRY_INTERVAL
            meta={"dont_obey_robotstxt": True, "redirect_ttl": self.max_redirects,
                  "dont_retry": True},
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
            category, detail = categorize_failure(exc)
            self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
            if category == "too_large":
                logger.info("robots.txt of %s too large (%s): allowing everything", origin, detail)
                return rules_from_response(
                    origin, 404, b"", monotonic(), ttl=self.ttl,
                    retry_interval=self.retry_interval,
                )
            tunnel_refused = isinstance(exc, TunnelError)
            if tunnel_refused:
                detail = f"{type(exc).__name__}: {exc}"[:500]
            dead_scope = dead_scope_of_failure(category, tunnel_refused)
            if category not in ("connection", "timeout"):
                category = "robots_disallowed"
            rules = rules_after_failure(
                origin, detail, monotonic(), retry_interval=self.retry_interval,
                category=category, previous=previous, dead_scope=dead_scope,
            )
            if not rules.dead:  # (a dead host gets its own line, with this detail)
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
        if rules.state == UNREACHABLE and not rules.dead:
            logger.info(
                "robots.txt of %s answered HTTP %d: host disallowed for %.0f s",
                origin, response.status, self.retry_interval,
            )
        return rules
