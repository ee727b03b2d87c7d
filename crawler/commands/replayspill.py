"""`scrapy replayspill [FILE ...]`: write spilled storage batches into PostgreSQL.

A batch the storage pipeline could not write after STORE_WRITE_ATTEMPTS was appended to
``CRAWLER_DATA_DIR/spill/<crawl id>.jsonl`` (format: crawler/storage/spill.py). This
command writes those items with the pipeline's own upserts (idempotent: a file replayed
twice gives the same rows), prints what it wrote, and renames a file to
``NAME.jsonl.replayed-<UTC time>`` once every line of it is in the database. A bad line
is reported with its number and left in the file, which is then kept as it is; the good
lines are written all the same.

Exit status: 0 all written; 1 some lines were bad (their files kept); 2 the database or a
file could not be used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import psycopg
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler import defaults
from crawler.commands._shared import (
    COMMAND_ERRORS,
    configure_command_logging,
    fail,
    int_in_range,
    one_line_errors,
    prepared_database,
)
from crawler.pipelines.postgres import write_batch
from crawler.storage.database import DatabaseUnavailable
from crawler.storage.spill import SPILL_SUFFIX, batches, read_chunk, retire

# A crawl's row is written when it starts, so it exists unless the spill is replayed into
# another database; then a row is added so that the pages can reference it.
_ADD_CRAWL_SQL = """
INSERT INTO crawls (id, spider, arguments) VALUES (%s, 'unknown', %s)
ON CONFLICT (id) DO NOTHING RETURNING id
"""


@dataclass
class ReplayResult:
    """What the replay of one spill file did."""

    path: Path
    crawl_ids: list[str] = field(default_factory=list)
    pages: int = 0
    links: int = 0
    uncrawled: int = 0
    batches: int = 0
    bad_lines: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    crawls_added: list[str] = field(default_factory=list)
    database_error: str | None = None
    renamed_to: Path | None = None


async def replay_file(
    conn: psycopg.AsyncConnection[Any], path: Path, batch_size: int
) -> ReplayResult:
    """Write every item of the spill file ``path`` and rename the file when all its lines
    are written; lines appended meanwhile (a crawl still spilling) are replayed too."""
    result = ReplayResult(path)
    known: set[str] = set()
    offset, line = 0, 1
    while True:
        chunk = read_chunk(path, offset, line)
        result.bad_lines += chunk.errors
        for crawl_id, pages, uncrawled in batches(chunk.items, batch_size):
            try:
                if crawl_id not in known:
                    known.add(crawl_id)
                    result.crawl_ids.append(crawl_id)
                    arguments = json.dumps({"replayed_spill_file": str(path)})
                    cursor = await conn.execute(_ADD_CRAWL_SQL, (crawl_id, arguments))
                    if await cursor.fetchone():
                        result.crawls_added.append(crawl_id)
                result.links += await write_batch(conn, crawl_id, pages, uncrawled)
            except psycopg.Error as exc:
                result.database_error = str(exc).strip() or type(exc).__name__
                return result
            result.pages += len(pages)
            result.uncrawled += len(uncrawled)
            result.batches += 1
        offset, line = chunk.end, chunk.next_line
        if result.bad_lines:
            return result  # keep the file: its bad lines are all that is not in the database
        result.renamed_to = retire(path, offset)
        if result.renamed_to is not None:
            return result


async def replay_files(url: str, paths: list[Path], batch_size: int) -> list[ReplayResult]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        return [await replay_file(conn, path, batch_size) for path in paths]


def describe(result: ReplayResult) -> str:
    """One summary line of a file's replay."""
    crawls = ", ".join(result.crawl_ids) or "none"
    text = (
        f"{result.path}: {result.pages} pages, {result.links} links, {result.uncrawled} "
        f"uncrawled URLs written in {result.batches} batches (crawl {crawls})"
    )
    if result.crawls_added:
        text += f"; crawl row added for {', '.join(result.crawls_added)}"
    if result.database_error:
        return text + "; stopped by a database error, file kept"
    if result.bad_lines:
        return (
            f"{text}; {len(result.bad_lines)} bad lines, file kept: fix or delete them and "
            "replay again (rows already written are updated, never duplicated)"
        )
    return f"{text}; renamed to {result.renamed_to}"


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] [FILE ...]"

    def short_desc(self) -> str:
        return "Write spilled storage batches (CRAWLER_DATA_DIR/spill/*.jsonl) into PostgreSQL"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        assert self.settings is not None
        parser.add_argument(
            "--batch-size", type=int_in_range(1),
            default=self.settings.getint("STORE_BATCH_SIZE", defaults.STORE_BATCH_SIZE),
            help="items per transaction (default: STORE_BATCH_SIZE, %(default)s)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        unknown = [arg for arg in args if arg.startswith("-")]
        if unknown:
            raise UsageError(f"unrecognized option {unknown[0]} (see scrapy replayspill -h)")
        configure_command_logging(self)
        if args:
            paths = [Path(arg) for arg in args]
        else:
            spill_dir = Path(
                self.settings.get("CRAWLER_DATA_DIR", defaults.CRAWLER_DATA_DIR)
            ) / "spill"
            paths = sorted(spill_dir.glob(f"*{SPILL_SUFFIX}"))
            if not paths:
                print(f"no spill files in {spill_dir}")
                return
        missing = [path for path in paths if not path.is_file()]
        for path in missing:
            fail(self, f"no spill file {path}")
        paths = [path for path in paths if path not in missing]
        if not paths:
            return
        try:
            with prepared_database(self.settings) as database:
                try:
                    results = asyncio.run(replay_files(database.url, paths, opts.batch_size))
                except psycopg.OperationalError as exc:
                    raise DatabaseUnavailable(
                        f"cannot connect to PostgreSQL at {database.display_url}: {exc}"
                    ) from exc
        except COMMAND_ERRORS as exc:
            fail(self, exc)
            return
        for result in results:
            for number, reason in result.bad_lines:
                print(f"error: {result.path} line {number}: {reason}", file=sys.stderr)
            if result.database_error:
                fail(self, f"{result.path}: {result.database_error}")
            print(describe(result))
            if result.bad_lines and not self.exitcode:
                self.exitcode = 1
        total = sum(r.pages + r.uncrawled for r in results)
        done = sum(r.renamed_to is not None for r in results)
        print(f"replayed {total} items from {len(results)} files; {done} files fully written")
