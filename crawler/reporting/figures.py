"""The report's figures: plain functions from crawl series to matplotlib figures.

Each function takes the series of one crawl, or of several to compare (drawn on the same
axes, one colour per crawl), and returns a Figure, or None when no crawl has the data
(e.g. no crawl_stats rows, no PageRank yet). Figures are built with matplotlib's
object API and rendered by the Agg backend (no pyplot, no global state, no display).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crawler.reporting.series import CrawlSeries, min_avg_max
from crawler.reporting.taxonomy import POLICY, TAXONOMY

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_POLICY = {category for category, _, group in TAXONOMY if group == POLICY}
_LABELS = {category: label for category, label, _ in TAXONOMY}
_STYLES = {"max": ":", "avg": "-", "min": "--"}


def _new_figure(**kwargs: Any) -> Figure:
    # matplotlib is imported here, not at module level: the `serve` command imports this
    # module, and Scrapy imports every command module when any command starts
    from matplotlib.figure import Figure

    return Figure(**kwargs)


def render_png(figure: Figure, dpi: int = 100) -> bytes:
    """The figure as PNG bytes (Agg backend)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=dpi)
    return out.getvalue()


def _figure(title: str, ylabel: str, series: list[CrawlSeries]) -> tuple[Figure, object]:
    figure = _new_figure(figsize=(8, 3.6), layout="constrained")
    ax = figure.add_subplot()
    ax.set_title(title, fontsize=11)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(_time_label(series))
    ax.grid(True, alpha=0.3)
    return figure, ax


def _scale(series: list[CrawlSeries]) -> float:
    """Seconds per unit of the time axis: minutes unless the intervals are short."""
    return 60.0 if min(s.interval for s in series) >= 60 else 1.0


def _time_label(series: list[CrawlSeries]) -> str:
    unit = "minutes" if _scale(series) == 60 else "seconds"
    return f"{unit} since the crawl started (interval start)"


def _name(s: CrawlSeries, series: list[CrawlSeries]) -> str:
    return f"{s.info.crawl_id} " if len(series) > 1 else ""


def _min_avg_max_lines(
    ax: object, series: list[CrawlSeries], values_of: Callable[..., list]
) -> None:
    scale = _scale(series)
    for n, s in enumerate(series):
        xs, rows = [], []
        for interval in s.intervals:
            values = values_of(s, interval)
            if values:
                xs.append(interval.start / scale)
                rows.append(min_avg_max(values))
        for k, label in enumerate(("min", "avg", "max")):
            ax.plot(
                xs,
                [r[k] for r in rows],
                _STYLES[label],
                marker=".",
                color=f"C{n}",
                label=f"{_name(s, series)}{label}",
            )
    ax.legend(fontsize=8, ncols=min(3 * len(series), 6))


def pages_crawled(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 4: pages crawled per sub-interval, min / avg / max in each interval."""
    if not any(i.pages for s in series for i in s.intervals):
        return None
    sub = series[0].sub_interval
    figure, ax = _figure("Pages crawled (paper Fig. 4)", f"pages per {sub:.3g} s", series)
    _min_avg_max_lines(ax, series, lambda s, i: [float(v) for v in i.per_sub])
    return figure


def crawled_vs_uncrawled(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 5: crawled pages, uncrawled errors and refusals, as shares of the attempts."""
    figure, ax = _figure("Crawled vs. uncrawled (paper Fig. 5)", "URLs", series)
    ax.set_xlabel("")
    width = 0.8 / len(series)
    kinds = ("crawled pages", "errors", "refused by policy")
    for n, s in enumerate(series):
        errors = sum(c for i in s.intervals for k, c in i.uncrawled.items() if k not in _POLICY)
        refused = sum(c for i in s.intervals for k, c in i.uncrawled.items() if k in _POLICY)
        values = [sum(i.pages for i in s.intervals), errors, refused]
        xs = [k + n * width for k in range(len(kinds))]
        bars = ax.bar(xs, values, width, color=f"C{n}", label=s.info.crawl_id)
        ax.bar_label(bars, fontsize=8)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(kinds))], kinds)
    ax.legend(fontsize=8)
    return figure


