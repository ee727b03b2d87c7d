"""A scheduler with a known accounting fault, for the stall invariant's crawl test: the
crawl must report the stall it causes (tests/frontier/test_stall_crawl.py)."""

from __future__ import annotations

from typing import Any

from crawler.schedulers.best_first import BestFirstScheduler

GHOST = "ghost.test"


class PhantomInFlightScheduler(BestFirstScheduler):
    """Counts one request of ghost.test as in flight for ever once one was handed out:
    the leak issue 31 suspected (a request that ended without the scheduler noticing)."""

    def _in_flight(self, host: str, slot: Any) -> int:
        count = super()._in_flight(host, slot)
        if host == GHOST and GHOST in self._last_start:
            count += 1
        return count
