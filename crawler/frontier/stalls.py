"""The stall invariant: work waiting that nothing serves (issue 31).

A host is *starved* at a check when it has URLs waiting and no request in flight while
nothing legitimate holds it back: its politeness delay and any back-off pause are over
(or it counts as busy with nothing in flight, which is always wrong), and the downloader
has room for another request. A host starved at every check for longer than its allowed
gap (its delay plus the download timeout) is *stalled*: the scheduler had work and did
not hand it out. Each stall is reported once, when it begins; a host that is served
again (or has nothing waiting any more) recovers and may stall again later.

The frontier as a whole is checked the same way under the key :data:`FRONTIER`: URLs
queued, none buffered, nothing in progress.

Plain Python, no Scrapy import: the scheduler observes, this class keeps the clock.
"""

from __future__ import annotations

from dataclasses import dataclass

FRONTIER = ""  # the key of the whole frontier's check (no host has an empty name)


@dataclass
class _Episode:
    since: float  # first check at which the host was starved, in this episode
    reported: bool = False


class StallWatch:
    """Starved-since times of hosts, and the stalls they turned into."""

    def __init__(self) -> None:
        self._starved: dict[str, _Episode] = {}
        self.stalls = 0  # stall episodes reported since the crawl started

    def observe(self, key: str, starved: bool, allowed: float, now: float) -> float | None:
        """Record whether ``key`` is starved now. Returns how long it has been starved
        when this observation turns it into a stall (once per episode), else None."""
        episode = self._starved.get(key)
        if not starved:
            if episode is not None:
                del self._starved[key]
            return None
        if episode is None:
            self._starved[key] = _Episode(now)
            return None
        idle = now - episode.since
        if episode.reported or idle <= allowed:
            return None
        episode.reported = True
        self.stalls += 1
        return idle

    def forget(self, keep: set[str]) -> None:
        """Drop the hosts not observed any more (nothing waiting for them): recovered."""
        for key in [k for k in self._starved if k not in keep]:
            del self._starved[key]

    @property
    def stalled(self) -> list[str]:
        """Keys stalled now (reported and not recovered), sorted."""
        return sorted(k for k, e in self._starved.items() if e.reported)
