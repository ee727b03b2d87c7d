"""``BestFirstScheduler``: Scrapy's scheduler slot filled with the best-first frontier.

Set with ``SCHEDULER = "crawler.schedulers.best_first.BestFirstScheduler"`` (the
project's default). The algorithms live in :mod:`crawler.frontier`; this module is glue:

- ``enqueue_request`` turns a request into a frontier entry: canonical URL and its
  fingerprint (the URL-seen test, which replaces Scrapy's dupefilter), downloader slot
  key, and the statistics of the link event ``request.meta["link"]`` (a LinkEvent put
  there by ``CrawlerSpider.link_request``) plus the spider's ``meta["score_terms"]``.
  A duplicate returns False (Scrapy then fires ``request_dropped``) and raises the
  score of the queued URL.
- ``next_request`` pops the best URL whose downloader slot is ready (read through
  DownloaderSlots, crawler/downloader/slots.py): fewer requests in
  flight than the slot's concurrency and its delay (DOWNLOAD_DELAY, AutoThrottle or a
  robots.txt Crawl-delay, all of which end up in ``slot.delay``) over since the last
  request started, and any pause the host asked for with a 429 or 503 over (back-off by
  answer, crawler/politeness/backoff.py, recorded on ``response_downloaded``). When
  nothing is ready it returns None and asks the engine to poll again when the earliest
  host becomes ready, instead of waiting for the engine's 5 s heartbeat.
- The stall invariant (crawler/frontier/stalls.py, docs/frontier.md) is checked every
  FRONTIER_STALL_CHECK_INTERVAL from the background task: a host with URLs waiting and
  nothing in flight, for longer than its delay plus DOWNLOAD_TIMEOUT while the engine has
  room, is reported (``frontier/stalls``, a WARNING, the progress line).
- A background task on the asyncio loop writes to PostgreSQL every FRONTIER_FLUSH_INTERVAL
  (or FRONTIER_BATCH_SIZE changes) and refills the buffer: no database round trip is on
  the ``next_request``/``enqueue_request`` path.
- Acks: a request handed out is acked once the engine has finished with it, i.e. it left
  the engine's set of requests in progress, which happens after its response (or
  failure) went through the callback (or errback), every request the callback yielded
  was enqueued here and every item went through the item pipelines. The ack is written
  in the same or a later transaction than those new URLs, so a crash never marks a page
  done while losing its out-links; pages whose item the pipeline had not written yet
  are re-queued on resume (see PostgresStore).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections import Counter
from collections.abc import Mapping
from time import monotonic
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.defer import deferred_from_coro
from twisted.internet.defer import Deferred

from crawler import defaults
from crawler.agents.assignment import HostLoad, host_slots
from crawler.agents.driver import AgentDriver
from crawler.agents.membership import AgentMembership, claim_seeding, default_agent_id
from crawler.downloader.slots import DownloaderSlots
from crawler.frontier.buffer import Entry
from crawler.frontier.frontier import Frontier, IntervalStats
from crawler.frontier.links import LinkEvent
from crawler.frontier.postgres_store import FrontierLocked, PostgresStore
from crawler.frontier.scores import UrlStats, make_strategy, seed_stats, weighted_terms
from crawler.frontier.seen import url_fingerprint
from crawler.frontier.stalls import FRONTIER, StallWatch
from crawler.frontier.threaded_store import ThreadedStore
from crawler.middlewares.robots import pending_verdicts
from crawler.politeness.backoff import HostBackoff, backoff_setting
from crawler.schedulers.serialization import RequestCodec
from crawler.scope.gate import SCOPE_REFUSAL_META, ScopeGate, scope_gate
from crawler.scope.rules import ScopeFileError
from crawler.storage.database import crawl_database
from crawler.urls import canonical_url, scheduled_url

logger = logging.getLogger(__name__)

#: The stat holding why this process refused to run its crawl or gave up (_refuse,
#: _give_up): `scrapy crawl` prints it as its ``error:`` line and exits with status 2.
ERROR_STAT = "crawl/error"


def hold_margin_setting(value: Any) -> float | None:
    """FRONTIER_HOLD_FOR_BETTER as a score margin (None: off); ValueError if unusable."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    try:
        margin = float(value)
    except (TypeError, ValueError):
        margin = float("nan")
    if not margin >= 0.0 or margin == float("inf"):
        raise ValueError(
            f"FRONTIER_HOLD_FOR_BETTER must be a score margin >= 0 or None, not {value!r}"
        )
    return margin


