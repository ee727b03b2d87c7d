"""Harvest rate of a focused crawl, cumulative and per interval, in stats and `crawl_stats`.

The spider counts judged pages (``focus/pages``) and relevant ones (``focus/relevant``)
and keeps ``focus/harvest_rate`` (relevant / fetched pages) up to date. Every
FOCUS_HARVEST_INTERVAL seconds (unset: STATS_INTERVAL, default 1800), and once
more when the spider closes, this extension turns the counts into a sample: it sets
``focus/interval_pages``, ``focus/interval_relevant`` and ``focus/interval_harvest_rate``
(the interval just ended) and inserts a row into ``crawl_stats`` with the harvest_*
columns (the frontier's own rows, written by its scheduler, leave them NULL).
Active only for spiders whose class sets ``judges_relevance = True``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.focus import HarvestIntervals, HarvestSample
from crawler.storage.database import crawl_database

logger = logging.getLogger(__name__)

_INSERT_SQL = """
INSERT INTO crawl_stats (crawl_id, at, harvest_pages, harvest_relevant, harvest_rate,
                         harvest_interval_pages, harvest_interval_relevant,
                         harvest_interval_rate, harvest_interval_seconds)
VALUES (%s, now(), %s, %s, %s, %s, %s, %s, %s)
"""


def harvest_interval(settings: Any) -> float:
    """FOCUS_HARVEST_INTERVAL, else STATS_INTERVAL (the frontier's crawl_stats rows)."""
    value = settings.get("FOCUS_HARVEST_INTERVAL", defaults.FOCUS_HARVEST_INTERVAL)
    if value in (None, ""):
        value = settings.get("STATS_INTERVAL", defaults.STATS_INTERVAL)
    return float(value)


class HarvestRate:
    def __init__(self, crawler: Any, interval: float) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.interval = interval
        self.database = crawl_database(crawler)
        self.intervals = HarvestIntervals(time.monotonic())
        self._task: asyncio.Task[None] | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> HarvestRate:
        if not getattr(crawler.spidercls, "judges_relevance", False):
            raise NotConfigured  # no message: Scrapy then says nothing (not a focused spider)
        interval = harvest_interval(crawler.settings)
        if interval <= 0:
            raise NotConfigured("no harvest interval (FOCUS_HARVEST_INTERVAL / STATS_INTERVAL 0)")
        return cls(crawler, interval)

    @property
    def crawl_id(self) -> str:
        spider = self.crawler.spider
        return str(getattr(spider, "crawl_id", "") or spider.name)

    def spider_opened(self, spider: Any) -> None:
        self.intervals = HarvestIntervals(time.monotonic())
        self._task = asyncio.get_running_loop().create_task(self._every_interval())

    async def _every_interval(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            sample = self.sample()
            try:
                await asyncio.to_thread(self.write, sample)
            except Exception:  # keep sampling; a lost row is logged, not fatal
                logger.exception("cannot write the harvest rate to crawl_stats")

    def spider_closed(self, spider: Any, reason: str) -> None:
        if self._task is None:  # the spider never opened (e.g. a pipeline failed to open)
            return
        self._task.cancel()
        self._task = None
        try:
            self.write(self.sample())
        except Exception:
            logger.exception("cannot write the harvest rate to crawl_stats")

    def sample(self) -> HarvestSample:
        sample = self.intervals.sample(
            int(self.stats.get_value("focus/pages", 0)),
            int(self.stats.get_value("focus/relevant", 0)),
            time.monotonic(),
        )
        self.stats.set_value("focus/interval_pages", sample.interval_pages)
        self.stats.set_value("focus/interval_relevant", sample.interval_relevant)
        if sample.interval_rate is not None:
            self.stats.set_value("focus/interval_harvest_rate", round(sample.interval_rate, 6))
        self.stats.inc_value("focus/harvest_samples")
        logger.info(
            "harvest rate: %s (%d/%d pages), last %.0f s: %s (%d/%d)",
            _fmt(sample.rate),
            sample.relevant,
            sample.pages,
            sample.interval_seconds,
            _fmt(sample.interval_rate),
            sample.interval_relevant,
            sample.interval_pages,
        )
        return sample

    def write(self, sample: HarvestSample) -> None:
        with self.database.connect(autocommit=True) as conn:
            conn.execute(
                _INSERT_SQL,
                (
                    self.crawl_id,
                    sample.pages,
                    sample.relevant,
                    sample.rate,
                    sample.interval_pages,
                    sample.interval_relevant,
                    sample.interval_rate,
                    sample.interval_seconds,
                ),
            )


def _fmt(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate:.3f}"
