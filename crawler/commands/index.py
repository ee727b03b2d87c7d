"""`scrapy index`: apply the search outbox to the index folder (the one indexer).

    scrapy index [--crawl-id ID] [--follow]

Registers the crawl (default: the latest) with the index folder and applies the outbox
of every crawl registered with it, until it is empty, or with ``--follow`` until
interrupted (SIGINT/SIGTERM: it applies what is left and exits). One indexer per folder:
without ``--follow`` a busy folder is an error; with it, this indexer waits and takes
over when the other one quits. See docs/search.md.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler.commands._shared import (
    COMMAND_ERRORS,
    add_crawl_id_option,
    configure_command_logging,
    fail,
    one_line_errors,
    prepared_database,
    quiet_when_output_closed,
    reject_arguments,
)
from crawler.pipelines.search_index import indexer_config
from crawler.ranking.store import resolve_crawl_id
from crawler.search.index import open_index
from crawler.search.indexer import IndexerReport, run_indexer


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options]"

    def short_desc(self) -> str:
        return "Apply the search outbox to the index (the one indexer of the index folder)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        add_crawl_id_option(parser, "index")
        parser.add_argument(
            "--follow",
            action="store_true",
            help="keep applying new operations until interrupted (SIGINT, SIGTERM)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("index", args)
        configure_command_logging(self)
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        total = IndexerReport()
        started = time.perf_counter()
        try:
            with prepared_database(self.settings) as database:
                with database.connect(autocommit=True) as conn:
                    crawl_id = resolve_crawl_id(conn, opts.crawl_id)
                config = indexer_config(self.settings, database.url)
                open_index(config.index_path).close()  # created, or its schema checked
                if config.nice:
                    os.nice(config.nice)
                held = run_indexer(
                    config,
                    [crawl_id],
                    follow=opts.follow,
                    stop=stop,
                    report=total.add,
                    standby=opts.follow,
                )
        except COMMAND_ERRORS as exc:
            fail(self, exc)
            return
        if not held:
            fail(self, f"another indexer is applying the outbox to {config.index_path}")
            return
        for error in total.errors:
            print(f"warning: {error}")
        seconds = time.perf_counter() - started
        with quiet_when_output_closed():
            print(
                f"indexed {total.pages} pages, removed {total.deleted}, in {total.commits} "
                f"commits into {config.index_path} in {seconds:.1f} s"
            )
