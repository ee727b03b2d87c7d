"""The per-interval series of a crawl, read from PostgreSQL (docs/operations.md).

The priority-queue paper reports per 30-minute interval. crawl_stats rows come only every
STATS_INTERVAL, so the page and error series are computed from the timestamps of the
``pages`` (fetched_at) and ``uncrawled`` (at) rows with any interval length; the queue
series (size, inter/intra, wait, evictions, URL-seen duplicates) come from the
crawl_stats rows where the crawl wrote them. Within each interval, "min / avg / max" are
taken over its sub-intervals of 1/30 of its length (its minutes, for 30 minutes).
"""

from __future__ import annotations

import ipaddress
import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg

SUBDIVISIONS = 30  # sub-intervals per interval (minutes of the paper's 30-minute interval)
DEFAULT_INTERVAL = 1800.0  # the paper's 30 minutes
_NICE_INTERVALS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800)


class ReportError(LookupError):
    """A crawl that cannot be reported: unknown, empty, or still running."""


@dataclass
class CrawlInfo:
    crawl_id: str
    spider: str
    started_at: datetime
    finished_at: datetime | None
    finish_reason: str | None
    last_activity: datetime | None  # last page or uncrawled row
    pages: int
    uncrawled: int

    @property
    def running(self) -> bool:
        return self.finished_at is None

    @property
    def duration(self) -> float:
        end = self.finished_at or self.last_activity or self.started_at
        return max((end - self.started_at).total_seconds(), 0.0)


@dataclass
class Interval:
    """One interval of the crawl; ``start`` in seconds since the crawl started."""

    index: int
    start: float
    pages: int = 0
    bytes: int = 0
    size_min: float | None = None
    size_max: float | None = None
    per_sub: list[int] = field(default_factory=list)  # pages per sub-interval
    bytes_per_sub: list[int] = field(default_factory=list)
    pagerank_sum: float = 0.0
    pagerank_pages: int = 0
    judged: int = 0  # pages with a relevance verdict (focused crawls)
    relevant: int = 0
    uncrawled: Counter[str] = field(default_factory=Counter)

    @property
    def size_avg(self) -> float | None:
        return self.bytes / self.pages if self.pages else None

    @property
    def pagerank_avg(self) -> float | None:
        return self.pagerank_sum / self.pagerank_pages if self.pagerank_pages else None


@dataclass
class StatsRow:
    """A crawl_stats row: ``at`` in seconds since the crawl started."""

    at: float
    queue_size: int | None
    queue_inter: int | None
    queue_intra: int | None
    wait_min: float | None
    wait_avg: float | None
    wait_max: float | None
    evicted: int | None
    duplicates: int | None
    harvest_rate: float | None
    harvest_interval_rate: float | None


@dataclass
class CrawlSeries:
    info: CrawlInfo
    interval: float
    intervals: list[Interval]
    stats: list[StatsRow]
    hosts: Counter[str]

    @property
    def sub_interval(self) -> float:
        return self.interval / SUBDIVISIONS

    @property
    def has_pagerank(self) -> bool:
        return any(i.pagerank_pages for i in self.intervals)

    @property
    def is_focused(self) -> bool:
        return any(i.judged for i in self.intervals)

    def tlds(self) -> Counter[str]:
        """Pages per top-level domain (the paper's Table IV)."""
        counts: Counter[str] = Counter()
        for host, n in self.hosts.items():
            counts[top_level_domain(host)] += n
        return counts


def top_level_domain(host: str) -> str:
    """The last label of a host name (``.ca``), or ``IP`` for an address."""
    host = host.rstrip(".").lower()
    try:
        ipaddress.ip_address(host.strip("[]"))
        return "IP"
    except ValueError:
        pass
    return "." + host.rsplit(".", 1)[-1] if "." in host else host


def choose_interval(duration: float) -> float:
    """The paper's 30 minutes for a crawl of at least 4 such intervals; else the smallest
    round length that cuts the crawl into at most about 20 intervals."""
    if duration >= 4 * DEFAULT_INTERVAL:
        return DEFAULT_INTERVAL
    for length in _NICE_INTERVALS:
        if length * 20 >= duration:
            return float(length)
    return DEFAULT_INTERVAL


_INFO_SQL = """
SELECT c.id, c.spider, c.started_at, c.finished_at, c.finish_reason,
       greatest((SELECT max(fetched_at) FROM pages WHERE crawl_id = c.id),
                (SELECT max(at) FROM uncrawled WHERE crawl_id = c.id)),
       (SELECT count(*) FROM pages WHERE crawl_id = c.id),
       (SELECT count(*) FROM uncrawled WHERE crawl_id = c.id)
FROM crawls c WHERE c.id = %s
"""

