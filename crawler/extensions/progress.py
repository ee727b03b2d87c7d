"""Live progress of a crawl (docs/operations.md).

On a terminal (stderr is a tty) one line is redrawn in place every second with rich's
Live display, log lines scrolling above it; elsewhere (scrapyd, CI, a log file) the same
line is logged every PROGRESS_INTERVAL seconds. The line (crawler.reporting.progress):
elapsed time, pages stored, pages/s, requests, frontier size, duplicate URLs, errors by
category and the ETA toward the CLOSESPIDER_* limits. Off with PROGRESS_INTERVAL = 0.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import Counter
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.items import PageItem, UncrawledItem
from crawler.reporting.progress import (
    Limits,
    ProgressSnapshot,
    eta_seconds,
    format_progress,
)
from crawler.reporting.taxonomy import POLICY, TAXONOMY

logger = logging.getLogger(__name__)

_POLICY = {category for category, _, group in TAXONOMY if group == POLICY}
TERMINAL_REFRESH = 1.0  # seconds between redraws of the in-place line


class CrawlProgress:
    def __init__(self, crawler: Any, interval: float, limits: Limits, terminal: bool) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.interval = TERMINAL_REFRESH if terminal else interval
        self.limits = limits
        self.terminal = terminal
        self.pages = 0
        self.errors: Counter[str] = Counter()
        self._started = time.monotonic()
        self._last = (self._started, 0, 0, 0)  # time, pages, responses, items
        self._task: asyncio.Task[None] | None = None
        self._live: Any = None
        self._swapped: list[logging.StreamHandler[Any]] = []
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlProgress:
        settings = crawler.settings
        interval = settings.getfloat("PROGRESS_INTERVAL", defaults.PROGRESS_INTERVAL)
        if interval <= 0:
            raise NotConfigured("PROGRESS_INTERVAL is 0")
        limits = Limits(
            pages=settings.getint("CLOSESPIDER_PAGECOUNT"),
            items=settings.getint("CLOSESPIDER_ITEMCOUNT"),
            seconds=settings.getfloat("CLOSESPIDER_TIMEOUT"),
        )
        return cls(crawler, interval, limits, terminal=sys.stderr.isatty())

    def item_scraped(self, item: Any, response: Any, spider: Any) -> None:
        if isinstance(item, PageItem):
            self.pages += 1
        elif isinstance(item, UncrawledItem) and item.category not in _POLICY:
            self.errors[item.category] += 1

    def snapshot(self) -> tuple[ProgressSnapshot, float | None]:
        """The values now, with rates over the time since the previous snapshot."""
        now = time.monotonic()
        get = self.stats.get_value
        responses = int(get("response_received_count", 0))
        items = int(get("item_scraped_count", 0))
        scheduler = getattr(self.crawler.engine, "scheduler", None)
        try:
            frontier: int | None = len(scheduler)  # type: ignore[arg-type]
        except TypeError:
            frontier = None
        then, pages0, responses0, items0 = self._last
        span = max(now - then, 1e-9)
        self._last = (now, self.pages, responses, items)
        snap = ProgressSnapshot(
            elapsed=now - self._started,
            pages=self.pages,
            responses=responses,
            requests=int(get("downloader/request_count", 0)),
            items=items,
            frontier=frontier,
            duplicates=int(get("frontier/duplicates", 0) or get("dupefilter/filtered", 0)),
            errors=Counter(self.errors),
            pages_per_second=(self.pages - pages0) / span,
            stalled=list(getattr(scheduler, "stalled_hosts", ())),
        )
        eta = eta_seconds(snap, self.limits, (responses - responses0) / span,
                          (items - items0) / span)
        return snap, eta

    def spider_opened(self, spider: Any) -> None:
        self._started = time.monotonic()
        self._last = (self._started, 0, 0, 0)
        if self.terminal:
            self._start_live()
        self._task = asyncio.get_running_loop().create_task(self._every_interval())

    async def _every_interval(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self.show()

    def show(self, final: bool = False) -> None:
        snapshot, eta = self.snapshot()
        line = format_progress(snapshot, None if final else eta)
        if self._live is not None:
            from rich.text import Text

            self._live.update(Text(line), refresh=True)  # plain text: no number colouring
        else:
            logger.info("progress: %s", line)

    def spider_closed(self, spider: Any, reason: str) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.show(final=True)
        self._stop_live()

    # ------------------------------------------------------------------ terminal

    def _start_live(self) -> None:
        from rich.console import Console
        from rich.live import Live

        original = sys.stderr
        self._live = Live("", console=Console(file=original), auto_refresh=False,
                          redirect_stdout=False, redirect_stderr=True, transient=False)
        self._live.start()
        # Scrapy's log handler writes to the stderr it saw at start: send it through the
        # Live display, so log lines scroll above the progress line instead of over it.
        for handler in logging.getLogger().handlers:
            if isinstance(handler, logging.StreamHandler) and handler.stream is original:
                handler.setStream(sys.stderr)
                self._swapped.append(handler)

    def _stop_live(self) -> None:
        if self._live is None:
            return
        self._live.stop()
        for handler in self._swapped:
            handler.setStream(sys.stderr)
        self._swapped.clear()
        self._live = None