def uncrawled_types(series: list[CrawlSeries]) -> Figure | None:
    """Table I per interval: uncrawled URLs of each error type (policy refusals left out)."""
    categories = [
        c
        for c, _, _ in TAXONOMY
        if c not in _POLICY and any(i.uncrawled.get(c) for s in series for i in s.intervals)
    ]
    if not categories:
        return None
    figure = _new_figure(figsize=(8, 3.2 * len(series)), layout="constrained")
    scale = _scale(series)
    for n, s in enumerate(series):
        ax = figure.add_subplot(len(series), 1, n + 1)
        ax.set_title(f"Uncrawled URLs by error type per interval {_name(s, series)}", fontsize=11)
        bottom = [0] * len(s.intervals)
        xs = [i.start / scale for i in s.intervals]
        for k, category in enumerate(categories):
            values = [i.uncrawled.get(category, 0) for i in s.intervals]
            ax.bar(
                xs,
                values,
                s.interval / scale * 0.8,
                bottom=bottom,
                align="edge",
                color=f"C{k}",
                label=_LABELS.get(category, category),
            )
            bottom = [b + v for b, v in zip(bottom, values, strict=True)]
        ax.set_ylabel("URLs")
        ax.set_xlabel(_time_label(series))
        ax.legend(fontsize=7, ncols=3)
    return figure


