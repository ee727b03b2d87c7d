"""`scrapy search "query"`: ranked results from the search index, for people or scripts.

Prints title, URL and snippet of each result; ``--json`` prints one JSON object instead
(results with rank, url, title, snippet, score, pagerank, ... and the total count, the
query time and the "did you mean" suggestion).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler import defaults
from crawler.commands._shared import (
    COMMAND_ERRORS,
    fail,
    int_in_range,
    one_line_errors,
    prepared_database,
    quiet_when_output_closed,
)
from crawler.pipelines.search_index import indexer_config
from crawler.search.index import SearchIndexError, index_path, open_index
from crawler.search.indexer import IndexerReport, run_indexer
from crawler.search.pending import pending_message, read_pending
from crawler.search.terminal import printable, terminal_snippet


def apply_pending(settings: Any, folder: str | Path) -> str | None:
    """Apply what crawls left in ``folder``'s search outbox (the note they wrote there,
    crawler/search/pending.py) before a search, so that it finds every stored page.
    Returns a line for stderr, or None when nothing was pending or it could not be done
    (no database, another indexer holds the folder: the pending note says so then)."""
    entries = read_pending(folder)
    if not entries:
        return None
    report = IndexerReport()
    started = time.perf_counter()
    try:
        with prepared_database(settings) as database:
            config = dataclasses.replace(
                indexer_config(settings, database.url), index_path=str(folder)
            )
            held = run_indexer(
                config,
                sorted(entries),
                follow=False,
                stop=threading.Event(),
                report=report.add,
                standby=False,
            )
    except COMMAND_ERRORS:
        return None
    if not held:
        return None
    which = ", ".join(sorted(entries))
    return (
        f"note: indexed {report.pages} pages that crawl{'s' if len(entries) > 1 else ''} "
        f"{which} left in the search outbox, before searching "
        f"({time.perf_counter() - started:.1f} s)"
    )


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return '[options] [--] "query"'

    def short_desc(self) -> str:
        return "Search the crawled pages (query language: docs/search.md)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        # the engine is imported where it is used: Scrapy imports every command module
        # for any command, a crawl's start too (tests/unit/test_startup_imports.py)
        from crawler.search.engine import MAX_PER_PAGE

        super().add_options(parser)
        one_line_errors(parser)
        assert self.settings is not None
        parser.add_argument("--json", action="store_true", help="print JSON for scripts")
        parser.add_argument(
            "-n",
            "--results",
            type=int_in_range(1, MAX_PER_PAGE),
            default=self.settings.getint(
                "SEARCH_RESULTS_PER_PAGE", defaults.SEARCH_RESULTS_PER_PAGE
            ),
            help=f"results per page, at most {MAX_PER_PAGE} (default %(default)s, "
            "SEARCH_RESULTS_PER_PAGE)",
        )
        parser.add_argument(
            "--page", type=int_in_range(1), default=1, help="result page (default 1)"
        )
        parser.add_argument(
            "--index", help="index folder (default: SEARCH_INDEX_DIR, else CRAWLER_DATA_DIR/index)"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        # Scrapy passes unknown options on as words; "-word" is the query's NOT, "--x" no
        # word, unless it comes after "--": everything after it is the query as typed
        # (scrapy search -- --debug=explain)
        words, literal = args, []
        if "--" in args:
            cut = args.index("--")
            words, literal = args[:cut], args[cut + 1 :]
        unknown = [arg for arg in words if arg.startswith("--")]
        if unknown:
            raise UsageError(f"unrecognized option {unknown[0]} (see scrapy search -h)")
        text = " ".join(words + literal).strip()
        if not text:
            raise UsageError("give a query, e.g. scrapy search 'python json'")
        folder = opts.index or index_path(self.settings)
        applied = None
        if self.settings.getbool("SEARCH_APPLY_PENDING", defaults.SEARCH_APPLY_PENDING):
            applied = apply_pending(self.settings, folder)
        if applied:
            print(applied, file=sys.stderr)
        try:
            ix = open_index(folder, create=False)
        except SearchIndexError as exc:
            fail(self, exc)
            return
        from crawler.search.engine import SearchEngine

        engine = SearchEngine.from_settings(self.settings, ix)
        try:
            results = engine.search(text, page=opts.page, per_page=opts.results)
        finally:
            engine.close()
            ix.close()
        if not results.error and results.page > max(1, results.pages):
            fail(
                self,
                f"--page {results.page} is past the last page of results "
                f"({results.total} results, {results.pages} pages of {results.per_page})",
            )
            return
        with quiet_when_output_closed():
            if opts.json:
                json.dump(results.as_dict(), sys.stdout, ensure_ascii=False, indent=1)
                sys.stdout.write("\n")
            else:
                self._print(results)
            pending = pending_message(folder)
            if pending:  # on stderr: --json's output stays one JSON object
                print(pending, file=sys.stderr)
        if results.error:
            self.exitcode = 2

    @staticmethod
    def _print(results: Any) -> None:
        out = sys.stdout
        if results.error:
            print(f"error: {results.error}", file=sys.stderr)
            return
        bold = out.isatty()
        if results.suggestion:
            print(f"Did you mean: {printable(results.suggestion)}")
        shown = f"{results.hits[0].rank}-{results.hits[-1].rank} of " if results.hits else ""
        print(
            f"{shown}{results.total} results ({results.elapsed * 1000:.1f} ms)"
            + (f", page {results.page} of {results.pages}" if results.pages > 1 else "")
        )
        for hit in results.hits:
            print()
            print(f"{hit.rank:3d}. {printable(hit.display_title)}")
            print(f"     {printable(hit.url)}")
            snippet = terminal_snippet(hit.snippet_html, bold)
            if snippet:
                print(f"     {snippet}")
            if hit.variants:
                print("     other languages / copies:")
                for variant in hit.variants:
                    lang = f"[{variant['lang']}] " if variant["lang"] else ""
                    print(f"       {printable(lang + variant['url'])}")
