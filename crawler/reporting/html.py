"""The HTML crawl report: one self-contained file with its charts embedded as PNG data.

Everything is computed and rendered in memory first; only then are the files written,
each to a temporary name renamed into place, so a failure leaves no half-written report.
``DIR/report.html`` is the report; ``DIR/charts/NAME.png`` are the same charts as files.
"""

from __future__ import annotations

import base64
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from crawler.reporting.figures import CHARTS, Chart, render_png
from crawler.reporting.series import CrawlSeries, min_avg_max
from crawler.reporting.taxonomy import HTTP, POLICY, TAXONOMY, ErrorTaxonomy

_POLICY_CATEGORIES = {c for c, _, g in TAXONOMY if g == POLICY}


@dataclass
class RenderedChart:
    chart: Chart
    png: bytes | None  # None: no data for it

    @property
    def data_uri(self) -> str:
        assert self.png is not None
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def render_charts(series: list[CrawlSeries], charts: Iterable[Chart] = CHARTS
                  ) -> list[RenderedChart]:
    rendered = []
    for chart in charts:
        figure = chart.draw(series)
        rendered.append(RenderedChart(chart, None if figure is None else render_png(figure)))
    return rendered


def interval_rows(s: CrawlSeries) -> list[dict[str, object]]:
    """The per-interval table of one crawl."""
    rows = []
    for i in s.intervals:
        low, avg, high = min_avg_max([float(v) for v in i.per_sub])
        errors = sum(n for c, n in i.uncrawled.items() if c not in _POLICY_CATEGORIES)
        rows.append({
            "start": i.start, "pages": i.pages, "min": low, "avg": avg, "max": high,
            "kb": i.bytes / 1024, "errors": errors, "evicted": i.uncrawled.get("evicted", 0),
            "duplicates": i.uncrawled.get("duplicate_content", 0)
            + i.uncrawled.get("duplicate_url", 0),
            "pagerank": i.pagerank_avg,
            "harvest": (i.relevant / i.judged) if i.judged else None,
        })
    return rows




def _environment() -> Environment:
    env = Environment(loader=PackageLoader("crawler.reporting", "templates"),
                      autoescape=select_autoescape(["html"]))
    env.filters["share"] = lambda part, whole: f"{100.0 * part / whole:.2f}%" if whole else "-"
    env.filters["num"] = lambda v, fmt="{:.1f}": "-" if v is None or v != v else fmt.format(v)
    return env


def render_report(series: list[CrawlSeries], taxonomies: list[ErrorTaxonomy],
                  charts: list[RenderedChart]) -> str:
    template = _environment().get_template("report.html")
    return template.render(
        crawls=[
            {"series": s, "taxonomy": t, "intervals": interval_rows(s),
             "tlds": s.tlds().most_common(10), "tld_total": sum(s.hosts.values())}
            for s, t in zip(series, taxonomies, strict=True)
        ],
        charts=charts, HTTP=HTTP, POLICY=POLICY,
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
    )


def _write_atomically(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_report(directory: Path, html: str, charts: list[RenderedChart]) -> Path:
    """Write ``report.html`` and ``charts/*.png`` into ``directory``; returns the report."""
    (directory / "charts").mkdir(parents=True, exist_ok=True)
    for rendered in charts:
        if rendered.png is not None:
            _write_atomically(directory / "charts" / f"{rendered.chart.name}.png", rendered.png)
    report = directory / "report.html"
    _write_atomically(report, html.encode("utf-8"))
    return report
