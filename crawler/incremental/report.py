"""What `scrapy freshness` prints: the state of a crawl's revisit schedule.

* estimated freshness now: the mean probability that a page has not changed since its
  last fetch, ``exp(-r (now - fetched))`` with r its estimated rate (also weighted by
  importance);
* expected time-averaged freshness of the current plan: the mean of Cho and
  Garcia-Molina's ``F(r, 1 / interval)``;
* the distribution of estimated change rates (mean time between changes);
* pages due now; changes seen per hour; the share of revisits answered 304 and the
  bytes those answers saved (the page's last size).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import psycopg

from crawler.incremental.allocation import freshness

# (upper bound of the mean time between changes in seconds, label)
RATE_BUCKETS: list[tuple[float, str]] = [
    (60.0, "< 1 min"),
    (600.0, "1-10 min"),
    (3600.0, "10-60 min"),
    (6 * 3600.0, "1-6 h"),
    (86400.0, "6-24 h"),
    (7 * 86400.0, "1-7 days"),
    (math.inf, ">= 7 days"),
]


@dataclass
class FreshnessReport:
    crawl_id: str
    active: int = 0
    removed: int = 0
    evicted: int = 0
    freshness_now: float | None = None
    weighted_freshness_now: float | None = None
    planned_freshness: float | None = None
    due: int = 0
    rate_buckets: list[tuple[str, int]] = field(default_factory=list)
    revisits: int = 0
    changes: int = 0
    boilerplate: int = 0
    not_modified: int = 0
    bytes_saved: int = 0
    hours: float = 0.0
    changes_last_hour: int = 0


def freshness_report(conn: psycopg.Connection, crawl_id: str, now: datetime
                     ) -> FreshnessReport | None:
    """The report of one crawl; None when it has no revisit schedule."""
    rows = conn.execute(
        """SELECT state, importance, rate, interval_seconds, last_fetched_at, next_due
           FROM revisit_schedule WHERE crawl_id = %s""", (crawl_id,),
    ).fetchall()
    if not rows:
        return None
    report = FreshnessReport(crawl_id)
    active = [r for r in rows if r[0] == "active"]
    report.active = len(active)
    report.removed = sum(r[0] == "removed" for r in rows)
    report.evicted = sum(r[0] == "evicted" for r in rows)
    if active:
        rates = np.array([r[2] or 0.0 for r in active])
        weights = np.array([max(r[1], 0.0) for r in active])
        since = np.array([max((now - r[4]).total_seconds(), 0.0) for r in active])
        fresh = np.exp(-rates * since)
        report.freshness_now = float(fresh.mean())
        if weights.sum() > 0:
            report.weighted_freshness_now = float(np.dot(fresh, weights) / weights.sum())
        intervals = np.array([r[3] or math.inf for r in active])
        report.planned_freshness = float(freshness(rates, 1.0 / intervals).mean())
        report.due = sum(r[5] <= now for r in active)
        means = np.where(rates > 0, 1.0 / np.maximum(rates, 1e-300), math.inf)
        lower = 0.0
        for upper, label in RATE_BUCKETS:
            report.rate_buckets.append(
                (label, int(((means >= lower) & (means < upper)).sum())))
            lower = upper
    stats = conn.execute(
        """SELECT count(*) FILTER (WHERE c.outcome <> 'new'),
                  count(*) FILTER (WHERE c.changed AND c.outcome = 'changed'),
                  count(*) FILTER (WHERE c.outcome = 'boilerplate'),
                  count(*) FILTER (WHERE c.outcome = 'not_modified'),
                  coalesce(sum(s.size) FILTER (WHERE c.outcome = 'not_modified'), 0),
                  extract(epoch FROM max(c.fetched_at) - min(c.fetched_at)) / 3600.0,
                  count(*) FILTER (WHERE c.outcome = 'changed'
                                   AND c.fetched_at > %s - interval '1 hour')
           FROM page_changes c LEFT JOIN revisit_schedule s
             ON s.crawl_id = c.crawl_id AND s.url = c.url
           WHERE c.crawl_id = %s""", (now, crawl_id),
    ).fetchone()
    (report.revisits, report.changes, report.boilerplate, report.not_modified,
     report.bytes_saved, hours, report.changes_last_hour) = stats
    report.hours = float(hours or 0.0)
    report.bytes_saved = int(report.bytes_saved)
    return report


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def format_freshness(r: FreshnessReport) -> str:
    per_hour = f"{r.changes / r.hours:.1f}" if r.hours > 0 else "-"
    share = f"{100 * r.not_modified / r.revisits:.1f}%" if r.revisits else "-"
    lines = [
        f"Crawl {r.crawl_id}: {r.active} pages in the collection, {r.removed} removed "
        f"(404/410), {r.evicted} evicted (refinement)",
        f"  estimated freshness now            {_pct(r.freshness_now)}"
        f" (importance-weighted {_pct(r.weighted_freshness_now)})",
        f"  expected freshness of the plan     {_pct(r.planned_freshness)}",
        f"  pages due now                      {r.due}",
        f"  revisits                           {r.revisits}",
        f"  changes seen                       {r.changes} ({per_hour} per hour; "
        f"{r.changes_last_hour} in the last hour), boilerplate-only {r.boilerplate}",
        f"  answered 304 Not Modified          {r.not_modified} ({share} of revisits), "
        f"{r.bytes_saved} bytes saved",
        "  estimated mean time between changes:",
    ]
    lines += [f"    {label:<12}{count:>8}" for label, count in r.rate_buckets]
    return "\n".join(lines)
