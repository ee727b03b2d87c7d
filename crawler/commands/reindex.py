"""`scrapy reindex`: rebuild the search index from the pages stored in PostgreSQL.

The new index is built beside the old one and swapped in when complete, so searches keep
working meanwhile. PageRank scores stored by `scrapy pagerank` are carried over.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler import defaults
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
from crawler.ranking.store import resolve_crawl_id
from crawler.search.index import folder_backend, index_path, rebuild_index, search_backend
from crawler.search.indexer import index_key, outbox_heads, set_positions, try_lock_index
from crawler.search.source import iter_page_documents


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options]"

    def short_desc(self) -> str:
        return "Rebuild the search index from the pages stored in PostgreSQL"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        add_crawl_id_option(parser, "index")
        parser.add_argument(
            "--all-crawls", action="store_true",
            help="index the pages of every crawl (a URL's latest fetch wins)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("reindex", args)
        if opts.all_crawls and opts.crawl_id:
            raise UsageError("use --crawl-id or --all-crawls, not both", print_help=False)
        configure_command_logging(self)
        settings = self.settings
        path = index_path(settings)
        try:
            backend = search_backend(settings)
            converted = folder_backend(path)
            with (
                prepared_database(settings) as database,
                database.connect(autocommit=True) as conn,
            ):
                crawl_id = None if opts.all_crawls else resolve_crawl_id(conn, opts.crawl_id)
                key = index_key(path)
                if not try_lock_index(conn, key):
                    fail(self, f"an indexer is applying the outbox to {path} (a crawl or "
                               "`scrapy index`): reindex when it has stopped")
                    return
                # the outbox applied so far, read before the pages' snapshot: operations
                # after it are applied again by the indexer (idempotent)
                applied = outbox_heads(conn, crawl_id)
                started = time.perf_counter()
                count = rebuild_index(
                    path,
                    iter_page_documents(
                        conn, crawl_id,
                        max_body_chars=settings.getint(
                            "SEARCH_MAX_BODY_CHARS", defaults.SEARCH_MAX_BODY_CHARS
                        ),
                        max_names=settings.getint(
                            "SEARCH_NAMES_PER_PAGE", defaults.SEARCH_NAMES_PER_PAGE
                        ),
                    ),
                    writer_timeout=settings.getfloat(
                        "SEARCH_WRITER_TIMEOUT", defaults.SEARCH_WRITER_TIMEOUT
                    ),
                    backend=backend,
                )
                seconds = time.perf_counter() - started
                set_positions(conn, key, applied)
        except COMMAND_ERRORS as exc:
            fail(self, exc)
            return
        what = "every crawl" if crawl_id is None else f"crawl {crawl_id}"
        rate = count / seconds if seconds > 0 else 0.0
        change = f", converted from {converted}" if converted not in (None, backend) else ""
        with quiet_when_output_closed():
            print(
                f"indexed {count} pages of {what} into {path} ({backend}{change}) in "
                f"{seconds:.1f} s ({rate:.0f} pages/s)"
            )