_PAGES_SQL = """
SELECT greatest(floor(extract(epoch FROM p.fetched_at - %(started)s) / %(sub)s), 0)::bigint,
       count(*), sum(p.size), min(p.size), max(p.size),
       sum(r.score), count(r.score), count(p.relevant),
       count(*) FILTER (WHERE p.relevant)
FROM pages p LEFT JOIN pagerank r ON r.crawl_id = p.crawl_id AND r.url = p.url
WHERE p.crawl_id = %(crawl_id)s
GROUP BY 1 ORDER BY 1
"""

_UNCRAWLED_SQL = """
SELECT greatest(floor(extract(epoch FROM at - %(started)s) / %(interval)s), 0)::bigint,
       category, count(*)
FROM uncrawled WHERE crawl_id = %(crawl_id)s GROUP BY 1, 2
"""

_STATS_SQL = """
SELECT extract(epoch FROM at - %(started)s)::float8, queue_size, queue_inter, queue_intra,
       wait_min, wait_avg, wait_max, evicted, duplicates, harvest_rate, harvest_interval_rate
FROM crawl_stats WHERE crawl_id = %(crawl_id)s ORDER BY at
"""


def load_info(conn: psycopg.Connection[Any], crawl_id: str) -> CrawlInfo:
    row = conn.execute(_INFO_SQL, (crawl_id,)).fetchone()
    if row is None:
        raise ReportError(f"no crawl with id {crawl_id!r} in the database")
    return CrawlInfo(*row[:6], pages=int(row[6]), uncrawled=int(row[7]))


def check_reportable(info: CrawlInfo, *, allow_running: bool) -> None:
    """ReportError for an empty crawl, or a running one unless ``allow_running``."""
    if info.pages == 0 and info.uncrawled == 0:
        raise ReportError(f"crawl {info.crawl_id!r} has no pages and no uncrawled URLs: "
                          "nothing to report")
    if info.running and not allow_running:
        raise ReportError(f"crawl {info.crawl_id!r} is still running (or was killed: it has "
                          "no finish time); use --partial to report what it has so far")


def load_series(conn: psycopg.Connection[Any], info: CrawlInfo, interval: float) -> CrawlSeries:
    """Every series of the report for one crawl, in intervals of ``interval`` seconds."""
    sub = interval / SUBDIVISIONS
    params = {"crawl_id": info.crawl_id, "started": info.started_at, "sub": sub,
              "interval": interval}
    last_sub = max(math.ceil(info.duration / sub) - 1, 0)
    count = last_sub // SUBDIVISIONS + 1
    intervals = [Interval(i, i * interval, per_sub=[0] * SUBDIVISIONS,
                          bytes_per_sub=[0] * SUBDIVISIONS) for i in range(count)]

    def interval_of(index: int) -> Interval:
        while index >= len(intervals):  # rows after the finish time (clock skew)
            n = len(intervals)
            intervals.append(Interval(n, n * interval, per_sub=[0] * SUBDIVISIONS,
                                      bytes_per_sub=[0] * SUBDIVISIONS))
        return intervals[index]

    for (sub_index, pages, size_sum, size_min, size_max, pr_sum, pr_pages, judged,
         relevant) in conn.execute(_PAGES_SQL, params):
        it = interval_of(int(sub_index) // SUBDIVISIONS)
        slot = int(sub_index) % SUBDIVISIONS
        it.per_sub[slot] += int(pages)
        it.bytes_per_sub[slot] += int(size_sum or 0)
        it.pages += int(pages)
        it.bytes += int(size_sum or 0)
        it.size_min = size_min if it.size_min is None else min(it.size_min, size_min)
        it.size_max = size_max if it.size_max is None else max(it.size_max, size_max)
        it.pagerank_sum += float(pr_sum or 0.0)
        it.pagerank_pages += int(pr_pages)
        it.judged += int(judged)
        it.relevant += int(relevant)
    for index, category, n in conn.execute(_UNCRAWLED_SQL, params):
        interval_of(int(index)).uncrawled[category] += int(n)
    # the last interval's sub-intervals after the crawl's end are not "0 pages"
    tail = last_sub % SUBDIVISIONS + 1
    if len(intervals) == count:
        intervals[-1].per_sub = intervals[-1].per_sub[:tail]
        intervals[-1].bytes_per_sub = intervals[-1].bytes_per_sub[:tail]
    stats = [StatsRow(*row) for row in conn.execute(_STATS_SQL, params)]
    hosts = Counter(dict(conn.execute(
        "SELECT host, count(*) FROM pages WHERE crawl_id = %s GROUP BY host",
        (info.crawl_id,),
    ).fetchall()))
    return CrawlSeries(info, interval, intervals, stats, hosts)


def min_avg_max(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (math.nan, math.nan, math.nan)
    return (min(values), sum(values) / len(values), max(values))
