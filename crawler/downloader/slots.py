"""``DownloaderSlots``: the one place that reads and changes Scrapy's downloader slots.

Modelled on Scrapy's own ``DownloaderInterface`` (scrapy/pqueues.py), which gives the
downloader-aware priority queue what it needs of ``Downloader.slots`` through a few
methods. Scrapy has no public API for what the project's politeness needs (a slot's
delay and last request time, the settings a slot will be created with, the engine's
requests in progress, waking the engine), so every such access to its internals
(``Downloader.slots``, ``Downloader.per_slot_settings``, ``Downloader._jitter``,
``ExecutionEngine._slot`` and its ``nextcall``) is written here and only here: a
Scrapy upgrade that moves them is fixed in this one module.

Used by the best-first scheduler (readiness of a host), the Crawl-delay extension and
the Crawl-delay-aware AutoThrottle.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Collection

    from scrapy import Request
    from scrapy.core.downloader import Downloader, Slot
    from scrapy.crawler import Crawler


#: hosts whose last address is remembered past its TTL (POLITENESS_KEY=ip)
_REMEMBERED_ADDRESSES = 100_000

#: the attribute of Scrapy's Downloader holding the requests whose response waits in a
#: downloader middleware for work done elsewhere (shared by every DownloaderSlots of
#: the crawler: :meth:`DownloaderSlots.response_waiting`)
_WAITING_RESPONSES = "_crawler_waiting_responses"


class DownloaderSlots:
    """The downloader's per-host slots (and the engine's requests in progress) of one
    crawler. Built before the engine exists (from_crawler of an extension): the
    downloader is looked up on first use."""

    def __init__(self, crawler: Crawler, by_server: bool = False) -> None:
        self._crawler = crawler
        # POLITENESS_KEY = "ip": the slot of a host is the address it resolves to
        # (crawler/middlewares/politeness_key.py puts its requests there)
        self.by_server = by_server
        # host -> the address it last resolved to, for the moments its cache entry has
        # run out (until its next request resolves it again)
        self._addresses: dict[str, str] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DownloaderSlots:
        from crawler.politeness.dns import politeness_key_setting

        return cls(crawler, politeness_key_setting(crawler.settings) == "ip")

    @cached_property
    def downloader(self) -> Downloader:
        engine = self._crawler.engine
        assert engine is not None, "the downloader exists once the engine does"
        return engine.downloader

    # --- slot keys ------------------------------------------------------------------------
    def slot_key(self, request: Request) -> str:
        """The downloader slot key (host name) of a request, as Downloader.get_slot_key
        computes it, without its cost for plain http(s) URLs. With POLITENESS_KEY=ip the
        host name too (the frontier, the agents and the back-off keep hosts): the slot
        the request is downloaded in is :meth:`server_key` of it."""
        slot = request.meta.get("download_slot")
        if slot is not None and not self.by_server:
            return str(slot)
        url = request.url
        downloader = self.downloader
        if not downloader.ip_concurrency and url.startswith(("http://", "https://")):
            netloc = url.split("/", 3)[2]
            if "@" not in netloc and "[" not in netloc:
                return netloc.split(":", 1)[0].lower()
        return str(downloader.get_slot_key(request))

    def server_key(self, key: str) -> str:
        """The downloader slot of host ``key``: the host itself, or with POLITENESS_KEY=ip
        the address it resolved to (the host until it is resolved; an address is its own
        key)."""
        if not self.by_server:
            return key
        address = self.address(key)
        if address is None:
            return self._addresses.get(key, key)
        if self._addresses.get(key) != address:
            if len(self._addresses) >= _REMEMBERED_ADDRESSES:
                self._addresses.clear()  # (bounded: forgetting costs only the fallback)
            self._addresses[key] = address
        return address

    def address(self, key: str) -> str | None:
        """The address the resolver has for host ``key`` now (its TTL not over), or
        None (with POLITENESS_KEY=ip; always None by host name)."""
        if not self.by_server:
            return None
        from crawler.downloader.resolver import cached_address

        return cached_address(key)

    # --- live slots ---------------------------------------------------------------------
    def slot(self, key: str) -> Slot | None:
        """The live slot of host ``key`` (its ``concurrency``, ``delay``, ``jitter``,
        ``lastseen`` and ``active`` requests; the server's slot with POLITENESS_KEY=ip),
        None until the downloader creates it and after it collected it (a minute idle)."""
        return self.downloader.slots.get(self.server_key(key))

    def new_slot_limits(self, key: str) -> tuple[int, float]:
        """``(concurrency, delay)`` the downloader gives the slot of ``key`` when it
        creates it (Downloader._get_slot): its DOWNLOAD_SLOTS entry, else the defaults."""
        downloader = self.downloader
        conf = downloader.per_slot_settings.get(self.server_key(key)) or {}
        concurrency = conf.get(
            "concurrency", downloader.ip_concurrency or downloader.domain_concurrency
        )
        delay = float(conf.get("delay", getattr(downloader, "_delay", 0.0)))
        return concurrency, delay

    @property
    def downloading(self) -> Collection[Request]:
        """The requests in the downloader now (its middlewares included), but for those
        whose response is only waiting for a page-analysis worker
        (:meth:`response_waiting`): their download is over."""
        downloader = self.downloader
        waiting = downloader.__dict__.get(_WAITING_RESPONSES)
        return downloader.active - waiting if waiting else downloader.active

    @contextmanager
    def response_waiting(self, request: Request) -> Iterator[None]:
        """While the response of ``request`` waits in a downloader middleware for work
        done elsewhere (a page-analysis worker), the request holds no place of
        CONCURRENT_REQUESTS and is no longer in flight for its host (:attr:`downloading`):
        its download is over, and Scrapy keeps it in ``Downloader.active`` only until its
        middlewares are done. Without this, the pages queued for the one worker of a
        2-core machine (up to PAGE_ANALYSIS_MAX_PENDING, and the large pages that wait)
        held most of the 16 places in a crawl's first seconds (docs/performance.md)."""
        downloader = self.downloader
        waiting: set[Request] = downloader.__dict__.setdefault(_WAITING_RESPONSES, set())
        limited = downloader.total_concurrency > 0  # (0: no limit)
        waiting.add(request)
        if limited:
            downloader.total_concurrency += 1
        self.wake_engine()
        try:
            yield
        finally:
            waiting.discard(request)
            if limited:
                downloader.total_concurrency -= 1

    # --- slot settings (DOWNLOAD_SLOTS, kept for slots created later) ---------------------
    def configured(self, key: str) -> dict[str, Any] | None:
        """The settings entry of ``key`` (DOWNLOAD_SLOTS or set by :meth:`configure`)."""
        return self.downloader.per_slot_settings.get(self.server_key(key))

    def configure(self, key: str, settings: dict[str, Any] | None) -> None:
        """Make ``settings`` the entry a slot of ``key`` is created with (None: none).
        A live slot is not changed: set its attributes through :meth:`slot`."""
        per_slot = self.downloader.per_slot_settings
        key = self.server_key(key)
        if settings is None:
            per_slot.pop(key, None)
        else:
            per_slot[key] = settings

    @property
    def default_jitter(self) -> float:
        """The jitter of slots without their own (DOWNLOAD_DELAY_JITTER)."""
        return float(self.downloader._jitter)

    # --- the engine ---------------------------------------------------------------------
    def in_progress(self) -> Collection[Request]:
        """The engine's requests in progress: handed out by the scheduler and not yet
        through their callback (or errback) and item pipelines."""
        slot = getattr(self._crawler.engine, "_slot", None)
        return slot.inprogress if slot is not None else ()

    def engine_has_room(self) -> bool:
        """Whether the engine would take another request now (the downloader below
        CONCURRENT_REQUESTS and the scraper not backed up: ExecutionEngine.needs_backout)."""
        engine = self._crawler.engine
        return engine is not None and not engine.needs_backout()

    def engine_paused(self) -> bool:
        """Whether the engine hands out no request now (ExecutionEngine.pause: a crawl
        paused by its live control, crawler/extensions/control.py)."""
        engine = self._crawler.engine
        return engine is not None and bool(engine.paused)

    def pause_engine(self, paused: bool) -> None:
        """Pause the engine (no new request leaves the scheduler; those in flight
        finish) or let it go on, and wake it."""
        engine = self._crawler.engine
        if engine is None:
            return
        if paused:
            engine.pause()
        else:
            engine.unpause()
            self.wake_engine()

    def wake_engine(self) -> None:
        """Make the engine ask the scheduler for requests soon (as it does after each
        response), instead of at its next 5 s heartbeat."""
        slot = getattr(self._crawler.engine, "_slot", None)
        if slot is not None:
            slot.nextcall.schedule()
