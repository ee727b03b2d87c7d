"""The crawls pages of the web UI (docs/operations.md): ``/crawls`` lists the crawls with
their status, ``/crawls/ID`` shows one (tables and the report's charts, optionally with
``?compare=OTHER`` and ``?interval=SECONDS``), ``/crawls/ID/charts/NAME.png`` draws one
chart. The charts are the ones of `scrapy report --html` (crawler/reporting), drawn on
request. The database is prepared on the first request (an embedded server is started
then), so the search pages work without one.
"""

from __future__ import annotations

import hmac
import os
import threading
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from crawler import defaults
from crawler.control import store as control_store
from crawler.control.actions import ACTIONS, ControlError, make_argument
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


#: environment variable holding the control token (the CONTROL_TOKEN setting wins)
ENV_CONTROL_TOKEN = "CRAWLER_CONTROL_TOKEN"


def configured_control_token(settings: Any) -> str | None:
    """The control token of the settings (CONTROL_TOKEN) or the environment, if any."""
    return (
        settings.get("CONTROL_TOKEN", defaults.CONTROL_TOKEN)
        or os.environ.get(ENV_CONTROL_TOKEN)
        or None
    )


def token_matches(given: str, token: str | None) -> bool:
    """Whether the token of a control request is the server's (compared in constant
    time); never without a server token."""
    return bool(token) and hmac.compare_digest(given.encode(), str(token).encode())


def crawls_blueprint(database: CrawlDatabase, control_token: str | None = None) -> Blueprint:
    """The crawls pages; ``control_token``: what a control action must carry (None: the
    control form refuses every action)."""
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
            history = control_store.history(conn, series[0].info.crawl_id)
        query = {k: v for k, v in request.args.items() if k in ("compare", "interval")}
        # a chart without data gets its reason instead of a broken image
        available = {chart.name for chart in CHARTS if chart.draw(series) is not None}
        return render_template(
            "crawl.html", series=series, main=series[0], taxonomy=taxonomies[0],
            intervals=interval_rows(series[0]), charts=CHARTS, available=available, query=query,
            tlds=series[0].tlds().most_common(10), HTTP=HTTP, POLICY=POLICY,
            history=history, actions=ACTIONS, control_message=request.args.get("control", ""),
        )

    @pages.post("/crawls/<crawl_id>/control")
    def control(crawl_id: str) -> Response:
        """Record a control action (crawler/control): only with the server's token."""
        if not token_matches(request.form.get("token", ""), control_token):
            abort(403, description="wrong or missing control token: nothing recorded")
        action = request.form.get("action", "")
        try:
            argument = make_argument(
                action, request.form.get("argument", "").strip() or None, seeds_text=True
            )
        except ControlError as exc:
            abort(400, description=str(exc))
        with connect() as conn:
            exists, _ = control_store.crawl_state(conn, crawl_id)
            if not exists:
                abort(404, description=f"no crawl with id {crawl_id!r}")
            recorded = control_store.record(conn, crawl_id, action, argument, "web")
            conn.commit()
        message = f"{recorded.describe()} recorded as action {recorded.id}"
        return redirect(  # type: ignore[return-value]
            url_for("crawls.crawl_page", crawl_id=crawl_id, control=message) + "#control",
            code=303,
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