def queue_wait(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 6: wait of the URLs dequeued, min / avg / max (crawl_stats rows)."""
    if not any(r.wait_avg is not None for s in series for r in s.stats):
        return None
    figure, ax = _figure("Wait in the priority queue (paper Fig. 6)", "seconds", series)
    ax.set_xlabel(_stats_label(series))
    scale = _scale(series)
    for n, s in enumerate(series):
        rows = [r for r in s.stats if r.wait_avg is not None]
        for label, attr in (("min", "wait_min"), ("avg", "wait_avg"), ("max", "wait_max")):
            ax.plot(
                [r.at / scale for r in rows],
                [getattr(r, attr) for r in rows],
                _STYLES[label],
                marker=".",
                color=f"C{n}",
                label=f"{_name(s, series)}{label}",
            )
    ax.legend(fontsize=8)
    return figure


def _stats_label(series: list[CrawlSeries]) -> str:
    unit = "minutes" if _scale(series) == 60 else "seconds"
    return f"{unit} since the crawl started (crawl_stats row, every STATS_INTERVAL)"


def evicted(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 7: URLs evicted from the frontier per interval (their uncrawled rows)."""
    if not any(i.uncrawled.get("evicted") for s in series for i in s.intervals):
        return None
    figure, ax = _figure(
        "URLs evicted from the priority queue (paper Fig. 7)", "URLs per interval", series
    )
    scale = _scale(series)
    for n, s in enumerate(series):
        ax.plot(
            [i.start / scale for i in s.intervals],
            [i.uncrawled.get("evicted", 0) for i in s.intervals],
            marker="o",
            color=f"C{n}",
            label=s.info.crawl_id,
        )
    ax.legend(fontsize=8)
    return figure


def queue_size(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 8 and its inter/intra split: URLs in the priority queue (crawl_stats rows)."""
    if not any(r.queue_size is not None for s in series for r in s.stats):
        return None
    figure, ax = _figure(
        "Priority queue size, inter- and intra-domain (paper Fig. 8)", "URLs queued", series
    )
    ax.set_xlabel(_stats_label(series))
    scale = _scale(series)
    for n, s in enumerate(series):
        rows = [r for r in s.stats if r.queue_size is not None]
        xs = [r.at / scale for r in rows]
        ax.plot(
            xs,
            [r.queue_size for r in rows],
            "-",
            marker=".",
            color=f"C{n}",
            label=f"{_name(s, series)}total",
        )
        if any(r.queue_inter is not None for r in rows):
            ax.plot(
                xs,
                [r.queue_inter for r in rows],
                "--",
                color=f"C{n}",
                label=f"{_name(s, series)}inter",
            )
            ax.plot(
                xs,
                [r.queue_intra for r in rows],
                ":",
                color=f"C{n}",
                label=f"{_name(s, series)}intra",
            )
    ax.legend(fontsize=8)
    return figure


def crawl_speed(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 9: download speed (KB/s) per sub-interval, min / avg / max in each interval."""
    if not any(i.bytes for s in series for i in s.intervals):
        return None
    figure, ax = _figure("Crawl speed (paper Fig. 9)", "KB/s of page bodies", series)
    _min_avg_max_lines(
        ax, series, lambda s, i: [b / 1024 / s.sub_interval for b in i.bytes_per_sub]
    )
    return figure


def page_sizes(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 10: sizes of the pages crawled in each interval, min / avg / max (KB)."""
    if not any(i.pages for s in series for i in s.intervals):
        return None
    figure, ax = _figure("Sizes of crawled pages (paper Fig. 10)", "KB", series)
    scale = _scale(series)
    for n, s in enumerate(series):
        rows = [i for i in s.intervals if i.pages]
        xs = [i.start / scale for i in rows]
        for label, values in (
            ("min", [i.size_min for i in rows]),
            ("avg", [i.size_avg for i in rows]),
            ("max", [i.size_max for i in rows]),
        ):
            ax.plot(
                xs,
                [v / 1024 for v in values],
                _STYLES[label],
                marker=".",
                color=f"C{n}",
                label=f"{_name(s, series)}{label}",
            )
    ax.legend(fontsize=8, ncols=min(3 * len(series), 6))
    return figure


def top_level_domains(series: list[CrawlSeries], top: int = 10) -> Figure | None:
    """Table IV: share of the pages per top-level domain (the most frequent ones)."""
    totals = [s.tlds() for s in series]
    if not any(totals):
        return None
    names = [name for name, _ in (sum(totals[1:], totals[0])).most_common(top)]
    figure, ax = _figure(
        "Top-level domains of crawled pages (paper Table IV)", "% of pages", series
    )
    ax.set_xlabel("")
    width = 0.8 / len(series)
    for n, (s, counts) in enumerate(zip(series, totals, strict=True)):
        whole = sum(counts.values()) or 1
        ax.bar(
            [k + n * width for k in range(len(names))],
            [100.0 * counts.get(name, 0) / whole for name in names],
            width,
            color=f"C{n}",
            label=s.info.crawl_id,
        )
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(names))], names)
    ax.legend(fontsize=8)
    return figure


def duplicates(series: list[CrawlSeries]) -> Figure | None:
    """Fig. 12: duplicate URLs per interval: the frontier's URL-seen test hits (crawl_stats
    rows) and the pages refused as duplicate content or redirects to known URLs."""
    has_stats = any(r.duplicates is not None for s in series for r in s.stats)
    dup = ("duplicate_content", "duplicate_url")
    has_pages = any(i.uncrawled.get(c) for s in series for i in s.intervals for c in dup)
    if not (has_stats or has_pages):
        return None
    figure, ax = _figure("Duplicate URLs (paper Fig. 12)", "URLs", series)
    scale = _scale(series)
    for n, s in enumerate(series):
        rows = [r for r in s.stats if r.duplicates is not None]
        if rows:
            ax.plot(
                [r.at / scale for r in rows],
                [r.duplicates for r in rows],
                "-",
                marker="o",
                color=f"C{n}",
                label=f"{_name(s, series)}URL-seen hits per crawl_stats row",
            )
        ax.plot(
            [i.start / scale for i in s.intervals],
            [sum(i.uncrawled.get(c, 0) for c in dup) for i in s.intervals],
            "--",
            marker=".",
            color=f"C{n}",
            label=f"{_name(s, series)}duplicate pages per interval",
        )
    ax.legend(fontsize=8)
    return figure


def order_quality(series: list[CrawlSeries]) -> Figure | None:
    """The effective-crawler paper's measure of the crawl order: the average PageRank of
    the pages fetched in each interval (after `scrapy pagerank`)."""
    if not any(s.has_pagerank for s in series):
        return None
    figure, ax = _figure(
        "Average PageRank of the pages fetched per interval (order quality)",
        "PageRank (average page = 1)",
        series,
    )
    scale = _scale(series)
    for n, s in enumerate(series):
        rows = [i for i in s.intervals if i.pagerank_pages]
        ax.plot(
            [i.start / scale for i in rows],
            [i.pagerank_avg for i in rows],
            "-",
            marker="o",
            color=f"C{n}",
            label=s.info.crawl_id,
        )
    ax.legend(fontsize=8)
    return figure


def harvest_rate(series: list[CrawlSeries]) -> Figure | None:
    """The harvest-rate curve of a focused crawl: relevant / judged pages, cumulative and
    per interval."""
    if not any(s.is_focused for s in series):
        return None
    figure, ax = _figure("Harvest rate (focused crawl)", "relevant / judged pages", series)
    scale = _scale(series)
    for n, s in enumerate(series):
        if not s.is_focused:
            continue
        xs, cumulative, per_interval = [], [], []
        judged = relevant = 0
        for i in s.intervals:
            judged += i.judged
            relevant += i.relevant
            if i.judged:
                xs.append(i.start / scale)
                cumulative.append(relevant / judged)
                per_interval.append(i.relevant / i.judged)
        ax.plot(
            xs, cumulative, "-", marker="o", color=f"C{n}", label=f"{_name(s, series)}cumulative"
        )
        ax.plot(
            xs,
            per_interval,
            ":",
            marker=".",
            color=f"C{n}",
            label=f"{_name(s, series)}per interval",
        )
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8)
    return figure


@dataclass(frozen=True)
class Chart:
    name: str  # file name stem and web UI path
    title: str
    draw: Callable[[list[CrawlSeries]], Figure | None]
    missing: str  # why a crawl may have no data for it


CHARTS: list[Chart] = [
    Chart("pages", "Pages crawled per interval (Fig. 4)", pages_crawled, "no pages"),
    Chart("crawled", "Crawled vs. uncrawled (Fig. 5)", crawled_vs_uncrawled, ""),
    Chart(
        "errors",
        "Uncrawled error types per interval (Table I)",
        uncrawled_types,
        "no uncrawled URL with an error category",
    ),
    Chart(
        "wait",
        "Wait in the queue (Fig. 6)",
        queue_wait,
        "no crawl_stats rows with wait times (best-first scheduler, STATS_INTERVAL)",
    ),
    Chart("evicted", "Evicted URLs (Fig. 7)", evicted, "no URL was evicted"),
    Chart(
        "queue",
        "Queue size, inter/intra (Fig. 8)",
        queue_size,
        "no crawl_stats rows (STATS_INTERVAL)",
    ),
    Chart("speed", "Crawl speed (Fig. 9)", crawl_speed, "no pages"),
    Chart("sizes", "Page sizes (Fig. 10)", page_sizes, "no pages"),
    Chart("tlds", "Top-level domains (Table IV)", top_level_domains, "no pages"),
    Chart(
        "duplicates",
        "Duplicate URLs (Fig. 12)",
        duplicates,
        "no duplicates recorded and no crawl_stats rows",
    ),
    Chart(
        "order",
        "Order quality: average PageRank per interval",
        order_quality,
        "no PageRank yet: run `scrapy pagerank --crawl-id ID`",
    ),
    Chart("harvest", "Harvest rate", harvest_rate, "not a focused crawl"),
]
CHARTS_BY_NAME = {chart.name: chart for chart in CHARTS}
