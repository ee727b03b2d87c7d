"""The revisit budget: how many revisits per second a host may get, and their pacing.

Politeness sets a host's request rate (``1 / DOWNLOAD_DELAY``). Revisits may take all of
it: ``INCREMENTAL_REVISIT_SHARE`` is a cap that applies only while newly found pages wait
for the same host (issue 26: kept as a reservation, a fifth of the budget stayed idle on
a site that had no new pages). ``INCREMENTAL_HOST_BUDGET`` fixes the revisit rate instead.

The spider only claims pages that are due; when none is due and nothing else waits, it
claims the page due soonest (the most overdue by its own plan) so that no request the
budget allows goes unused. :class:`RevisitPacer` keeps those claims at the budget.
"""

from __future__ import annotations


def revisit_budget(
    request_rate: float, share: float, host_budget: float, new_pages_waiting: bool
) -> float:
    """Revisits per second per host: ``host_budget`` when set (> 0); else the host's
    whole ``request_rate``, or ``share`` of it while new pages wait."""
    if host_budget > 0:
        return host_budget
    return request_rate * (min(max(share, 0.0), 1.0) if new_pages_waiting else 1.0)


class RevisitPacer:
    """A token bucket: at most ``rate`` revisits per second on average, ``burst`` at once.

    Times are the caller's (monotonic seconds), so the class is a plain algorithm."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.tokens = self.burst
        self.at = now

    def set_rate(self, rate: float, now: float) -> None:
        self._fill(now)
        self.rate = rate

    def _fill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + max(now - self.at, 0.0) * self.rate)
        self.at = now

    def available(self, now: float) -> int:
        """Revisits that may be issued now."""
        self._fill(now)
        return int(self.tokens + 1e-9)

    def take(self, count: int, now: float) -> None:
        self._fill(now)
        self.tokens -= count

    def wait(self, now: float) -> float:
        """Seconds until one more revisit may be issued."""
        self._fill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / max(self.rate, 1e-9)
