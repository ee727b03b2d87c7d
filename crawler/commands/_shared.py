"""Helpers shared by the project's commands: which crawl and database a command works on,
how it reports a failure, and how it stops when its reader goes away.

The error convention of every command: a usage or input error (a bad option value, an
unknown option, a crawl or index that does not exist) prints one ``error: ...`` line on
stderr, no usage text and no traceback, and exits with status 2. Commands install it with
:func:`one_line_errors` in ``add_options`` and validate option values with
:func:`int_in_range`.

Not a command itself (Scrapy registers the ScrapyCommand subclasses of this package; this
module defines none).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.log import configure_logging

from crawler.search.index import SearchIndexError
from crawler.storage.database import CrawlDatabase, DatabaseUnavailable

#: Failures a command reports as one ``error: ...`` line and exit status 2: the database
#: cannot be reached or prepared, the search index cannot be used, the crawl is unknown.
COMMAND_ERRORS: tuple[type[Exception], ...] = (
    DatabaseUnavailable, SearchIndexError, LookupError,
)


def usage_error(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 2."""
    sys.stderr.write(f"error: {message}\n")
    sys.stderr.flush()
    sys.exit(2)


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make the command's usage errors one ``error: ...`` line and exit status 2.

    Scrapy reports a UsageError (and argparse a bad option value) through
    ``parser.error``, which prints the usage text and ``scrapy: error: ...``; this parser
    prints the message alone (``scrapy COMMAND -h`` still shows the usage).
    """
    parser.error = usage_error  # type: ignore[method-assign]


def int_in_range(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` accepting integers from ``low`` to ``high`` (no upper bound
    when None); anything else is an ``error: argument --x: ...`` line."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < low or (high is not None and value > high):
            limit = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"must be {limit}, not {value}")
        return value

    parse.__name__ = "integer"  # argparse names the type in some messages
    return parse


def reject_arguments(command: str, args: list[str]) -> None:
    """A command that takes no arguments: an unknown option or a stray word is an error
    (Scrapy passes options it does not know on as arguments)."""
    if args:
        options = [arg for arg in args if arg.startswith("-")]
        if options:
            raise UsageError(f"unrecognized option {options[0]} (see scrapy {command} -h)")
        raise UsageError(f"{command} takes no arguments, got {args[0]!r}")


def configure_command_logging(command: ScrapyCommand) -> None:
    """Start logging at the command's own level (its ``default_settings`` LOG_LEVEL).

    The project's LOG_LEVEL (INFO, for crawls) outranks a command's default settings, so
    it is set again here, below the command line's priority: ``-L`` or ``-s LOG_LEVEL=``
    still win.
    """
    settings = command.settings
    assert settings is not None
    level = command.default_settings.get("LOG_LEVEL")
    if level and settings.getpriority("LOG_LEVEL") < SETTINGS_PRIORITIES["cmdline"]:
        settings.set("LOG_LEVEL", level, priority=SETTINGS_PRIORITIES["cmdline"] - 1)
    configure_logging(settings)


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
