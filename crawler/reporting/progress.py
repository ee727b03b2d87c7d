"""The progress line of a running crawl: what it shows and how it is computed.

Pure functions of counter values, so the line is tested without a crawl.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Limits:
    """Scrapy's CLOSESPIDER_* limits (0: none)."""

    pages: int = 0  # CLOSESPIDER_PAGECOUNT: responses
    items: int = 0  # CLOSESPIDER_ITEMCOUNT
    seconds: float = 0.0  # CLOSESPIDER_TIMEOUT


@dataclass
class ProgressSnapshot:
    elapsed: float
    pages: int  # pages stored (PageItems)
    responses: int
    requests: int
    items: int
    frontier: int | None
    duplicates: int
    errors: Counter[str] = field(default_factory=Counter)
    pages_per_second: float = 0.0  # over the last update interval
    stalled: list[str] = field(default_factory=list)  # hosts stalled now (docs/frontier.md)


def eta_seconds(snapshot: ProgressSnapshot, limits: Limits, responses_per_second: float,
                items_per_second: float) -> float | None:
    """Seconds until the first CLOSESPIDER limit is reached at the current rates; None
    when no limit is set (or none can be estimated yet)."""
    candidates: list[float] = []
    if limits.seconds > 0:
        candidates.append(max(limits.seconds - snapshot.elapsed, 0.0))
    if limits.pages > 0 and responses_per_second > 0:
        candidates.append(max(limits.pages - snapshot.responses, 0) / responses_per_second)
    if limits.items > 0 and items_per_second > 0:
        candidates.append(max(limits.items - snapshot.items, 0) / items_per_second)
    return min(candidates) if candidates else None


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_progress(snapshot: ProgressSnapshot, eta: float | None) -> str:
    """One compact line: elapsed, pages, pages/s, requests, frontier, duplicates, errors
    by category (largest first), ETA."""
    s = snapshot
    errors = sum(s.errors.values())
    parts = [
        format_duration(s.elapsed),
        f"{s.pages} pages",
        f"{s.pages_per_second:.1f} pages/s",
        f"{s.requests} requests",
        f"frontier {'-' if s.frontier is None else s.frontier}",
        f"{s.duplicates} duplicates",
    ]
    if errors:
        top = ", ".join(f"{name} {n}" for name, n in s.errors.most_common(4))
        more = " ..." if len(s.errors) > 4 else ""
        parts.append(f"{errors} errors ({top}{more})")
    else:
        parts.append("0 errors")
    if s.stalled:
        more = " ..." if len(s.stalled) > 3 else ""
        parts.append(f"STALLED {len(s.stalled)} ({', '.join(s.stalled[:3])}{more})")
    if eta is not None:
        parts.append(f"ETA {format_duration(eta)}")
    return " | ".join(parts)
