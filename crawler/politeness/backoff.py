"""Back-off by answer: a host that answers 429 or 503 is paused for the time it asks.

``HostBackoff.answer`` is told the status and ``Retry-After`` header of every response
of a host. A throttling status (``BACKOFF_HTTP_CODES``) pauses the host: for the
``Retry-After`` it sent (seconds, or an HTTP date), else ``BACKOFF_DEFAULT_PAUSE``;
doubled on every further throttling answer in a row after a pause ended (answers that
arrive during a pause come from requests sent before it), capped at ``RETRY_AFTER_MAX``
(a Retry-After of ten years is a pause of RETRY_AFTER_MAX, never an error). Any other
answer of the host resets the doubling; it does not end a pause already set (the
answer of a request sent before the 503 says nothing about the time asked).

The scheduler asks ``wait(host)`` before handing a request of the host out, and passes
the remaining pauses on to the next owner of a host in a crawl of several agents (the
host's ``next_fetch_at``, crawler/agents). Plain Python, no Scrapy import.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from email.utils import parsedate_to_datetime
from typing import Any

from crawler import defaults


def retry_after_seconds(value: str | bytes | None, now: float) -> float | None:
    """The seconds a ``Retry-After`` value asks for (RFC 9110 10.2.3): a number of
    seconds or an HTTP date (``now`` is the wall-clock time, ``time.time()``). None when
    absent or unreadable; a date in the past is 0."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return seconds if seconds >= 0 and not math.isnan(seconds) else None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT
        return None
    return max(0.0, when.timestamp() - now)


class HostBackoff:
    """Pauses of hosts that answered with a throttling status."""

    def __init__(
        self,
        *,
        statuses: Iterable[int] = defaults.BACKOFF_HTTP_CODES,
        default_pause: float = defaults.BACKOFF_DEFAULT_PAUSE,
        max_pause: float = defaults.RETRY_AFTER_MAX,
        now: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.statuses = frozenset(int(s) for s in statuses)
        self.default_pause = max(0.0, default_pause)
        self.max_pause = max(0.0, max_pause)
        self._now = now
        self._wall = wall
        self.until: dict[str, float] = {}  # host -> monotonic time its pause ends
        self.repeats: dict[str, int] = {}  # host -> throttling answers in a row
        self.paused = 0  # throttling answers that paused a host
        self.capped = 0  # of which asked for more than max_pause

    def answer(self, host: str, status: int, retry_after: str | bytes | None) -> float | None:
        """Record an answer of ``host``; the pause it set (seconds), or None when the
        status is not a throttling one."""
        if status not in self.statuses:
            self.repeats.pop(host, None)
            return None
        now = self._now()
        repeats = self.repeats.get(host, 0)
        if self.until.get(host, 0.0) <= now or not repeats:
            # a repeat is an answer to a request sent after the last pause: another
            # answer during the pause came from a request sent before it ended
            repeats += 1
            self.repeats[host] = repeats
        asked = retry_after_seconds(retry_after, self._wall())
        base = self.default_pause if asked is None else asked
        pause = base * 2.0 ** min(repeats - 1, 64)
        if pause > self.max_pause:
            pause = self.max_pause
            self.capped += 1
        self.paused += 1
        until = now + pause
        if until > self.until.get(host, 0.0):
            self.until[host] = until
        return pause

    def wait(self, host: str) -> float:
        """Seconds until ``host`` may be fetched again (0: now)."""
        until = self.until.get(host)
        if until is None:
            return 0.0
        left = until - self._now()
        if left <= 0:
            del self.until[host]
            return 0.0
        return left

    def waits(self) -> dict[str, float]:
        """The hosts paused now, with their remaining seconds."""
        return {host: w for host in list(self.until) if (w := self.wait(host)) > 0}


def backoff_setting(settings: Any) -> HostBackoff | None:
    """The back-off by answer Scrapy ``settings`` ask for (None: BACKOFF_HTTP_CODES
    empty); ValueError with a one-line message if a value is unusable. Read by the
    scheduler, and checked by ``scrapy crawl`` before the crawl starts."""
    codes = settings.getlist("BACKOFF_HTTP_CODES", defaults.BACKOFF_HTTP_CODES)
    try:
        statuses = [int(str(code).strip()) for code in codes]
    except ValueError:
        raise ValueError(f"BACKOFF_HTTP_CODES must be HTTP status codes, not {codes!r}") from None
    if not statuses:
        return None
    seconds = {}
    for name in ("BACKOFF_DEFAULT_PAUSE", "RETRY_AFTER_MAX"):
        value = settings.get(name, getattr(defaults, name))
        try:
            seconds[name] = float(value)
        except (TypeError, ValueError):
            seconds[name] = float("nan")
        if not seconds[name] >= 0:
            raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")
    return HostBackoff(
        statuses=statuses,
        default_pause=seconds["BACKOFF_DEFAULT_PAUSE"],
        max_pause=seconds["RETRY_AFTER_MAX"],
    )
