"""`scrapy crawl incremental -a crawl_id=ID`: keep an existing crawl's pages fresh.

Glue only (docs/incremental.md); the algorithms are in crawler/incremental/. The spider
claims due pages from the crawl's revisit schedule and issues them as ordinary requests
(``dont_filter``, so the frontier queues an already-seen URL once more, with the same
politeness and robots.txt rules as any request), as conditional GETs. Its answers:

* 304: unchanged, no new version;
* 404/410: the page leaves the collection and the search index;
* 200: the page's text digests tell unchanged / boilerplate-only / content change; a
  changed page goes down the item pipelines (stored, re-fingerprinted, re-indexed) and
  its links to the frontier.

Pages found through those links are first visits: the refinement decision admits them
into a collection of COLLECTION_MAX_PAGES pages, evicting the least important one.
Runs until a Scrapy limit (CLOSESPIDER_*) or a signal stops it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

import scrapy
from psycopg_pool import AsyncConnectionPool
from scrapy.http import Response
from twisted.python.failure import Failure

from crawler import defaults
from crawler.frontier.links import LinkEvent
from crawler.incremental.allocation import OBJECTIVES
from crawler.incremental.budget import RevisitPacer, revisit_budget
from crawler.incremental.change import BOILERPLATE, CONTENT, classify_change, text_digests
from crawler.incremental.estimators import RateGrid, Visit
from crawler.incremental.policy import POLICIES, HostPlan, RevisitPlanner
from crawler.incremental.refinement import one_step_pagerank, refinement_decision
from crawler.incremental.signals import (
    FEED,
    SITEMAP,
    SignalSources,
    feed_links,
    parse_date,
    parse_signals,
    robots_sitemaps,
)
from crawler.incremental.store import Claimed, RevisitStore, unpack
from crawler.items import PageItem
from crawler.seeds import SeedError
from crawler.spiders.base import CrawlerSpider
from crawler.storage.database import crawl_database

GONE = (404, 410)


class IncrementalSpider(CrawlerSpider):
    """Revisits a crawl's collection by estimated change rate and importance.

    Arguments: ``crawl_id`` (required: the crawl whose pages are kept fresh), ``policy``
    (``optimal``, ``uniform``, ``proportional`` or ``plugin``; default
    INCREMENTAL_POLICY), ``objective`` (``freshness`` or ``age``; INCREMENTAL_OBJECTIVE).
    """

    name = "incremental"
    # revisits are claimed and paced by the process that issues them and answered in
    # it, while agents fetch a host wherever it is assigned
    agents_unsupported = (
        "the incremental spider paces and follows up its revisits in the process that "
        "claimed them, while agents would fetch them in the process owning each host"
    )

    def __init__(
        self,
        crawl_id: str | None = None,
        policy: str | None = None,
        objective: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        scrapy.Spider.__init__(self, *args, **kwargs)
        self.arguments = {
            k: v for k, v in {"policy": policy, "objective": objective, **kwargs}.items() if v
        }
        self.objective_arg = objective
        self.seed_list: list[str] = []
        self._crawl_id_arg = crawl_id
        self.crawl_id = ""
        self.policy_arg = policy

    @classmethod
    def preflight(cls, spider_args: dict[str, Any]) -> None:
        if not spider_args.get("crawl_id"):
            raise SeedError(
                "the incremental spider keeps an existing crawl fresh: give it -a crawl_id=ID"
            )
        policy = spider_args.get("policy")
        if policy and policy not in POLICIES:
            raise SeedError(f"unknown policy {policy!r} (one of {', '.join(POLICIES)})")
        objective = spider_args.get("objective")
        if objective and objective not in OBJECTIVES:
            raise SeedError(f"unknown objective {objective!r} (one of {', '.join(OBJECTIVES)})")

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> IncrementalSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        policy = spider.policy_arg or settings.get(
            "INCREMENTAL_POLICY", defaults.INCREMENTAL_POLICY
        )
        objective = spider.objective_arg or settings.get(
            "INCREMENTAL_OBJECTIVE", defaults.INCREMENTAL_OBJECTIVE
        )
        spider.planner = RevisitPlanner(
            policy,
            settings.getfloat("INCREMENTAL_MIN_INTERVAL", defaults.INCREMENTAL_MIN_INTERVAL),
            settings.getfloat("INCREMENTAL_MAX_INTERVAL", defaults.INCREMENTAL_MAX_INTERVAL),
            RateGrid(),
            objective,
        )
        spider.host_budget = settings.getfloat(
            "INCREMENTAL_HOST_BUDGET", defaults.INCREMENTAL_HOST_BUDGET
        )
        spider.request_rate = 1.0 / max(settings.getfloat("DOWNLOAD_DELAY", 0.0), 0.1)
        spider.revisit_share = settings.getfloat(
            "INCREMENTAL_REVISIT_SHARE", defaults.INCREMENTAL_REVISIT_SHARE
        )
        spider.budget = revisit_budget(
            spider.request_rate, spider.revisit_share, spider.host_budget, new_pages_waiting=False
        )
        spider.signal_sources = SignalSources(
            settings.getfloat("INCREMENTAL_SIGNAL_INTERVAL", defaults.INCREMENTAL_SIGNAL_INTERVAL)
        )
        spider.use_signals = settings.getbool("INCREMENTAL_SIGNALS", defaults.INCREMENTAL_SIGNALS)
        spider.claim_ahead = settings.getint(
            "INCREMENTAL_CLAIM_AHEAD", defaults.INCREMENTAL_CLAIM_AHEAD
        )
        spider.capacity = settings.getint("COLLECTION_MAX_PAGES", defaults.COLLECTION_MAX_PAGES)
        spider.replan_interval = settings.getfloat(
            "INCREMENTAL_REPLAN_INTERVAL", defaults.INCREMENTAL_REPLAN_INTERVAL
        )
        spider.claim_batch = settings.getint(
            "INCREMENTAL_CLAIM_BATCH", defaults.INCREMENTAL_CLAIM_BATCH
        )
        spider.claim_lease = settings.getfloat(
            "INCREMENTAL_CLAIM_LEASE", defaults.INCREMENTAL_CLAIM_LEASE
        )
        spider.poll_interval = settings.getfloat(
            "INCREMENTAL_POLL_INTERVAL", defaults.INCREMENTAL_POLL_INTERVAL
        )
        spider.base_priority = settings.getint(
            "INCREMENTAL_REVISIT_PRIORITY", defaults.INCREMENTAL_REVISIT_PRIORITY
        )
        spider.store = RevisitStore(spider.crawl_id, spider.planner.grid)
        spider.host_plans: dict[str, HostPlan] = {}
        spider.in_flight: dict[str, float] = {}
        spider.pool = None
        spider.importance_source = "depth"
        # responses wait for the schedule: the frontier may hand out queued URLs of the
        # crawl before start() has bootstrapped it
        spider.ready = asyncio.Event()
        spider.max_importance = 0.0
        crawler.signals.connect(spider._close_pool, signal=scrapy.signals.spider_closed)
        return spider

    async def _close_pool(self) -> None:
        # detached before the close is awaited: start() checks self.pool before each use,
        # and during the close it must see None, not a closing pool (PoolClosed)
        pool, self.pool = self.pool, None
        if pool is not None:
            await pool.close()

    # --- the Update Module: claim due pages --------------------------------------------
    async def start(self) -> AsyncIterator[scrapy.Request]:
        database = crawl_database(self.crawler)
        await asyncio.to_thread(database.prepare)
        self.pool = AsyncConnectionPool(database.url, min_size=1, max_size=2, open=False)
        await self.pool.open(wait=True)
        async with self.pool.connection() as conn:
            self.importance_source = await self.store.importance_source(conn)
            added = await self.store.bootstrap(conn, self.importance_source)
        stats = self.crawler.stats
        stats.set_value("incremental/bootstrapped", added)
        await self._fit_capacity()
        self.ready.set()
        self.logger.info(
            "incremental crawl %s: %d pages added to the revisit schedule, "
            "importance by %s, policy %s, %.3g revisits/s per host",
            self.crawl_id,
            added,
            self.importance_source,
            self.planner.policy,
            self.budget,
        )
        planned_at = -float("inf")
        hosts = 1
        pacer = RevisitPacer(self.budget, self.claim_ahead, time.monotonic())
        if self.use_signals:
            async with self.pool.connection() as conn:
                roots = await self.store.host_roots(conn)
            for root in roots:  # its Sitemap: lines
                pacer.take(1, time.monotonic())
                self.in_flight[urljoin(root, "/robots.txt")] = time.monotonic()
                yield self.signal_request(urljoin(root, "/robots.txt"), robots=True)
        # the spider may close (CLOSESPIDER_TIMEOUT, Ctrl-C) while this generator waits in a
        # sleep or a yield: its pool is gone then, and the loop ends instead of using it
        while self.pool is not None:
            if time.monotonic() - planned_at >= self.replan_interval:
                self.budget = revisit_budget(
                    self.request_rate,
                    self.revisit_share,
                    self.host_budget,
                    self._new_pages_waiting(),
                )
                async with self.pool.connection() as conn:
                    self.host_plans = await self.store.plan(conn, self.planner, self.budget)
                    self.max_importance = await self.store.max_importance(conn)
                planned_at = time.monotonic()
                hosts = max(len(self.host_plans), 1)
                pacer.set_rate(self.budget * hosts, planned_at)
                pacer.burst = max(self.claim_ahead * hosts, 1)
                stats.inc_value("incremental/plans")
                stats.set_value("incremental/budget", self.budget)
            if self.crawler.engine.needs_backout():
                await asyncio.sleep(0.1)
                continue
            clock = time.monotonic()
            for source in self.signal_sources.due(clock):
                if pacer.available(clock) < 1:
                    break
                pacer.take(1, clock)
                self.signal_sources.polled(source, clock, datetime.now(UTC))
                self.in_flight[source.url] = clock
                yield self.signal_request(source.url, etag=source.etag)
            room = min(
                self.claim_ahead * hosts - self._outstanding(clock),
                pacer.available(clock),
                self.claim_batch,
            )
            if room <= 0:
                await asyncio.sleep(min(max(pacer.wait(clock), 0.05), self.poll_interval))
                continue
            if self.pool is None:
                return
            now = datetime.now(UTC)
            async with self.pool.connection() as conn:
                claimed = await self.store.claim_due(conn, now, room, self.claim_lease)
                if not claimed and not self._new_pages_waiting():
                    # nothing due, nothing new: the page due soonest rather than an idle
                    # request (INCREMENTAL_REVISIT_SHARE caps, it does not reserve)
                    claimed = await self.store.claim_due(
                        conn, now, room, self.claim_lease, early=True
                    )
                    stats.inc_value("incremental/early", len(claimed))
            pacer.take(len(claimed), clock)
            for page in claimed:
                self.in_flight[page.url] = clock
                yield self.revisit_request(page)
            if not claimed:
                await asyncio.sleep(self.poll_interval)

    def _outstanding(self, now: float) -> int:
        """Revisits and signal polls issued and not answered yet (a request the frontier
        dropped, e.g. refused by robots.txt, stops counting when its claim's lease
        ends)."""
        for url in [u for u, at in self.in_flight.items() if now - at > self.claim_lease]:
            del self.in_flight[url]
        return len(self.in_flight)

    def _new_pages_waiting(self) -> bool:
        """Requests other than revisits wait in the scheduler (newly found pages)."""
        engine = self.crawler.engine
        scheduler = getattr(getattr(engine, "_slot", None), "scheduler", None)
        try:
            queued = len(scheduler) if scheduler is not None else 0
        except TypeError:
            return False
        # queued revisits are the issued ones not being downloaded
        downloading = len(getattr(engine.downloader, "active", ()))
        return queued + downloading > len(self.in_flight)

    async def _fit_capacity(self) -> None:
        """A collection larger than COLLECTION_MAX_PAGES (set lower since the last run)
        loses its least important pages."""
        while self.capacity > 0:
            async with self.pool.connection() as conn:
                size, least = await self.store.collection(conn)
            if size <= self.capacity or least is None:
                return
            await self.remove(least[0], "refinement", datetime.now(UTC))

    def revisit_priority(self, importance: float) -> int:
        """INCREMENTAL_REVISIT_PRIORITY, plus 0-2 by importance relative to the most
        important collected page: among due revisits the important go first."""
        if self.max_importance <= 0:
            return self.base_priority
        return self.base_priority + round(2 * max(importance, 0.0) / self.max_importance)

    def signal_request(
        self, url: str, etag: str | None = None, robots: bool = False
    ) -> scrapy.Request:
        """A poll of a sitemap or feed (conditional), or a host's robots.txt (for its
        Sitemap: lines); before every revisit."""
        return scrapy.Request(
            url,
            headers={"If-None-Match": etag} if etag else {},
            dont_filter=True,
            callback=self.parse_signal,
            errback=self.on_signal_error,
            priority=self.base_priority + 10,
            meta={"signal": "robots" if robots else "source", "handle_httpstatus_list": [304]},
        )

    async def parse_signal(self, response: Response) -> None:
        await self.ready.wait()
        self.in_flight.pop(response.request.url, None)
        host = urlsplit(response.url).hostname or ""
        stats = self.crawler.stats
        if response.meta.get("signal") == "robots":
            text = response.body.decode("utf-8", "replace") if response.status == 200 else ""
            for url in robots_sitemaps(text, response.url):
                self.signal_sources.add(url, host, SITEMAP)
            return
        source = self.signal_sources.sources.get(response.request.url)
        stats.inc_value(f"incremental/signal_polls/{response.status}")
        if source is None or response.status != 200:
            return
        source.etag = (response.headers.get(b"ETag") or b"").decode("latin-1") or None
        kind, signals, children = parse_signals(response.body, response.url)
        self.signal_sources.record(source, kind, signals)
        for child in children:
            self.signal_sources.add(child, host, SITEMAP)
        now = datetime.now(UTC)
        confirmed_at = None
        if kind == SITEMAP and self.signal_sources.reliable(host):
            # as of when it was written (its Last-Modified), else a poll interval ago
            confirmed_at = min(
                parse_date((response.headers.get(b"Last-Modified") or b"").decode("latin-1"))
                or now - timedelta(seconds=self.signal_sources.interval),
                now,
            )
            stats.set_value("incremental/reliable_sitemap", source.url)
        async with self.pool.connection() as conn:
            marked = await self.store.mark_changed(
                conn,
                [(s.url, s.modified) for s in signals],
                now,
                oldest_first=self.planner.objective == "age",
                confirmed_at=confirmed_at,
            )
        stats.inc_value("incremental/signalled_changes", marked)

    def on_signal_error(self, failure: Failure) -> None:
        self.in_flight.pop(failure.request.url, None)  # type: ignore[attr-defined]
        self.crawler.stats.inc_value("incremental/signal_polls/error")

    def revisit_request(self, page: Claimed) -> scrapy.Request:
        headers = {}
        if page.etag:
            headers["If-None-Match"] = page.etag
        if page.last_modified:
            headers["If-Modified-Since"] = format_datetime(
                page.last_modified.astimezone(UTC), usegmt=True
            )
        return scrapy.Request(
            page.url,
            headers=headers,
            dont_filter=True,
            callback=self.parse,
            errback=self.on_error,
            priority=self.revisit_priority(page.importance),
            meta={"revisit": page, "handle_httpstatus_list": [304, *GONE]},
        )

    def _visit_of(
        self, page: Claimed, fetched: datetime, changed: bool, modified: datetime | None
    ) -> Visit:
        interval = max((fetched - page.last_fetched_at).total_seconds(), 0.0)
        since = None
        if changed and modified is not None and page.last_fetched_at < modified <= fetched:
            # an HTTP date is whole seconds: the change was in [modified, modified + 1 s);
            # since = 0 would make the likelihood r exp(-r s) grow without bound in r
            since = min((fetched - modified).total_seconds() + 0.5, interval)
        return Visit(interval, changed, since)

    async def _record(
        self,
        page: Claimed,
        response: Response,
        fetched: datetime,
        outcome: str,
        changed: bool,
        **values: Any,
    ) -> None:
        modified = values.get("last_modified")
        self.signal_sources.check(page.url, modified or page.last_modified, fetched)
        grid = self.planner.grid
        loglik = unpack(page.loglik, grid) + grid.visit_loglik(
            self._visit_of(page, fetched, changed, modified)
        )
        plan = self.host_plans.get(page.host) or HostPlan(grid.site_prior([]))
        planned = self.planner.replan_page(
            loglik, page.importance, plan, page.observations + 1, page.url
        )
        async with self.pool.connection() as conn:
            await self.store.record_visit(
                conn,
                page,
                fetched_at=fetched,
                status=response.status,
                outcome=outcome,
                changed=changed,
                loglik=loglik,
                page=planned,
                **values,
            )
        self.crawler.stats.inc_value(f"incremental/{outcome}")

    # --- responses ------------------------------------------------------------------------
    async def parse(self, response: Response, **kwargs: Any) -> AsyncIterator[Any]:
        await self.ready.wait()
        page: Claimed | None = response.meta.get("revisit")
        if page is not None:
            self.in_flight.pop(page.url, None)
        if page is None:
            async for output in self.first_visit(response):
                yield output
            return
        fetched = datetime.now(UTC)
        stats = self.crawler.stats
        if response.status == 304:
            etag = (response.headers.get(b"ETag") or b"").decode("latin-1") or None
            await self._record(page, response, fetched, "not_modified", False, etag=etag)
            stats.inc_value("incremental/bytes_saved", page.size or 0)
            return
        if response.status in GONE:
            await self.remove(page.url, f"gone_{response.status}", fetched, response.status)
            return
        if self.use_signals and response.status == 200:
            for feed in feed_links(response.body, response.url):
                self.signal_sources.add(feed, page.host, FEED)
        outputs = list(super().parse(response))
        item = next((o for o in outputs if isinstance(o, PageItem)), None)
        if item is None:  # e.g. no longer a stored content type
            await self._record(page, response, fetched, "error", False)
            return
        digests = text_digests(item.title, item.text)
        kind = classify_change(page.digests, digests)
        changed = kind == CONTENT
        await self._record(
            page,
            response,
            fetched,
            "changed" if changed else kind,
            changed,
            digests=digests,
            etag=item.etag,
            last_modified=item.last_modified,
            size=item.size,
            body_bytes=item.size,
        )
        if kind in (CONTENT, BOILERPLATE):
            # a new version: stored, re-fingerprinted, re-indexed; its links followed
            for output in outputs:
                yield output

    async def first_visit(self, response: Response) -> AsyncIterator[Any]:
        """A page found through a link: the refinement decision admits it or not."""
        outputs = list(super().parse(response))
        item = next((o for o in outputs if isinstance(o, PageItem)), None)
        if item is None or item.status != 200:
            for output in outputs:
                yield output
            return
        importance = await self._importance(response)
        fetched = item.fetched_at
        async with self.pool.connection() as conn, conn.transaction():
            # one refinement decision at a time per crawl, across agents
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", ("collection:" + self.crawl_id,)
            )
            size, least = await self.store.collection(conn)
            decision = refinement_decision(size, self.capacity, importance, least)
            if decision.admit:
                grid = self.planner.grid
                loglik = grid.first_fetch(
                    None
                    if item.last_modified is None
                    else (fetched - item.last_modified).total_seconds()
                )
                plan = self.host_plans.get(item.host) or HostPlan(grid.site_prior([]))
                await self.store.admit(
                    conn,
                    url=item.url,
                    host=item.host,
                    importance=importance,
                    fetched_at=fetched,
                    etag=item.etag,
                    last_modified=item.last_modified,
                    digests=text_digests(item.title, item.text),
                    size=item.size,
                    page=self.planner.replan_page(loglik, importance, plan, 1, item.url),
                    loglik=loglik,
                )
            if decision.evict:  # in the same locked transaction: no two evict one page
                await self.store.remove(
                    conn, decision.evict, reason="refinement", at=fetched, replaced_by=item.url
                )
        if decision.evict:
            self.unindex(decision.evict, "refinement")
        if not decision.admit:
            self.crawler.stats.inc_value("incremental/not_admitted")
            async with self.pool.connection() as conn:
                await conn.execute(
                    """INSERT INTO collection_removals (crawl_id, url, removed_at, reason,
                           importance) VALUES (%s, %s, %s, 'not_admitted', %s)""",
                    (self.crawl_id, item.url, fetched, importance),
                )
            outputs = [o for o in outputs if o is not item]
        else:
            self.crawler.stats.inc_value("incremental/admitted")
        for output in outputs:
            yield output

    async def _importance(self, response: Response) -> float:
        """A new page's importance on the collection's scale: its OPIC cash, a one-step
        PageRank share of the page linking to it, or 1 / (1 + depth)."""
        if self.importance_source == "opic":
            return float((response.meta.get("frontier") or {}).get("cash", 0.0))
        if self.importance_source == "pagerank":
            link: LinkEvent | None = response.meta.get("link")
            async with self.pool.connection() as conn:
                source = await self.store.importance_of(conn, link.source if link else "")
                size, _ = await self.store.collection(conn)
            outlinks = link.n_inter + link.n_intra if link else 0
            return one_step_pagerank(source or 0.0, outlinks, size + 1)
        return 1.0 / (1 + int(response.meta.get("depth", 0)))

    async def remove(
        self,
        url: str,
        reason: str,
        at: datetime,
        status: int | None = None,
        replaced_by: str | None = None,
    ) -> None:
        async with self.pool.connection() as conn:
            await self.store.remove(
                conn, url, reason=reason, at=at, status=status, replaced_by=replaced_by
            )
        self.unindex(url, reason)

    def unindex(self, url: str, reason: str) -> None:
        """Count a page taken out of the collection (its search document is deleted by
        the search outbox row written with the removal)."""
        self.crawler.stats.inc_value(f"incremental/removed/{reason}")

    async def on_error(self, failure: Failure) -> AsyncIterator[Any]:
        await self.ready.wait()
        page: Claimed | None = failure.request.meta.get("revisit")  # type: ignore[attr-defined]
        if page is not None:
            self.in_flight.pop(page.url, None)
        if page is None:
            for output in super().on_error(failure):
                yield output
            return
        response = getattr(failure.value, "response", None)
        status = int(getattr(response, "status", 0) or 0)
        async with self.pool.connection() as conn:
            await self.store.record_failure(
                conn, page, datetime.now(UTC), status, retry_in=self.planner.min_interval
            )
        self.crawler.stats.inc_value("incremental/error")
