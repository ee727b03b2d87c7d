"""`scrapy crawl` with a pre-flight check.

Bad seeds, an unreachable external database, an unwritable WARC_DIR or an unusable
METRICS_PORT end the command with one clear error line and exit status 2, before the
engine starts and before anything is fetched.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from crawler.extensions.metrics import MetricsPortError, check_metrics_port
from crawler.seeds import SeedError
from crawler.storage.database import DatabaseUnavailable, check_connection, configured_url
from crawler.warc import WarcDirError, check_warc_dir


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                self._preflight(args[0], opts)
            except (SeedError, DatabaseUnavailable, WarcDirError, MetricsPortError) as exc:
                print(f"error: {exc}", file=sys.stderr)
                self.exitcode = 2
                return
        super().run(args, opts)

    def _preflight(self, spider_name: str, opts: argparse.Namespace) -> None:
        assert self.crawler_process is not None
        try:
            spidercls = self.crawler_process.spider_loader.load(spider_name)
        except KeyError as exc:
            raise UsageError(f"no spider named {spider_name!r}") from exc
        preflight = getattr(spidercls, "preflight", None)
        if preflight is not None:
            preflight(dict(opts.spargs))
        settings = self.settings
        url = configured_url(settings)
        if url:
            check_connection(url, settings.getfloat("CRAWLER_DB_CONNECT_TIMEOUT", 5))
        if settings.get("WARC_DIR"):  # an archive that cannot be written stops the crawl
            check_warc_dir(settings["WARC_DIR"])
        port = settings.getint("METRICS_PORT")
        if port:
            check_metrics_port(str(settings.get("METRICS_ADDRESS", "127.0.0.1")), port)
