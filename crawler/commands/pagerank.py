"""`scrapy pagerank`: weighted PageRank of a crawl's pages, stored and printed.

Reads the crawl's pages and links from PostgreSQL, computes the weighted PageRank
(crawler.ranking.pagerank, formula in docs/search.md), replaces the crawl's rows of the
``pagerank`` table, sets the pagerank field of the indexed pages and prints the top pages.
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
    int_in_range,
    one_line_errors,
    prepared_database,
    quiet_when_output_closed,
    reject_arguments,
)
from crawler.ranking.pagerank import weighted_pagerank
from crawler.ranking.store import load_link_graph, resolve_crawl_id, store_scores, top_pages
from crawler.search.index import SearchIndexError, index_path, open_index, update_pagerank
from crawler.search.terminal import printable
from crawler.storage.database import CrawlDatabase


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options]"

    def short_desc(self) -> str:
        return "Compute the weighted PageRank of a crawl, store it and print the top pages"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        assert self.settings is not None
        add_crawl_id_option(parser, "rank")
        parser.add_argument(
            "--damping", type=float,
            default=self.settings.getfloat("PAGERANK_DAMPING", defaults.PAGERANK_DAMPING),
            help="probability of following a link (default %(default)s, PAGERANK_DAMPING)",
        )
        parser.add_argument(
            "--tolerance", type=float,
            default=self.settings.getfloat("PAGERANK_TOLERANCE", defaults.PAGERANK_TOLERANCE),
            help="stop when the L1 change falls below this (default %(default)s)",
        )
        parser.add_argument(
            "--max-iterations", type=int_in_range(1),
            default=self.settings.getint(
                "PAGERANK_MAX_ITERATIONS", defaults.PAGERANK_MAX_ITERATIONS
            ),
            help="iteration cap (default: %(default)s)",
        )
        parser.add_argument(
            "--top", type=int_in_range(0), default=10, help="pages to print (default 10)"
        )
        parser.add_argument(
            "--no-index", action="store_true",
            help="store the scores in PostgreSQL only, leave the search index alone",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("pagerank", args)
        if not 0 <= opts.damping < 1:
            raise UsageError("--damping must be in [0, 1)", print_help=False)
        if opts.tolerance <= 0:
            raise UsageError("--tolerance must be > 0", print_help=False)
        configure_command_logging(self)
        try:
            with prepared_database(self.settings) as database, quiet_when_output_closed():
                self._run(database, opts)
        except COMMAND_ERRORS as exc:
            fail(self, exc)

    def _run(self, database: CrawlDatabase, opts: argparse.Namespace) -> None:
        assert self.settings is not None
        with database.connect(autocommit=True) as conn:
            crawl_id = resolve_crawl_id(conn, opts.crawl_id)
            started = time.perf_counter()
            graph = load_link_graph(conn, crawl_id)
            loaded = time.perf_counter()
            result = weighted_pagerank(
                len(graph.urls), graph.sources, graph.targets, graph.weights,
                damping=opts.damping, tolerance=opts.tolerance,
                max_iterations=opts.max_iterations,
            )
            computed = time.perf_counter()
            relative = result.relative
            stored = store_scores(conn, crawl_id, graph.urls, relative)
            stored_at = time.perf_counter()
            top = top_pages(conn, crawl_id, opts.top)
        print(
            f"crawl {crawl_id}: {len(graph.urls)} pages, {graph.total_links} links "
            f"({len(graph.sources)} between stored pages, {graph.links_outside} to URLs "
            f"not stored), {result.dangling} dangling pages"
        )
        state = "converged" if result.converged else "stopped (not converged)"
        print(
            f"PageRank (damping {opts.damping:g}): {state} after {result.iterations} "
            f"iterations, L1 change {result.delta:.2e} (tolerance {opts.tolerance:g}); "
            f"load {loaded - started:.2f} s, compute {computed - loaded:.2f} s, "
            f"store {stored_at - computed:.2f} s"
        )
        print(f"scores stored in PostgreSQL table pagerank: {stored} rows")
        if not opts.no_index:
            path = index_path(self.settings)
            try:
                ix = open_index(path, create=False)
            except SearchIndexError as exc:
                print(f"search index not updated: {exc}")
            else:
                changed = update_pagerank(
                    ix, dict(zip(graph.urls, relative.tolist(), strict=True)),
                    writer_timeout=self.settings.getfloat(
                        "SEARCH_WRITER_TIMEOUT", defaults.SEARCH_WRITER_TIMEOUT
                    ),
                )
                ix.close()
                print(f"search index {path}: {changed} documents updated")
        print(f"top {len(top)} pages (PageRank relative to the average page = 1.0):")
        for rank, (url, title, score) in enumerate(top, 1):
            print(f"{rank:4d} {score:9.4f}  {printable(url)}  {printable(title)[:80]}")
