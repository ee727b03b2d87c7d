"""When a buffer of rows is written: a plain schedule, no I/O, no Scrapy.

A buffered row must be in the database STORE_FLUSH_INTERVAL seconds after it arrived,
so that a `kill -9` loses at most that much work (docs/performance.md). The deadline
therefore counts from the *oldest buffered row*, not from the previous write, and a
write starts early by the slowest of the last few write durations, so that it ends
(commits) by the deadline. A full batch is written at once.

Times are seconds of one clock of the caller's choice (the pipeline: ``time.time()``).
"""

from __future__ import annotations

from collections import deque

__all__ = ["FlushSchedule"]


class FlushSchedule:
    """Tracks one buffer: ``added`` for every row, ``taken`` when the writer empties it,
    ``wrote`` with each write's duration; ``delay`` says how long the writer may wait."""

    def __init__(self, interval: float, batch_size: int, history: int = 8) -> None:
        self.interval = max(0.0, interval)
        self.batch_size = max(1, batch_size)
        self.durations: deque[float] = deque(maxlen=max(1, history))
        self.oldest: float | None = None
        self.rows = 0

    def added(self, at: float) -> bool:
        """A row joined the buffer at time ``at``. True when the writer must
        look again: the deadline moved earlier (first row, or an older one) or the batch
        just became full."""
        self.rows += 1
        earlier = self.oldest is None or at < self.oldest
        if earlier:
            self.oldest = at
        return earlier or self.rows == self.batch_size

    def taken(self) -> None:
        """The writer took every buffered row."""
        self.oldest = None
        self.rows = 0

    def wrote(self, seconds: float) -> None:
        """A write took ``seconds`` (start to commit)."""
        self.durations.append(max(0.0, seconds))

    @property
    def deadline(self) -> float | None:
        """When the next write must start, or None when nothing is buffered."""
        if self.oldest is None:
            return None
        lead = max(self.durations, default=0.0)
        return self.oldest + max(0.0, self.interval - lead)

    def delay(self, now: float) -> float | None:
        """Seconds the writer may still wait (0: write now), None when nothing waits."""
        deadline = self.deadline
        if deadline is None:
            return None
        if self.rows >= self.batch_size:
            return 0.0
        return max(0.0, deadline - now)
