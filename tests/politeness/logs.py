"""Reading the sandbox request log in the politeness tests."""

from __future__ import annotations

from collections import defaultdict

from crawler.sandbox import RequestRecord, SandboxServer


def target(record: RequestRecord) -> str:
    """``path?query`` of a logged request."""
    return record.path + (f"?{record.query}" if record.query else "")


def by_host(server: SandboxServer) -> dict[str, list[RequestRecord]]:
    """The log per host, each list in order of request start."""
    hosts: dict[str, list[RequestRecord]] = defaultdict(list)
    for record in sorted(server.requests_for(), key=lambda r: r.started):
        hosts[record.host].append(record)
    return dict(hosts)


def targets(server: SandboxServer, host: str) -> list[str]:
    """``path?query`` of every request to ``host``, in order of start."""
    return [target(r) for r in sorted(server.requests_for(host), key=lambda r: r.started)]


def start_gaps(records: list[RequestRecord]) -> list[float]:
    """Seconds between consecutive request starts."""
    starts = sorted(r.started for r in records)
    return [b - a for a, b in zip(starts, starts[1:], strict=False)]


def max_overlap(records: list[RequestRecord]) -> int:
    """Most requests in progress at the same time (start/end intervals)."""
    events = sorted(
        [(r.started, 1) for r in records] + [(r.finished, -1) for r in records],
        key=lambda e: (e[0], e[1]),  # an end at the same instant frees its place first
    )
    current = peak = 0
    for _, change in events:
        current += change
        peak = max(peak, current)
    return peak
