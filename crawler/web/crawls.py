"""The crawls pages of the web UI (docs/operations.md): ``/crawls`` lists the crawls with
their status, ``/crawls/ID`` shows one (tables and the report's charts, optionally with
``?compare=OTHER`` and ``?interval=SECONDS``), ``/crawls/ID/charts/NAME.png`` draws one
chart. The charts are the ones of `scrapy report --html` (crawler/reporting), drawn on
request. The database is prepared on the first request (an embedded server is started
then), so the search pages work without one.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, abort, render_template, request

from crawler.reporting.figures import CHARTS, CHARTS_BY_NAME, render_png
from crawler.reporting.html import interval_rows
from crawler.reporting.series import (
    CrawlSeries,
    ReportError,
    choose_interval,
    load_info,
    load_series,
)
from crawler.reporting.taxonomy import HTTP, POLICY, REPORT_SQL, ErrorTaxonomy, report_parameters
from crawler.storage.database import CrawlDatabase

_LIST_SQL = """
SELECT c.id, c.spider, c.started_at, c.finished_at, c.finish_reason,
       (SELECT count(*) FROM pages p WHERE p.crawl_id = c.id),
       (SELECT count(*) FROM uncrawled u WHERE u.crawl_id = c.id)
FROM crawls c ORDER BY c.started_at DESC, c.id DESC LIMIT 500
"""


def crawls_blueprint(database: CrawlDatabase) -> Blueprint:
    pages = Blueprint("crawls", __name__)
    lock = threading.Lock()

    def connect() -> Any:
        with lock:
            database.prepare()
        return database.connect()

    def interval_arg(duration: float) -> float:
        try:
            value = float(request.args.get("interval", ""))
        except ValueError:
            return choose_interval(duration)
        return value if 0 < value < 10**7 else choose_interval(duration)

    def series_for(conn: Any, crawl_id: str) -> list[CrawlSeries]:
        ids = [crawl_id]
        other = request.args.get("compare", "").strip()
        if other and other != crawl_id:
            ids.append(other)
        try:
            infos = [load_info(conn, i) for i in ids]
        except ReportError as exc:
            abort(404, description=str(exc))
        interval = interval_arg(max(i.duration for i in infos))
        return [load_series(conn, info, interval) for info in infos]

    @pages.get("/crawls")
    def crawl_list() -> str:
        with connect() as conn:
            rows = conn.execute(_LIST_SQL).fetchall()
        return render_template("crawls.html", crawls=rows)

    @pages.get("/crawls/<crawl_id>")
    def crawl_page(crawl_id: str) -> str:
        with connect() as conn:
            series = series_for(conn, crawl_id)
            taxonomies = [
                ErrorTaxonomy.from_rows(conn.execute(
                    REPORT_SQL, report_parameters(s.info.crawl_id)).fetchall())
                for s in series
            ]
        query = {k: v for k, v in request.args.items() if k in ("compare", "interval")}
        # a chart without data gets its reason instead of a broken image
        available = {chart.name for chart in CHARTS if chart.draw(series) is not None}
        return render_template(
            "crawl.html", series=series, main=series[0], taxonomy=taxonomies[0],
            intervals=interval_rows(series[0]), charts=CHARTS, available=available, query=query,
            tlds=series[0].tlds().most_common(10), HTTP=HTTP, POLICY=POLICY,
        )

    @pages.get("/crawls/<crawl_id>/charts/<name>.png")
    def chart(crawl_id: str, name: str) -> Response:
        chart = CHARTS_BY_NAME.get(name)
        if chart is None:
            abort(404, description=f"no chart named {name!r}")
        with connect() as conn:
            series = series_for(conn, crawl_id)
        figure = chart.draw(series)
        if figure is None:
            abort(404, description=f"no data: {chart.missing}")
        return Response(render_png(figure), mimetype="image/png",
                        headers={"Cache-Control": "no-store"})

    return pages
