"""Helpers shared by the project's commands: which crawl and database a command works on,
how it reports a failure, and how it stops when its reader goes away.

Not a command itself (Scrapy registers the ScrapyCommand subclasses of this package; this
module defines none).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scrapy.commands import ScrapyCommand

from crawler.search.index import SearchIndexError
from crawler.storage.database import CrawlDatabase, DatabaseUnavailable

#: Failures a command reports as one ``error: ...`` line and exit status 2: the database
#: cannot be reached or prepared, the search index cannot be used, the crawl is unknown.
COMMAND_ERRORS: tuple[type[Exception], ...] = (
    DatabaseUnavailable, SearchIndexError, LookupError,
)


def add_crawl_id_option(parser: argparse.ArgumentParser, verb: str) -> None:
    """``--crawl-id ID``: the crawl to work on; unset means the latest crawl."""
    parser.add_argument(
        "--crawl-id", dest="crawl_id", default=None,
        help=f"crawl to {verb} (default: the latest crawl)",
    )


@contextmanager
def prepared_database(settings: Any) -> Iterator[CrawlDatabase]:
    """The database the settings name, started if embedded and migrated; closed (the
    embedded server released) when the block ends, whatever happens in it."""
    database = CrawlDatabase.from_settings(settings)
    try:
        database.prepare()
        yield database
    finally:
        database.close()


def fail(command: ScrapyCommand, error: BaseException | str, exitcode: int = 2) -> None:
    """Report a failure of ``command`` as one line on stderr and set its exit status."""
    print(f"error: {error}", file=sys.stderr)
    command.exitcode = exitcode


@contextmanager
def quiet_when_output_closed() -> Iterator[None]:
    """Stop quietly when stdout's reader goes away (``scrapy search x | head -1``).

    The output is flushed inside the block, so a broken pipe shows here rather than at
    interpreter exit; stdout then points to /dev/null so that no later flush fails.
    Not an error of the command: its exit status is left alone.
    """
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
