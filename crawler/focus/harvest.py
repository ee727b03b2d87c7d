"""Harvest rate: relevant pages / fetched pages, over the whole crawl and per interval."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HarvestSample:
    """Pages judged and found relevant, cumulated and in the interval just ended."""

    pages: int
    relevant: int
    interval_pages: int
    interval_relevant: int
    interval_seconds: float

    @property
    def rate(self) -> float | None:
        return self.relevant / self.pages if self.pages else None

    @property
    def interval_rate(self) -> float | None:
        return self.interval_relevant / self.interval_pages if self.interval_pages else None


class HarvestIntervals:
    """Turns cumulative counts read at interval ends into per-interval samples."""

    def __init__(self, start: float) -> None:
        self._pages = 0
        self._relevant = 0
        self._at = start

    def sample(self, pages: int, relevant: int, now: float) -> HarvestSample:
        sample = HarvestSample(
            pages=pages,
            relevant=relevant,
            interval_pages=pages - self._pages,
            interval_relevant=relevant - self._relevant,
            interval_seconds=max(now - self._at, 0.0),
        )
        self._pages, self._relevant, self._at = pages, relevant, now
        return sample
