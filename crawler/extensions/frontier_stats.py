"""Frontier statistics every STATS_INTERVAL: a log line, Scrapy stats, a `crawl_stats` row.

Each row covers the interval since the previous one (the last row, written when the
spider closes, covers what is left): pages fetched and pages per minute, the queue size
split by the kind of link that brought each URL in (inter- / intra-domain; seeds count
as inter), URLs enqueued and dequeued, the wait time of the dequeued URLs in the queue
(min / avg / max, seconds), evicted URLs and duplicate URLs rejected. These are the
series of the priority-queue paper, so its figures can be redrawn from the table.

With another scheduler than BestFirstScheduler the frontier columns are left NULL, except
the queue size when the scheduler has a length and duplicates from Scrapy's dupefilter.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import psycopg
from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.storage.database import crawl_database

logger = logging.getLogger(__name__)

_INSERT_SQL = """
INSERT INTO crawl_stats (crawl_id, at, interval_seconds, pages, pages_per_minute, queue_size,
                         queue_inter, queue_intra, enqueued, dequeued, wait_min, wait_avg,
                         wait_max, evicted, duplicates)
VALUES (%s, now(), %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
"""


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


class FrontierStats:
    def __init__(self, crawler: Any, interval: float) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.interval = interval
        self.database = crawl_database(crawler)
        self._task: asyncio.Task[None] | None = None
        # the row being written by the periodic task: the close waits for it instead of
        # cancelling it (a cancelled insert lost its interval's counts, already sampled)
        self._recording: asyncio.Task[None] | None = None
        self._since = time.monotonic()
        self._pages = 0
        self._duplicates = 0
        self.rows = 0
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> FrontierStats:
        interval = crawler.settings.getfloat("STATS_INTERVAL", defaults.STATS_INTERVAL)
        if interval <= 0:
            raise NotConfigured("STATS_INTERVAL is 0")
        return cls(crawler, interval)

    def spider_opened(self, spider: Any) -> None:
        self._since = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._every_interval())

    async def spider_closed(self, spider: Any, reason: str) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._recording is not None:
            await self._recording
            self._recording = None
        if time.monotonic() - self._since >= 0.05:
            await self.record()

    async def _every_interval(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self._recording = asyncio.get_running_loop().create_task(self.record())
            await asyncio.shield(self._recording)
            self._recording = None

    def sample(self) -> tuple[Any, ...]:
        """The values of one row (and of the log line), for the interval just ended."""
        now = time.monotonic()
        elapsed = max(now - self._since, 1e-9)
        self._since = now
        pages_total = int(self.stats.get_value("response_received_count", 0))
        pages, self._pages = pages_total - self._pages, pages_total
        scheduler = getattr(self.crawler.engine, "scheduler", None)
        snapshot = getattr(scheduler, "frontier_snapshot", None)
        if snapshot is not None:
            size, inter, intra, iv = snapshot()
            values = (
                size,
                inter,
                intra,
                iv.enqueued,
                iv.dequeued,
                iv.wait_min,
                iv.wait_avg,
                iv.wait_max,
                iv.evicted,
                iv.duplicates,
            )
        else:
            try:
                size = len(scheduler)  # type: ignore[arg-type]
            except TypeError:
                size = None
            dup_total = int(self.stats.get_value("dupefilter/filtered", 0))
            duplicates, self._duplicates = dup_total - self._duplicates, dup_total
            values = (size, None, None, None, None, None, None, None, None, duplicates)
        return (round(elapsed, 3), pages, pages * 60.0 / elapsed, *values)

    async def record(self) -> None:
        row = self.sample()
        (
            elapsed,
            pages,
            ppm,
            size,
            inter,
            intra,
            enqueued,
            dequeued,
            wait_min,
            wait_avg,
            wait_max,
            evicted,
            duplicates,
        ) = row
        logger.info(
            "frontier: %s queued (%s inter, %s intra); %d pages in %.0f s (%.1f pages/min); "
            "%s enqueued, %s dequeued, wait min/avg/max %s/%s/%s s; %s evicted, "
            "%s duplicates",
            size,
            inter,
            intra,
            pages,
            elapsed,
            ppm,
            enqueued,
            dequeued,
            _seconds(wait_min),
            _seconds(wait_avg),
            _seconds(wait_max),
            evicted,
            duplicates,
        )
        self.stats.set_value("frontier_stats/pages_per_minute", round(ppm, 2))
        spider = self.crawler.spider
        crawl_id = str(getattr(spider, "crawl_id", "") or spider.name)
        try:
            async with await psycopg.AsyncConnection.connect(
                self.database.url, autocommit=True
            ) as conn:
                await conn.execute(_INSERT_SQL, (crawl_id, *row))
        except psycopg.Error as exc:  # a lost row is logged, never fatal
            logger.warning("cannot write a crawl_stats row: %s", exc)
            return
        self.rows += 1
        self.stats.set_value("frontier_stats/rows", self.rows)
