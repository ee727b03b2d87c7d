"""`scrapy freshness --crawl-id ID`: the freshness of an incremental crawl's collection
(docs/incremental.md)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler.commands._shared import (
    COMMAND_ERRORS,
    fail,
    prepared_database,
    quiet_when_output_closed,
)


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "--crawl-id ID"

    def short_desc(self) -> str:
        return "Print the estimated freshness and change rates of an incremental crawl"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--crawl-id", dest="crawl_id", default=None,
                            help="crawl kept fresh by `scrapy crawl incremental`")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from crawler.incremental.report import format_freshness, freshness_report

        assert self.settings is not None
        if not opts.crawl_id:
            fail(self, "give the crawl with --crawl-id ID")
            return
        try:
            with prepared_database(self.settings) as database, database.connect() as conn:
                report = freshness_report(conn, opts.crawl_id, datetime.now(UTC))
        except COMMAND_ERRORS as exc:
            fail(self, exc)
            return
        if report is None:
            fail(self, f"crawl {opts.crawl_id!r} has no revisit schedule: run "
                       f"`scrapy crawl incremental -a crawl_id={opts.crawl_id}` first")
            return
        with quiet_when_output_closed():
            print(format_freshness(report))