class BestFirstScheduler(BaseScheduler):
    def __init__(
        self,
        crawler: Any,
        *,
        strategy_name: str = defaults.FRONTIER_STRATEGY,
        weights: Mapping[str, float] = defaults.FRONTIER_WEIGHTS,
        buffer_size: int = defaults.FRONTIER_BUFFER_SIZE,
        buffer_per_host: int = defaults.FRONTIER_BUFFER_PER_HOST,
        max_wait: float = defaults.FRONTIER_MAX_WAIT,
        max_size: int = defaults.FRONTIER_MAX_SIZE,
        batch_size: int = defaults.FRONTIER_BATCH_SIZE,
        flush_interval: float = defaults.FRONTIER_FLUSH_INTERVAL,
        seed_priority: int = defaults.FRONTIER_SEED_PRIORITY,
        seed_cash: float = defaults.FRONTIER_SEED_CASH,
        recheck_window: float = defaults.FRONTIER_RESUME_RECHECK,
        lock_wait: float = defaults.FRONTIER_LOCK_WAIT,
        synchronous_commit: bool = defaults.FRONTIER_SYNCHRONOUS_COMMIT,
        hold_margin: float | None = defaults.FRONTIER_HOLD_FOR_BETTER,
        agents_enabled: bool = defaults.AGENTS_ENABLED,
        agent_id: str | None = defaults.AGENT_ID,
        agent_capacity: float = defaults.AGENT_CAPACITY,
        agent_heartbeat: float = defaults.AGENT_HEARTBEAT,
        agent_ttl: float = defaults.AGENT_LEASE_TTL,
        agent_margin: float = defaults.AGENT_LEASE_MARGIN,
        agent_database_timeout: float = defaults.AGENT_DATABASE_TIMEOUT,
        crawl_max_pages: int = defaults.CRAWL_MAX_PAGES,
        crawl_max_seconds: float = defaults.CRAWL_MAX_SECONDS,
        stall_check_interval: float = defaults.FRONTIER_STALL_CHECK_INTERVAL,
        one_per_new_host: bool = defaults.FRONTIER_ONE_REQUEST_PER_NEW_HOST,
        backoff: HostBackoff | None = None,
        concurrent_requests: int,
        download_timeout: float,
    ) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.strategy_name = strategy_name
        self.weights = dict(weights)
        self.buffer_size = buffer_size
        self.buffer_per_host = buffer_per_host
        self.max_wait = max_wait
        self.max_size = max_size
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.seed_priority = seed_priority
        self.seed_cash = seed_cash
        self.recheck_window = recheck_window
        self.lock_wait = lock_wait
        self.synchronous_commit = synchronous_commit
        self.hold_margin = hold_margin
        self.agents_enabled = agents_enabled
        self.agent_id_setting = agent_id
        self.agent_capacity = agent_capacity
        self.agent_heartbeat = agent_heartbeat
        self.agent_ttl = agent_ttl
        self.agent_margin = agent_margin
        self.agent_database_timeout = agent_database_timeout
        self.crawl_max_pages = crawl_max_pages
        self.crawl_max_seconds = crawl_max_seconds
        self.agent: AgentDriver | None = None
        # the crawl's scope (crawler/scope): asked before a URL enters the frontier and
        # when a queued one leaves it (live excludes)
        self.scope: ScopeGate | None = None
        self._latency: float | None = None  # moving average of download latency (agents)
        self._seeding = True  # whether this process's start requests are the crawl's seeds
        # the engine found this process idle (its start requests are all queued, nothing
        # is in progress) and nothing was handed out since
        self._engine_idle = False
        self._last_refill = 0.0
        # an agent whose buffer holds fewer URLs than this writes and refills at once
        # (its new URLs reach its buffer only through the shared store)
        self._starving_below = 2 * concurrent_requests
        self.frontier: Frontier | None = None
        self.spider: Spider | None = None
        self.codec: RequestCodec | None = None
        self._slots = DownloaderSlots.from_crawler(crawler)
        self._slot_key = self._slots.slot_key
        self._handed: dict[int, tuple[Request, Entry]] = {}
        self._host_requests: dict[str, list[Request]] = {}
        self._last_start: dict[str, float] = {}
        self._writer: asyncio.Future[None] | None = None
        self._wake: asyncio.Event | None = None
        self._lock: asyncio.Lock | None = None
        self._closing = False
        self._poke_call: Any = None
        self._poke_at = 0.0
        self._failures = 0
        self._close_at_once: Any = None
        self.concurrent_requests = concurrent_requests
        self.download_timeout = download_timeout
        # the stall invariant (crawler/frontier/stalls.py), checked every this many s
        self.stall_check_interval = stall_check_interval
        self._stalls = StallWatch()
        self._last_stall_check = 0.0
        # one request on its way for a host whose robots.txt verdict is not known yet
        # (_readiness)
        self.one_per_new_host = one_per_new_host
        self._pending_verdicts = pending_verdicts(crawler)
        # pauses of hosts that answered 429/503 (crawler/politeness/backoff.py)
        self.backoff = backoff
        if backoff is not None:
            crawler.signals.connect(self._response_downloaded, signal=signals.response_downloaded)

    @classmethod
    def from_crawler(cls, crawler: Any) -> BestFirstScheduler:
        """Read the scheduler's settings, once (defaults in crawler/defaults.py)."""
        settings = crawler.settings
        return cls(
            crawler,
            strategy_name=str(settings.get("FRONTIER_STRATEGY", defaults.FRONTIER_STRATEGY)),
            weights={
                **defaults.FRONTIER_WEIGHTS,
                **{k: float(v) for k, v in settings.getdict("FRONTIER_WEIGHTS").items()},
            },
            buffer_size=settings.getint("FRONTIER_BUFFER_SIZE", defaults.FRONTIER_BUFFER_SIZE),
            buffer_per_host=settings.getint(
                "FRONTIER_BUFFER_PER_HOST", defaults.FRONTIER_BUFFER_PER_HOST
            ),
            max_wait=settings.getfloat("FRONTIER_MAX_WAIT", defaults.FRONTIER_MAX_WAIT),
            max_size=settings.getint("FRONTIER_MAX_SIZE", defaults.FRONTIER_MAX_SIZE),
            batch_size=settings.getint("FRONTIER_BATCH_SIZE", defaults.FRONTIER_BATCH_SIZE),
            flush_interval=settings.getfloat(
                "FRONTIER_FLUSH_INTERVAL", defaults.FRONTIER_FLUSH_INTERVAL
            ),
            seed_priority=settings.getint(
                "FRONTIER_SEED_PRIORITY", defaults.FRONTIER_SEED_PRIORITY
            ),
            seed_cash=settings.getfloat("FRONTIER_SEED_CASH", defaults.FRONTIER_SEED_CASH),
            recheck_window=settings.getfloat(
                "FRONTIER_RESUME_RECHECK", defaults.FRONTIER_RESUME_RECHECK
            ),
            lock_wait=settings.getfloat("FRONTIER_LOCK_WAIT", defaults.FRONTIER_LOCK_WAIT),
            synchronous_commit=settings.getbool(
                "FRONTIER_SYNCHRONOUS_COMMIT", defaults.FRONTIER_SYNCHRONOUS_COMMIT
            ),
            hold_margin=hold_margin_setting(
                settings.get("FRONTIER_HOLD_FOR_BETTER", defaults.FRONTIER_HOLD_FOR_BETTER)
            ),
            agents_enabled=settings.getbool("AGENTS_ENABLED", defaults.AGENTS_ENABLED),
            agent_id=settings.get("AGENT_ID", defaults.AGENT_ID) or None,
            agent_capacity=settings.getfloat("AGENT_CAPACITY", defaults.AGENT_CAPACITY),
            agent_heartbeat=settings.getfloat("AGENT_HEARTBEAT", defaults.AGENT_HEARTBEAT),
            agent_ttl=settings.getfloat("AGENT_LEASE_TTL", defaults.AGENT_LEASE_TTL),
            agent_margin=settings.getfloat("AGENT_LEASE_MARGIN", defaults.AGENT_LEASE_MARGIN),
            agent_database_timeout=settings.getfloat(
                "AGENT_DATABASE_TIMEOUT", defaults.AGENT_DATABASE_TIMEOUT
            ),
            crawl_max_pages=settings.getint("CRAWL_MAX_PAGES", defaults.CRAWL_MAX_PAGES),
            crawl_max_seconds=settings.getfloat("CRAWL_MAX_SECONDS", defaults.CRAWL_MAX_SECONDS),
            stall_check_interval=settings.getfloat(
                "FRONTIER_STALL_CHECK_INTERVAL", defaults.FRONTIER_STALL_CHECK_INTERVAL
            ),
            one_per_new_host=settings.getbool(
                "FRONTIER_ONE_REQUEST_PER_NEW_HOST", defaults.FRONTIER_ONE_REQUEST_PER_NEW_HOST
            ),
            backoff=backoff_setting(settings),
            concurrent_requests=settings.getint("CONCURRENT_REQUESTS"),
            download_timeout=settings.getfloat("DOWNLOAD_TIMEOUT"),
        )

    # --- open / close ------------------------------------------------------------------
    def open(self, spider: Spider) -> Deferred[None]:
        return deferred_from_coro(self._open(spider))

    async def _open(self, spider: Spider) -> None:
        self.spider = spider
        crawl_id = getattr(spider, "crawl_id", None) or spider.name
        name = getattr(spider, "strategy", None) or self.strategy_name
        try:
            strategy = make_strategy(str(name), self.weights)
        except ValueError as exc:
            raise CloseSpider(f"bad_strategy: {exc}") from None
        try:
            scope = scope_gate(self.crawler)
        except ScopeFileError as exc:  # (checked before the crawl by `scrapy crawl`)
            self._refuse("bad_scope", str(exc))
            return
        if self.agents_enabled:
            refusal = self._agents_refusal(spider)
            if refusal is not None:
                self._refuse("agents_unsupported", refusal)
                return
        database = crawl_database(self.crawler)
        database.prepare()  # the scheduler opens before the item pipelines
        agent_id = None
        if self.agents_enabled:
            agent_id = default_agent_id(
                self.agent_id_setting
                or getattr(spider, "_job", None)
                or os.environ.get("SCRAPY_JOB")
            )
        store = PostgresStore(
            database.url,
            crawl_id,
            recheck_window=self.recheck_window,
            synchronous_commit=self.synchronous_commit,
            agent_id=agent_id,
            lock_wait=self.lock_wait,
        )
        self.codec = RequestCodec(spider)
        threaded = ThreadedStore(store)  # its statements go on while the crawl runs
        frontier = Frontier(
            threaded,
            strategy,
            serialize=self._serialize,
            buffer_size=self.buffer_size,
            buffer_per_host=self.buffer_per_host,
            max_wait=self.max_wait,
            max_size=self.max_size,
            batch_size=self.batch_size,
            hold_margin=self.hold_margin,
            shared=agent_id is not None,
        )
        try:
            state = await frontier.open()
        except FrontierLocked as exc:
            self._refuse("frontier_locked", str(exc))
            return
        except ValueError as exc:  # an agent with another strategy than its crawl's
            self._refuse("bad_strategy", str(exc))
            return
        if agent_id is not None:
            try:
                await self._join(store, threaded, frontier, crawl_id, agent_id)
            except FrontierLocked as exc:  # a one-process run took the crawl meanwhile
                await frontier.close(clean=True)
                self._refuse("frontier_locked", str(exc))
                return
        self.frontier = frontier
        self.scope = scope
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._writer = asyncio.ensure_future(self._write_loop())
        self.stats.set_value("frontier/strategy", strategy.name)
        if state.resumed:
            self.stats.set_value("frontier/resume/requeued_leases", state.requeued_leases)
            self.stats.set_value("frontier/resume/requeued_unsaved", state.requeued_unsaved)
            self.stats.set_value("frontier/resume/finished_leases", state.finished_leases)
            logger.info(
                "frontier (%s): resuming crawl %s: %d URLs queued, %d seen; %d leases and "
                "%d unsaved results of the last run re-queued, %d whose failure was saved done%s",
                strategy.name,
                crawl_id,
                frontier.queued,
                len(frontier.seen),
                state.requeued_leases,
                state.requeued_unsaved,
                state.finished_leases,
                f"; {state.rescored} re-scored for the new strategy" if state.rescored else "",
            )
        else:
            logger.info("frontier (%s): new crawl %s", strategy.name, crawl_id)

    def _agents_refusal(self, spider: Spider) -> str | None:
        """Why this spider or these settings cannot run as an agent (None: they can)."""
        unsupported = getattr(spider, "agents_unsupported", None)
        if unsupported:
            return (f"spider {spider.name!r} cannot run with AGENTS_ENABLED: {unsupported}; "
                    "run it as one process (without AGENTS_ENABLED)")
        if self.max_size > 0:
            return ("FRONTIER_MAX_SIZE cannot be used with AGENTS_ENABLED: the queue of a "
                    "shared crawl is counted by no agent (each would evict the crawl's "
                    "lowest URLs against its own count); set FRONTIER_MAX_SIZE=0, or "
                    "bound the crawl with FRONTIER_MAX_WAIT or CRAWL_MAX_PAGES")
        return None

    def _refuse(self, reason: str, message: str) -> None:
        """This process may not run the crawl: the spider closes as soon as it is open,
        and `scrapy crawl` ends with ``error: message`` and exit status 2
        (crawler/commands/crawl.py). (Raising CloseSpider here would skip the opening of
        Scrapy's scraper, whose close then fails with a traceback.)"""
        logger.error("%s", message)
        self.stats.set_value(ERROR_STAT, message)

        def close_at_once(spider: Spider) -> None:
            raise CloseSpider(reason)

        self._close_at_once = close_at_once  # (signals keep weak references)
        self.crawler.signals.connect(close_at_once, signal=signals.spider_opened)

    async def _join(
        self, store: PostgresStore, threaded: ThreadedStore, frontier: Frontier,
        crawl_id: str, agent_id: str,
    ) -> None:
        """Join the crawl as an agent (crawler/agents): register, take the seeds if this
        is the crawl's first agent, start the heartbeat."""
        membership = AgentMembership(
            store.url,
            crawl_id,
            store.key,
            agent_id,
            capacity=self.agent_capacity,
            ttl=self.agent_ttl,
            margin=self.agent_margin,
            max_pages=self.crawl_max_pages,
            max_seconds=self.crawl_max_seconds,
            # POLITENESS_KEY=ip: hosts assigned, lent and held by their address
            resolve=self._resolve_servers if self._slots.by_server else None,
        )
        await membership.join()
        assert store.conn is not None
        # an agent without seeds (joining a crawl) never takes the seeding: the crawl does
        # not end before an agent with seeds has loaded them
        has_seeds = bool(getattr(self.spider, "seed_list", True))
        self._seeding = has_seeds and await threaded.run(claim_seeding(store.conn, store.key))
        self.agent = AgentDriver(
            membership,
            frontier,
            interval=self.agent_heartbeat,
            database_timeout=self.agent_database_timeout,
            busy_hosts=self._busy_hosts,
            next_fetch=self._next_fetch,
            is_idle=self._is_idle,
            on_gained=self._refill_soon,
            on_finish=self._finish_crawl,
            host_load=self._host_load,
            addresses=self._addresses if self._slots.by_server else None,
            stats=self.stats,
        )
        self.crawler.signals.connect(self._spider_idle, signal=signals.spider_idle)
        self.agent.start()
        self.stats.set_value("agents/id", agent_id)
        logger.info(
            "agent %s joined crawl %s%s",
            agent_id,
            crawl_id,
            " and loads its seeds"
            if self._seeding
            else " (seeded already: start requests are not queued again)"
            if has_seeds
            else " without seeds",
        )

    # --- agents -------------------------------------------------------------------------
    async def _resolve_servers(self, hosts: list[str]) -> dict[str, str]:
        """POLITENESS_KEY=ip: the address of each host (through the resolver, so once per
        host and TTL), the host itself when it does not resolve; hosts whose look-up
        takes longer than a second are left out (claimed at a later heartbeat, once
        their answer is cached)."""
        from scrapy.utils.defer import maybe_deferred_to_future
        from twisted.internet import reactor
        from twisted.internet.error import DNSLookupError

        resolver = reactor.resolver  # type: ignore[attr-defined]

        async def one(host: str) -> tuple[str, str | None]:
            try:
                return host, await maybe_deferred_to_future(resolver.getHostByName(host))
            except DNSLookupError:
                return host, host  # its own key, as ServerSlotMiddleware gives it its own slot
            except Exception:
                return host, None

        if not hosts:
            return {}
        tasks = [asyncio.ensure_future(one(h)) for h in hosts]
        done, pending = await asyncio.wait(tasks, timeout=1.0)
        for task in pending:
            task.cancel()
        return {h: k for h, k in (t.result() for t in done) if k is not None}

    def _addresses(self) -> dict[str, str]:
        """POLITENESS_KEY=ip: the held hosts' addresses now (resolved within their TTL)."""
        agent = self.agent
        assert agent is not None
        address = self._slots.address
        return {h: a for h in agent.membership.owned if (a := address(h)) is not None}

    def _agent_gate(self, host: str) -> float | None:
        """The agent's answer for ``host`` (None: not this agent's to fetch now), with
        POLITENESS_KEY=ip given where the host resolves now."""
        agent = self.agent
        assert agent is not None
        return agent.gate(host, self._slots.address(host))

    def _busy_hosts(self) -> set[str]:
        return {entry.host for _, entry in self._handed.values()}

    def _next_fetch(self) -> dict[str, float]:
        """Seconds until each recently fetched host may be fetched again. With
        POLITENESS_KEY=ip every held host of a server gets the server's wait (its slot's
        delay after its last request, and its back-off): they change hands together."""
        now = monotonic()
        live_slot = self._slots.slot
        key = self._slots.server_key
        waits: dict[str, float] = {}
        for host, start in self._last_start.items():
            slot = live_slot(host)
            if slot is None or not slot.delay:
                continue
            start = max(start, slot.lastseen)
            if start + slot.delay > now:
                k = key(host)
                waits[k] = max(waits.get(k, 0.0), start + slot.delay - now)
        if self.backoff is not None:  # the next owner keeps the pause a host asked for
            for k, wait in self.backoff.waits().items():
                waits[k] = max(wait, waits.get(k, 0.0))
        if not self._slots.by_server or self.agent is None:
            return waits
        by_host = {}
        for host in self.agent.membership.owned:
            wait = max(waits.get(key(host), 0.0), waits.get(host, 0.0))
            if wait > 0:
                by_host[host] = wait
        return by_host

    def _host_load(self) -> HostLoad:
        """What this agent's downloader can do with the hosts it holds (for lending
        hosts to agents that need them, crawler/agents/assignment.py)."""
        agent, frontier = self.agent, self.frontier
        assert agent is not None and frontier is not None
        slots_of = self._slots.slot
        new_limits = self._slots.new_slot_limits
        latency = self._latency
        slots: dict[str, float] = {}
        pending: dict[str, int] = {}
        for _, entry in self._handed.values():  # in flight
            pending[entry.host] = pending.get(entry.host, 0) + 1
        for host in agent.membership.owned:
            slot = slots_of(host)
            concurrency, delay = (
                (slot.concurrency, slot.delay) if slot is not None else new_limits(host)
            )
            if self.backoff is not None and self.backoff.wait(self._slots.server_key(host)) > 0:
                slots[host] = 0.0  # paused (429/503): serves nothing for now
            else:
                slots[host] = host_slots(concurrency, delay, latency)
            count = frontier.buffer.host_count(host)
            if count:
                pending[host] = pending.get(host, 0) + count
        concurrency, delay = new_limits("")
        return HostLoad(self.concurrent_requests, slots, pending,
                        host_slots(concurrency, delay, latency))

    def _is_idle(self) -> bool:
        frontier = self.frontier
        if (
            frontier is None
            or not self._engine_idle
            or len(frontier.buffer)
            or frontier.unwritten
            or self._handed
        ):
            return False
        return not self._slots.in_progress()

    def _refill_soon(self) -> None:
        if self.frontier is not None:
            self.frontier.unblock_refill()
        if self._wake is not None:
            self._wake.set()

    def _spider_idle(self, spider: Spider) -> None:
        agent = self.agent
        if agent is None:
            return
        if agent.finish_reason is not None:
            raise CloseSpider(agent.finish_reason)
        self._engine_idle = True
        agent.wake()  # tell the others soon that this agent is idle
        raise DontCloseSpider

    def _finish_crawl(self, reason: str) -> None:
        agent = self.agent
        if agent is not None and agent.error is not None:
            self._give_up(agent.error)
        engine = self.crawler.engine
        if self.spider is not None and engine is not None and not self._closing:
            engine.close_spider(self.spider, reason)

    def _give_up(self, message: str) -> None:
        """The agent lost the database for good: the spider closes, and since closing
        writes to the database (and may hang on a dead connection), the process exits
        AGENT_LEASE_TTL seconds later whatever is left (unwritten pages are fetched again
        by the agents that took its hosts and its re-queued leases)."""
        from twisted.internet import reactor

        self.stats.set_value(ERROR_STAT, message)

        def exit_now() -> None:
            sys.stderr.write(f"error: {message}\n")
            sys.stderr.flush()
            os._exit(2)

        reactor.callLater(self.agent_ttl, exit_now)  # type: ignore[attr-defined]

    def close(self, reason: str) -> Deferred[None]:
        return deferred_from_coro(self._close(reason))

    async def _close(self, reason: str) -> None:
        frontier = self.frontier
        if frontier is None:
            return
        self._closing = True
        self._cancel_poke()
        assert self._wake is not None and self._lock is not None
        self._wake.set()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
        async with self._lock:
            self._poll_acks()
            try:
                if self.agent is not None and self.agent.error is not None:
                    raise RuntimeError(self.agent.error)  # nothing can be written
                await frontier.close(clean=True)
            except Exception as exc:
                logger.error(
                    "frontier: the last changes could not be written (%s); the next run of "
                    "this crawl re-queues what was in flight",
                    exc,
                )
        if self.agent is not None:
            await self.agent.stop(reason)
        self._update_stats()
        logger.info(
            "frontier closed (%s): %d queued (%d inter, %d intra), %d fetched, %d duplicates, "
            "%d evicted",
            reason,
            frontier.queued,
            frontier.queued_inter,
            frontier.queued_intra,
            frontier.counters.acked,
            frontier.counters.duplicates,
            frontier.counters.evicted_age + frontier.counters.evicted_size,
        )

    # --- the scheduler interface ---------------------------------------------------------
    def has_pending_requests(self) -> bool:
        frontier = self.frontier
        if frontier is None:
            return False
        if self.agent is not None:
            # the queue is the crawl's, shared: this agent's pending work is its buffer
            # and what it has not written yet (the crawl's end: see AgentDriver)
            return bool(len(frontier.buffer) or frontier.unwritten)
        return frontier.has_pending()

    def __len__(self) -> int:
        return self.frontier.queued if self.frontier is not None else 0

    def enqueue_request(self, request: Request) -> bool:
        frontier = self.frontier
        if frontier is None:
            return False
        meta = request.meta
        link = meta.pop("link", None)
        if link is not None and not isinstance(link, LinkEvent):
            link = LinkEvent.from_mapping(link, self.seed_cash)  # a spider's own dict
        terms = meta.pop("score_terms", None)
        previous = meta.pop("frontier", None)
        if link is not None and link.url == request.url:
            url = request.url  # already canonical (CrawlerSpider.link_request)
        else:
            url = canonical_url(request.url) or request.url
        fp = url_fingerprint(url, request.method, request.body)
        host = self._slot_key(request)
        extra = weighted_terms(terms, self.weights) if terms else 0.0
        if previous is not None and (previous.get("fp") == fp or "redirect_urls" in meta):
            # a retry or a redirect of a request handed out before: same standing
            stats = UrlStats.from_dict(previous.get("stats", {}))
            stats.extra = max(stats.extra, extra) if terms else stats.extra
            inter = bool(previous.get("inter", True))
            is_link = False
        elif link is not None:
            stats = link.stats(meta.get("depth"), extra)
            inter = link.inter
            is_link = True
        else:
            stats = seed_stats(int(meta.get("depth", 0)), self.seed_cash, extra)
            inter = True
            is_link = False
        scope = self.scope
        if scope is not None and scope.scope:
            redirect = "redirect_urls" in meta
            kind = (
                "redirect" if redirect
                else "link" if is_link
                else "seed" if meta.get("is_start_request")
                else "other"
            )
            refusal = scope.refusal(url, kind=kind)
            if refusal is not None:
                # a redirect's first URL was queued: it is recorded whatever the setting
                if redirect or scope.record:
                    meta[SCOPE_REFUSAL_META] = f"{url}: {refusal}" if redirect else refusal
                return False  # Scrapy sends request_dropped (the pipeline records it)
        priority = request.priority
        if meta.get("is_start_request"):
            # another agent loaded the seeds; a retry or redirect of a seed this agent
            # fetched (``previous``) is its own to queue, not a seed of its own
            if not self._seeding and previous is None:
                self.stats.inc_value("agents/seeds_skipped")
                return False
            priority += self.seed_priority
        added = frontier.add(
            fp,
            url,
            host,
            priority,
            stats,
            inter,
            request,
            link=is_link,
            force=request.dont_filter,
        )
        if (
            added
            and self._wake is not None
            and (
                frontier.wants_flush()
                or (self.agent is not None and len(frontier.buffer) < self._starving_below)
            )
        ):
            self._wake.set()
        return added

    def absorb_known_link(self, request: Request) -> bool:
        """A spider's link request to a URL the frontier has seen: its in-link counts as
        enqueue_request would count it (True), and the request need not go on through
        the engine, where it would only be dropped. False: schedule it as usual (a new
        URL, a retry or redirect, dont_filter, scope rules, a spider's own scoring)."""
        if request.dont_filter:
            return False
        meta = request.meta
        link = meta.get("link")
        if (
            not isinstance(link, LinkEvent)
            or link.url != request.url
            or "frontier" in meta
            or "score_terms" in meta
        ):
            return False
        fp = url_fingerprint(link.url, request.method, request.body)
        if not self._absorb_seen(fp, link.stats(meta.get("depth"), 0.0)):
            return False
        del meta["link"]
        return True

    def absorb_known_url(self, url: str, stats: UrlStats) -> bool:
        """absorb_known_link for a link the spider has built no request for: a plain GET
        link to the canonical ``url`` (as a link request's URL would be), whose statistics
        are ``stats`` (its LinkEvent's, at the request's depth)."""
        return self._absorb_seen(url_fingerprint(url), stats)

    def _absorb_seen(self, fp: int, stats: UrlStats) -> bool:
        """The frontier's absorb_seen; False without a frontier, or in a crawl whose scope
        rules must judge every link."""
        frontier = self.frontier
        if frontier is None or (self.scope is not None and self.scope.scope):
            return False
        return frontier.absorb_seen(fp, stats)

    def next_request(self) -> Request | None:
        frontier = self.frontier
        if frontier is None:
            return None
        while True:
            entry = frontier.pop(self._readiness)
            if entry is None:
                self._nothing_ready()
                return None
            request = entry.request
            if request is None:
                try:
                    assert self.codec is not None and entry.payload is not None
                    request = self.codec.decode(entry.payload, entry.url)
                except Exception:
                    logger.exception(
                        "frontier: cannot rebuild the request of %s; dropped", entry.url
                    )
                    self.stats.inc_value("frontier/undecodable")
                    frontier.done(entry)
                    continue
                entry.request = request
            scope = self.scope
            if scope is not None and scope.scope:
                refusal = scope.refusal(entry.url, kind="queued")
                if refusal is not None:  # excluded while it was queued: never fetched
                    frontier.done(entry)
                    request.meta[SCOPE_REFUSAL_META] = refusal
                    self.crawler.signals.send_catch_log(
                        signals.request_dropped, request=request, spider=self.spider
                    )
                    continue
            if entry.in_db:
                entry.payload = None
            request.meta["frontier"] = {
                "fp": entry.fp,
                "score": entry.score,
                "cash": entry.stats.cash,
                "inter": entry.inter,
                "stats": entry.stats.as_dict(),
            }
            self._handed[id(request)] = (request, entry)
            self._engine_idle = False
            self._host_requests.setdefault(entry.host, []).append(request)
            self._last_start[entry.host] = monotonic()
            if frontier.needs_refill() and self._wake is not None:
                self._wake.set()
            return request

    # --- politeness ------------------------------------------------------------------------
    def _readiness(self, host: str) -> float | None:
        """0 if ``host`` may get a request now, seconds to wait, or None while it has as
        many requests in flight as its downloader slot's concurrency."""
        gate = 0.0
        if self.agent is not None:
            gate = self._agent_gate(host)  # the host's owner and its hand-over delay
            if gate is None:
                return None
        if self.backoff is not None:  # a pause the host (or its server) asked for
            gate = max(gate, self.backoff.wait(self._slots.server_key(host)))
        slots = self._slots
        slot = slots.slot(host)
        in_flight = self._in_flight(host, slot)
        if slot is not None:
            concurrency, delay, last = slot.concurrency, slot.delay, slot.lastseen
        else:
            concurrency, delay = slots.new_slot_limits(host)
            last = 0.0
        # The host's robots.txt verdict is being decided (or no request of it has reached
        # the downloader yet): its requests wait in the downloader's middlewares, each
        # holding one of CONCURRENT_REQUESTS that other hosts could use (on a new crawl's
        # web of many new hosts they held most of them in the first seconds: issue 29,
        # docs/performance.md). One is handed out; the others stay in the buffer.
        if (
            in_flight
            and self.one_per_new_host
            and (slot is None or host in self._pending_verdicts)
        ):
            return None
        if concurrency and in_flight >= concurrency:
            return None
        if delay:
            last = max(last, self._last_start.get(host, 0.0))
            wait = last + delay - monotonic()
            if wait > gate:
                return wait
        return gate

    def _in_flight(self, host: str, slot: Any) -> int:
        """Requests of ``host`` in the downloader: those in its slot (queued or being
        transferred) and those handed out here that have not reached it yet (in the
        downloader middlewares, e.g. waiting for robots.txt). With POLITENESS_KEY=ip the
        slot is the server's: the other hosts' requests on their way to it count too."""
        in_flight = self._on_the_way(host, slot)
        if self._slots.by_server:
            server_key = self._slots.server_key
            server = server_key(host)
            if server != host:
                for other in list(self._host_requests):
                    if other != host and server_key(other) == server:
                        in_flight += self._on_the_way(other, slot)
        if slot is not None:
            in_flight += len(slot.active)
        return in_flight

    def _on_the_way(self, host: str, slot: Any) -> int:
        """Requests of ``host`` handed out and still in the downloader, not in ``slot``."""
        ours = self._host_requests.get(host)
        if not ours:
            return 0
        downloading = self._slots.downloading
        alive = [r for r in ours if r in downloading]
        if len(alive) != len(ours):
            if alive:
                self._host_requests[host] = alive
            else:
                del self._host_requests[host]
        if slot is None:
            return len(alive)
        return sum(1 for r in alive if r not in slot.active)

    def _nothing_ready(self) -> None:
        frontier = self.frontier
        assert frontier is not None
        at = frontier.next_ready_at()
        if at is not None:
            self._schedule_poke(at - monotonic())
        if frontier.needs_refill() and self._wake is not None:
            self._wake.set()

    def _schedule_poke(self, delay: float) -> None:
        """Make the engine ask for a request again after ``delay`` seconds."""
        from twisted.internet import reactor

        delay = max(delay, 0.0) + 0.002
        when = monotonic() + delay
        call = self._poke_call
        if call is not None and call.active():
            if self._poke_at <= when:
                return
            call.cancel()
        self._poke_at = when
        self._poke_call = reactor.callLater(delay, self._poke)  # type: ignore[attr-defined]

    def _poke(self) -> None:
        self._poke_call = None
        if not self._closing:
            self._slots.wake_engine()

    def _cancel_poke(self) -> None:
        if self._poke_call is not None and self._poke_call.active():
            self._poke_call.cancel()
        self._poke_call = None

    # --- background writing -----------------------------------------------------------------
    def _serialize(self, request: Request, url: str) -> bytes:
        assert self.codec is not None
        try:
            return self.codec.encode(request, url)
        except Exception as exc:
            # callbacks that are not spider methods cannot be stored; the request stays
            # in memory, and a copy without them is stored
            self.stats.inc_value("frontier/unserializable")
            logger.warning(
                "frontier: cannot store %s as it is (%s); storing its URL only", request, exc
            )
            return self.codec.encode(Request(request.url, meta=dict(request.meta)))

    def _poll_acks(self) -> None:
        """Ack the handed-out requests the engine has finished with."""
        frontier = self.frontier
        assert frontier is not None
        in_progress = self._slots.in_progress()
        finished = [key for key, (request, _) in self._handed.items() if request not in in_progress]
        for key in finished:
            request, entry = self._handed.pop(key)
            frontier.done(entry, scheduled_url(request))
            if self.agent is not None:
                # the responses' latency: how many requests a host with a delay keeps
                # in flight (work-aware lending, _host_load)
                latency = request.meta.get("download_latency")
                if latency is not None:
                    self._latency = (
                        latency if self._latency is None
                        else 0.9 * self._latency + 0.1 * latency
                    )

    async def _write_loop(self) -> None:
        assert self._wake is not None and self._lock is not None
        while not self._closing:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.flush_interval)
            self._wake.clear()
            if self._closing:
                return
            try:
                async with self._lock:
                    await self._tick()
                self._failures = 0
            except Exception as exc:
                self._failures += 1
                self.stats.inc_value("frontier/write_errors")
                logger.warning("frontier: writing to the database failed (%s); retrying", exc)
                await asyncio.sleep(min(2.0**self._failures, 30.0))

    async def _tick(self) -> None:
        frontier = self.frontier
        assert frontier is not None
        self._poll_acks()
        await frontier.flush()
        agent = self.agent
        if agent is None:
            if frontier.needs_refill() and await frontier.refill():
                self._schedule_poke(0.0)
        else:
            now = monotonic()
            if now - self._last_refill > self.flush_interval:
                frontier.unblock_refill()  # other agents may have queued URLs of our hosts
            if frontier.needs_refill():
                self._last_refill = now
                if await frontier.refill(agent.fetchable_hosts()):
                    self._schedule_poke(0.0)
                elif not len(frontier.buffer):
                    agent.wake()  # out of work: hosts may be waiting for an owner
        self._update_stats()
        if self._slots.engine_paused():
            self._stalls.forget(set())  # paused by its control: nothing is handed out
        elif self.stall_check_interval > 0:
            now = monotonic()
            if now - self._last_stall_check >= self.stall_check_interval:
                self._last_stall_check = now
                await self._check_stalls(now)
        now = monotonic()
        for host in [h for h, t in self._last_start.items() if t < now - 120.0]:
            del self._last_start[host]
        downloading = self._slots.downloading
        for host in [
            h for h, rs in self._host_requests.items() if not any(r in downloading for r in rs)
        ]:
            del self._host_requests[host]

    # --- back-off by answer -----------------------------------------------------------------
    def _response_downloaded(self, response: Any, request: Request, spider: Spider) -> None:
        """Every answer, before the downloader starts the host's next request: a 429 or
        503 pauses its host (crawler/politeness/backoff.py)."""
        backoff = self.backoff
        assert backoff is not None
        host = self._slot_key(request)
        if self._slots.by_server:  # POLITENESS_KEY=ip: the server it was sent to pauses
            host = str(request.meta.get("download_slot") or host)
        retry_after = response.headers.get(b"Retry-After")
        pause = backoff.answer(host, response.status, retry_after)
        if pause is None:
            return
        self.stats.inc_value("backoff/paused")
        self.stats.inc_value(f"backoff/status/{response.status}")
        self.stats.set_value("backoff/capped", backoff.capped)
        self.stats.max_value("backoff/max_pause", pause)
        logger.debug(
            "host %s answered %d (Retry-After: %s): paused %.2f s",
            host,
            response.status,
            retry_after.decode("latin-1") if retry_after else "none",
            pause,
        )
        self._schedule_poke(pause)

    # --- the stall invariant -----------------------------------------------------------------
    @property
    def stalled_hosts(self) -> list[str]:
        """Hosts stalled now (the whole frontier shows as "frontier"), for the progress
        line."""
        return [key or "frontier" for key in self._stalls.stalled]

    async def _check_stalls(self, now: float) -> None:
        """The invariant of crawler/frontier/stalls.py, on every buffered host and on
        the frontier as a whole."""
        frontier = self.frontier
        assert frontier is not None
        watch = self._stalls
        slots = self._slots
        room = slots.engine_has_room()
        holding = frontier.buffer.hold_margin is not None
        # what is in flight, counted afresh from the downloader's own set rather than
        # through the accounting under test
        downloading = Counter(self._slot_key(r) for r in slots.downloading)
        if slots.by_server:  # a host waits while its server's slot is busy with another
            servers: Counter[str] = Counter()
            for key, count in downloading.items():
                servers[slots.server_key(key)] += count
        observed = {FRONTIER}
        for host in list(frontier.buffer.hosts):
            if self.agent is not None and self._agent_gate(host) is None:
                continue  # not this agent's to fetch now
            observed.add(host)
            slot = slots.slot(host)
            in_flight = downloading.get(host, 0)
            if slots.by_server:
                in_flight = servers.get(slots.server_key(host), 0)
            wait = self._readiness(host)
            # None with nothing in flight: counted busy with nothing to show for it;
            # 0: ready, the downloader has room, and still not served
            starved = in_flight == 0 and (wait is None or (wait <= 0 and room and not holding))
            delay = slot.delay if slot is not None else slots.new_slot_limits(host)[1]
            allowed = delay + self.download_timeout
            idle = watch.observe(host, starved, allowed, now)
            if idle is not None:
                self._report_stall(
                    f"host {host} has {frontier.buffer.host_count(host)} URLs waiting in "
                    f"the buffer",
                    idle,
                    allowed,
                    delay,
                    f"in flight {in_flight}, readiness "
                    f"{'busy' if wait is None else f'{wait:.2f} s'}",
                )
        if self.agent is None:  # an agent's queue is the crawl's: other agents' hosts
            starved = (
                frontier.queued > 0
                and not len(frontier.buffer)
                and not self._handed
                and not slots.in_progress()
            )
            delay = slots.new_slot_limits("")[1]
            allowed = delay + self.download_timeout
            idle = watch.observe(FRONTIER, starved, allowed, now)
            if idle is not None:
                hosts = await frontier.queued_hosts(5)
                named = ", ".join(f"{h} ({n})" for h, n in hosts) or "none found in the store"
                self._report_stall(
                    f"frontier has {frontier.queued} URLs queued (0 buffered), hosts {named},",
                    idle,
                    allowed,
                    delay,
                    "nothing in progress",
                )
        watch.forget(observed)
        if watch.stalls:  # (no stall: no such stats, no line of the log says "stall")
            self.stats.set_value("frontier/stalls", watch.stalls)
            self.stats.set_value("frontier/stalled_hosts", len(watch.stalled))

    def _report_stall(
        self, what: str, idle: float, allowed: float, delay: float, detail: str
    ) -> None:
        frontier = self.frontier
        assert frontier is not None
        self.stats.set_value("frontier/stalls", self._stalls.stalls)
        downloading = len(self._slots.downloading)
        logger.warning(
            "frontier: stall: %s and no request in flight for %.1f s (allowed %.1f s: delay "
            "%.2f s + DOWNLOAD_TIMEOUT %.0f s); %s; downloader %d/%d active, frontier %d "
            "queued, %d buffered, %d handed out, refill %s",
            what,
            idle,
            allowed,
            delay,
            self.download_timeout,
            detail,
            downloading,
            self.concurrent_requests,
            frontier.queued,
            len(frontier.buffer),
            len(self._handed),
            "blocked" if frontier.refill_blocked else "open",
        )

    # --- statistics --------------------------------------------------------------------------
    def _update_stats(self) -> None:
        frontier = self.frontier
        assert frontier is not None
        c = frontier.counters
        set_value = self.stats.set_value
        set_value("frontier/queued", frontier.queued)
        set_value("frontier/queued/inter", frontier.queued_inter)
        set_value("frontier/queued/intra", frontier.queued_intra)
        set_value("frontier/buffered", len(frontier.buffer))
        set_value("frontier/seen", len(frontier.seen))
        set_value("frontier/enqueued", c.enqueued)
        set_value("frontier/duplicates", c.duplicates)
        set_value("frontier/dequeued", c.dequeued)
        set_value("frontier/acked", c.acked)
        set_value("frontier/evicted/age", c.evicted_age)
        set_value("frontier/evicted/size", c.evicted_size)
        set_value("frontier/reprioritised", c.reprioritised + c.rescored_stored)
        set_value("frontier/refills", c.refills)
        set_value("frontier/refilled", c.refilled)
        set_value("frontier/flushes", c.flushes)
        if frontier.buffer.hold_margin is not None:
            set_value("frontier/held", frontier.buffer.held)

    def frontier_snapshot(self) -> tuple[int, int, int, IntervalStats]:
        """Queue size (total, inter, intra) now and what happened since the last call
        (for the crawl_stats rows)."""
        frontier = self.frontier
        if frontier is None:
            return 0, 0, 0, IntervalStats()
        return (
            frontier.queued,
            frontier.queued_inter,
            frontier.queued_intra,
            frontier.take_interval(),
        )
