"""Garbage-collector settings for a crawl process (GC_GEN0_THRESHOLD, docs/frontier.md).

A crawl allocates a few long-lived objects per URL it queues (frontier entries, their
statistics, requests). With Python's default young-generation threshold of 700
allocations, collections run every few dozen URLs and each one walks those survivors,
a large share of the frontier's enqueue time (measured: docs/frontier.md). This
extension raises the threshold and moves everything allocated while the crawl was set up
(modules, settings, spider) out of the collector's way with ``gc.freeze()``. Both are
undone when the engine stops, so other crawls of the same process start from Python's
settings. Cycles are still collected, only in larger batches.
"""

from __future__ import annotations

import gc
import logging
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults

logger = logging.getLogger(__name__)


def gen0_threshold(value: Any) -> int | None:
    """GC_GEN0_THRESHOLD as an int (None: leave Python's); ValueError if unusable."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = -1
    if number < 0:
        raise ValueError(f"GC_GEN0_THRESHOLD must be a whole number >= 0 or None, not {value!r}")
    return number or None


class GarbageCollectorTuning:
    """Raises the young-generation threshold of the cyclic collector during a crawl."""

    def __init__(self, threshold: int, stats: Any) -> None:
        self.threshold = threshold
        self.stats = stats
        self.previous: tuple[int, int, int] | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> GarbageCollectorTuning:
        threshold = gen0_threshold(
            crawler.settings.get("GC_GEN0_THRESHOLD", defaults.GC_GEN0_THRESHOLD)
        )
        if threshold is None:
            raise NotConfigured("GC_GEN0_THRESHOLD is not set")
        ext = cls(threshold, crawler.stats)
        ext.apply()
        crawler.signals.connect(ext.restore, signal=signals.engine_stopped)
        return ext

    def apply(self) -> None:
        if self.previous is not None:
            return
        self.previous = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(self.threshold, *self.previous[1:])
        self.stats.set_value("gc/gen0_threshold", self.threshold)
        logger.debug(
            "garbage collector: gen0 threshold %d (was %d), %d objects frozen",
            self.threshold,
            self.previous[0],
            gc.get_freeze_count(),
        )

    def restore(self) -> None:
        if self.previous is None:
            return
        gc.set_threshold(*self.previous)
        gc.unfreeze()
        self.previous = None
