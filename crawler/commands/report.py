"""`scrapy report [--crawl-id ID]`: the error taxonomy of a crawl's uncrawled URLs.

Prints the priority-queue paper's tables for one crawl (the latest one by default):

* crawled vs. uncrawled pages (the paper's Fig. 5);
* Table I, every uncrawled category: the paper's seven (404, 403, 503, other HTTP codes,
  unsupported MIME type, unknown errors, timeouts) and the project's others
  (connection, too large, and the policy refusals: robots.txt, depth threshold, traps,
  eviction, duplicates), as shares of the errors and of all uncrawled URLs;
* Table II, HTTP status errors vs. other errors;
* Table III, the HTTP status errors: 404, 403, 503, other codes.

``--html DIR`` writes the HTML report instead (crawler/reporting): those tables, Table IV,
a per-interval table and every figure of the paper per interval, the order-quality and
harvest-rate curves, for one crawl or two (``--compare X Y``). Bad input (unknown crawl,
empty crawl, running crawl without ``--partial``, an unwritable DIR): one ``error:`` line,
exit status 2, no file written.

All numbers come from one SQL statement (crawler.reporting.taxonomy.REPORT_SQL).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler.commands._shared import (
    add_crawl_id_option,
    fail,
    one_line_errors,
    prepared_database,
    quiet_when_output_closed,
)
from crawler.reporting.series import ReportError
from crawler.reporting.taxonomy import (
    REPORT_SQL,
    ErrorTaxonomy,
    format_report,
    report_parameters,
)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--crawl-id ID] [--html DIR [--interval SECONDS] [--compare X Y] [--partial]]"

    def short_desc(self) -> str:
        return "Print the error taxonomy of a crawl (paper Tables I-III); --html: charts"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        add_crawl_id_option(parser, "report")
        parser.add_argument(
            "--html", metavar="DIR", default=None,
            help="write DIR/report.html (self-contained, with the papers' figures as PNG)",
        )
        parser.add_argument(
            "--interval", metavar="SECONDS", default=None,
            help="interval length of the --html series (default: 1800, or shorter for a "
                 "short crawl)",
        )
        parser.add_argument(
            "--compare", nargs=2, metavar=("X", "Y"), default=None,
            help="with --html: two crawls on the same charts",
        )
        parser.add_argument(
            "--partial", action="store_true",
            help="with --html: report a crawl that has not finished (yet)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        problem = self._usage_problem(args, opts)
        if problem:
            fail(self, problem)
            return
        from crawler.storage.database import DatabaseUnavailable

        try:
            with prepared_database(self.settings) as database, database.connect() as conn:
                if opts.html:
                    self._html(conn, opts)
                    return
                rows = conn.execute(REPORT_SQL, report_parameters(opts.crawl_id)).fetchall()
        except (DatabaseUnavailable, ReportError, OSError) as exc:
            fail(self, exc)
            return
        taxonomy = ErrorTaxonomy.from_rows(rows)
        if taxonomy is None:
            fail(self, f"no crawl with id {opts.crawl_id!r} in the database" if opts.crawl_id
                 else "the database holds no crawl yet")
            return
        with quiet_when_output_closed():
            print(format_report(taxonomy))

    @staticmethod
    def _usage_problem(args: list[str], opts: argparse.Namespace) -> str | None:
        if args:  # Scrapy passes unknown options on as arguments
            return f"unrecognized arguments: {' '.join(args)}"
        if opts.html is None:
            for name in ("interval", "compare"):
                if getattr(opts, name) is not None:
                    return f"--{name} needs --html DIR"
            if opts.partial:
                return "--partial needs --html DIR"
            return None
        if opts.compare and opts.crawl_id:
            return "give either --crawl-id or --compare X Y"
        if opts.interval is not None:
            try:
                opts.interval = float(opts.interval)
            except ValueError:
                return f"--interval must be a number of seconds, not {opts.interval!r}"
            if not 0 < opts.interval < float("inf"):
                return "--interval must be > 0 seconds"
        return None

    def _html(self, conn: Any, opts: argparse.Namespace) -> None:
        from crawler.reporting.html import render_charts, render_report, write_report
        from crawler.reporting.series import (
            check_reportable,
            choose_interval,
            load_info,
            load_series,
        )

        crawl_ids = list(opts.compare or [opts.crawl_id or latest_crawl_id(conn)])
        infos = [load_info(conn, crawl_id) for crawl_id in crawl_ids]
        for info in infos:
            check_reportable(info, allow_running=opts.partial)
        interval = opts.interval or choose_interval(max(i.duration for i in infos))
        series = [load_series(conn, info, interval) for info in infos]
        taxonomies = []
        for crawl_id in crawl_ids:
            taxonomy = ErrorTaxonomy.from_rows(
                conn.execute(REPORT_SQL, report_parameters(crawl_id)).fetchall()
            )
            assert taxonomy is not None  # the crawl exists (load_info)
            taxonomies.append(taxonomy)
        charts = render_charts(series)
        html = render_report(series, taxonomies, charts)
        directory = Path(opts.html)
        if directory.exists() and not directory.is_dir():
            raise ReportError(f"--html {str(directory)!r} is not a directory")
        report = write_report(directory, html, charts)
        drawn = sum(c.png is not None for c in charts)
        with quiet_when_output_closed():
            print(f"report of {' vs. '.join(crawl_ids)}: {report} ({drawn} charts, "
                  f"intervals of {interval:g} s)")


def latest_crawl_id(conn: Any) -> str:
    row = conn.execute("SELECT id FROM crawls ORDER BY started_at DESC, id DESC LIMIT 1"
                       ).fetchone()
    if row is None:
        raise ReportError("the database holds no crawl yet")
    return str(row[0])
