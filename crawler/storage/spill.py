"""Spill files: storage batches that could not be written to PostgreSQL, kept as JSON lines.

The storage pipeline appends a batch it cannot write after STORE_WRITE_ATTEMPTS to
``CRAWLER_DATA_DIR/spill/<crawl id>.jsonl``, one item a line::

    {"type": "PageItem", "crawl_id": "...", "url": ..., "links": [{...}], ...}
    {"type": "UncrawledItem", "crawl_id": "...", "url": ..., "category": ..., ...}

`scrapy replayspill` writes them back (crawler/commands/replayspill.py). Writers and the
replay take an flock on the file: an append is never read half-written, and a file is
renamed away only when everything in it has been replayed; a writer that finds its file
renamed meanwhile starts a new one (see :func:`append_items`).
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from crawler.items import LinkRecord, PageItem, UncrawledItem

Item = PageItem | UncrawledItem

#: Suffix of a spill file; a replayed file is renamed to ``NAME.jsonl.replayed-<UTC time>``.
SPILL_SUFFIX = ".jsonl"
REPLAYED_MARK = ".replayed-"


class SpillLineError(ValueError):
    """A line of a spill file that is not a spilled item."""


def spill_path(spill_dir: Path, crawl_id: str) -> Path:
    return spill_dir / f"{crawl_id}{SPILL_SUFFIX}"


def item_row(crawl_id: str, item: Item) -> dict[str, Any]:
    """The JSON object of one spilled item."""
    return {"type": type(item).__name__, "crawl_id": crawl_id, **dataclasses.asdict(item)}


def append_items(path: Path, crawl_id: str, items: Iterable[Item]) -> int:
    """Append ``items`` to the spill file ``path`` in one locked write; the row count."""
    text = "".join(json.dumps(item_row(crawl_id, item), default=str) + "\n" for item in items)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        with path.open("a", encoding="utf-8") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                current = os.stat(path).st_ino == os.fstat(fh.fileno()).st_ino
            except FileNotFoundError:
                current = False
            if not current:
                continue  # replayed and renamed while we waited: write a new file
            fh.write(text)
            fh.flush()
            return text.count("\n")


# -- reading ------------------------------------------------------------------------------


def _text(row: dict[str, Any], key: str, default: str | None = None) -> str:
    value = row.get(key, default)
    if not isinstance(value, str):
        raise SpillLineError(f"{key!r} is {'missing' if key not in row else 'not a string'}")
    return value


def _int(row: dict[str, Any], key: str) -> int:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpillLineError(f"{key!r} is {'missing' if key not in row else 'not an integer'}")
    return value


def _time(row: dict[str, Any], key: str, *, optional: bool = False) -> datetime | None:
    value = row.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise SpillLineError(f"{key!r} is {'missing' if key not in row else 'not a time'}")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise SpillLineError(f"{key!r} is not a time: {value!r}") from exc
    # items carry aware times; a naive one (hand-edited file) is taken as UTC
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _optional_number(row: dict[str, Any], key: str) -> float | None:
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SpillLineError(f"{key!r} is not a number: {value!r}")
    return float(value)


def _optional_bool(row: dict[str, Any], key: str) -> bool | None:
    value = row.get(key)
    if value is not None and not isinstance(value, bool):
        raise SpillLineError(f"{key!r} is not true, false or null: {value!r}")
    return value


def _link(value: Any) -> LinkRecord:
    if not isinstance(value, dict):
        raise SpillLineError(f"a link is not an object: {value!r}")
    return LinkRecord(
        target_url=_text(value, "target_url"),
        anchor_text=_text(value, "anchor_text", ""),
        visibility=_int(value, "visibility"),
        position=_int(value, "position"),
        distance=_int(value, "distance"),
        context=_text(value, "context", ""),
    )


def parse_line(line: str, default_crawl_id: str) -> tuple[str, Item]:
    """``(crawl id, item)`` of one spill line; SpillLineError says what is wrong.

    Lines written before the crawl id was recorded in each row take ``default_crawl_id``
    (the file's name).
    """
    try:
        row = json.loads(line)
    except ValueError as exc:
        raise SpillLineError(f"not JSON: {exc}") from exc
    if not isinstance(row, dict):
        raise SpillLineError("not a JSON object")
    crawl_id = _text(row, "crawl_id", default_crawl_id)
    kind = row.get("type")
    try:
        if kind == "PageItem":
            links = row.get("links", [])
            if not isinstance(links, list):
                raise SpillLineError("'links' is not a list")
            item: Item = PageItem(
                url=_text(row, "url"),
                final_url=_text(row, "final_url"),
                host=_text(row, "host"),
                status=_int(row, "status"),
                content_type=_text(row, "content_type"),
                fetched_at=_time(row, "fetched_at"),  # type: ignore[arg-type]
                depth=_int(row, "depth"),
                size=_int(row, "size"),
                content_md5=_text(row, "content_md5"),
                title=_text(row, "title", ""),
                text=_text(row, "text", ""),
                last_modified=_time(row, "last_modified", optional=True),
                links=[_link(value) for value in links],
                weight=_optional_number(row, "weight"),
                relevant=_optional_bool(row, "relevant"),
                etag=row.get("etag") if isinstance(row.get("etag"), str) else None,
                main_text=row.get("main_text") if isinstance(row.get("main_text"), str) else None,
                headings=[h for h in row.get("headings") or [] if isinstance(h, str)],
                lang=_text(row, "lang", ""),
                names=[n for n in row.get("names") or [] if isinstance(n, str)],
            )
        elif kind == "UncrawledItem":
            item = UncrawledItem(
                url=_text(row, "url"),
                category=_text(row, "category"),
                detail=_text(row, "detail", ""),
                at=_time(row, "at", optional=True),
            )
        else:
            raise SpillLineError(f"unknown item type {kind!r}")
    except SpillLineError:
        raise
    except ValueError as exc:  # e.g. an unknown uncrawled category
        raise SpillLineError(str(exc)) from exc
    return crawl_id, item


@dataclass
class SpillChunk:
    """The complete lines appended to a spill file since ``start`` (a byte offset)."""

    start: int
    end: int
    first_line: int  # number of the chunk's first line in the file, from 1
    next_line: int  # number of the line after the chunk
    items: list[tuple[int, str, Item]] = field(default_factory=list)  # (line, crawl, item)
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)


def read_chunk(path: Path, start: int, first_line: int) -> SpillChunk:
    """Parse the lines of ``path`` from byte ``start`` (under the writers' lock)."""
    with path.open("rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
        fh.seek(start)
        data = fh.read()
    chunk = SpillChunk(start, start + len(data), first_line, first_line)
    default_crawl_id = path.name.split(REPLAYED_MARK)[0].removesuffix(SPILL_SUFFIX)
    number = first_line - 1
    for raw in data.splitlines(keepends=True):
        number += 1
        if not raw.endswith(b"\n"):
            chunk.errors.append((number, "incomplete last line (the write was cut short)"))
            continue
        if not raw.strip():
            continue
        try:
            crawl_id, item = parse_line(raw.decode("utf-8"), default_crawl_id)
        except UnicodeDecodeError as exc:
            chunk.errors.append((number, f"not UTF-8: {exc}"))
        except SpillLineError as exc:
            chunk.errors.append((number, str(exc)))
        else:
            chunk.items.append((number, crawl_id, item))
    chunk.next_line = number + 1
    return chunk


def batches(
    items: Iterable[tuple[int, str, Item]], max_rows: int
) -> Iterator[tuple[str, list[PageItem], list[UncrawledItem]]]:
    """Group spilled items, in file order, into batches the pipeline's writer takes.

    The file does not mark where the pipeline's batches ended. A batch holds each URL
    once and its pages before its uncrawled URLs (the order the writer applies), so a new
    batch starts at a repeated URL, at a page after an uncrawled URL, at another crawl
    id and at ``max_rows``: replaying the batches in order then gives the rows the
    pipeline would have written.
    """
    crawl: str | None = None
    pages: list[PageItem] = []
    uncrawled: list[UncrawledItem] = []
    urls: set[str] = set()
    for _, crawl_id, item in items:
        if crawl is not None and (
            crawl_id != crawl
            or item.url in urls
            or (isinstance(item, PageItem) and uncrawled)
            or len(urls) >= max_rows
        ):
            yield crawl, pages, uncrawled
            pages, uncrawled, urls = [], [], set()
        crawl = crawl_id
        urls.add(item.url)
        if isinstance(item, PageItem):
            pages.append(item)
        else:
            uncrawled.append(item)
    if crawl is not None:
        yield crawl, pages, uncrawled


def retire(path: Path, replayed_to: int) -> Path | None:
    """Rename a fully replayed spill file to ``NAME.replayed-<UTC time>`` and return the
    new path; None (and the file left alone) when lines were appended after byte
    ``replayed_to``: they must be replayed first."""
    with path.open("rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)  # no writer appends while we look and rename
        if os.fstat(fh.fileno()).st_size > replayed_to:
            return None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = path.with_name(f"{path.name}{REPLAYED_MARK}{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}{REPLAYED_MARK}{stamp}-{n}")
        path.rename(target)
        return target
