"""`scrapy index`: apply the search outbox to the index folder (the one indexer).

    scrapy index [--crawl-id ID] [--follow]
    scrapy index --status

``--status`` prints the folder's backend, document count, whether an indexer runs on it,
and per registered crawl the outbox lag: operations stored in PostgreSQL and not yet
applied (pages stored but not yet searchable) and the age of the oldest.

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
from crawler.search.index import folder_backend, open_index
from crawler.search.indexer import (
    IndexerReport,
    index_key,
    lock_holder,
    outbox_lag,
    run_indexer,
)


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
        parser.add_argument(
            "--status",
            action="store_true",
            help="print the index's backend, documents and outbox lag per crawl, and exit",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("index", args)
        configure_command_logging(self)
        if opts.status:
            self.status()
            return
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
                # created, or its schema and backend checked
                open_index(config.index_path, backend=config.backend).close()
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

    def status(self) -> None:
        """Print the folder's backend, documents, indexer and outbox lag per crawl."""
        assert self.settings is not None
        try:
            with prepared_database(self.settings) as database:
                config = indexer_config(self.settings, database.url)
                key = index_key(config.index_path)
                with database.connect(autocommit=True) as conn:
                    lags = outbox_lag(conn, key)
                    holder = lock_holder(conn, key)
                    now = conn.execute("SELECT now()").fetchone()[0]
            backend = folder_backend(config.index_path)
            documents = None
            if backend is not None:
                # imported here: Scrapy imports every command module for any command
                from crawler.search.engine import SearchEngine

                engine = SearchEngine(open_index(config.index_path, create=False))
                documents = engine.doc_count()
                engine.close()
        except COMMAND_ERRORS as exc:
            fail(self, exc)
            return
        with quiet_when_output_closed():
            print(f"index {config.index_path}")
            print(
                f"backend {backend or 'none (no index yet)'} (SEARCH_BACKEND {config.backend}), "
                f"{documents if documents is not None else 0} documents"
            )
            print(
                "indexer: "
                + (f"running (PostgreSQL session {holder})" if holder else "none running")
            )
            if not lags:
                print("no crawl registered with this folder")
            total = 0
            for lag in lags:
                total += lag.pending
                age = ""
                if lag.oldest is not None:
                    age = f", oldest {(now - lag.oldest).total_seconds():.1f} s ago"
                print(
                    f"crawl {lag.crawl_id}: applied up to outbox id {lag.position}, "
                    f"{lag.pending} operations not yet searchable{age}"
                )
            if lags:
                print(f"outbox lag: {total} operations (pages stored, not yet searchable)")
