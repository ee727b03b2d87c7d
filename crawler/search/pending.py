"""The index folder's note of what crawls left unapplied in the search outbox.

A crawl stops its indexer after ``SEARCH_INDEX_CLOSE_TIMEOUT`` and leaves the rest of the
outbox in PostgreSQL for the next indexer of the folder (``scrapy index``). ``scrapy
search`` and ``scrapy serve`` read the index folder only, not the database, so without
this note a search right after such a crawl would quietly miss its last pages. The crawl
writes here how many of its pages are not searchable yet; the folder's indexer removes
the note whenever it has applied the whole outbox. The note can lag behind (another indexer
applied the outbox meanwhile): it says "at the close", never more.

No Scrapy imports.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PENDING_FILE = "PENDING.json"


def _path(folder: str | os.PathLike[str]) -> Path:
    return Path(folder) / PENDING_FILE


def read_pending(folder: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """crawl id -> {"operations", "pages", "closed_at"} of the crawls whose outbox was
    not applied when they closed; {} when there is no note (or an unreadable one)."""
    try:
        data = json.loads(_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(folder: str | os.PathLike[str], entries: dict[str, dict[str, Any]]) -> None:
    path = _path(folder)
    if not entries:
        path.unlink(missing_ok=True)
        return
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(entries, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(temporary, path)  # a reader sees the old note or the new one, never half


def note_pending(
    folder: str | os.PathLike[str], crawl_id: str, operations: int, pages: int
) -> None:
    """Record (or, with no operations left, remove) a crawl's backlog at its close."""
    entries = read_pending(folder)
    if operations:
        entries[crawl_id] = {
            "operations": operations,
            "pages": pages,
            "closed_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    else:
        entries.pop(crawl_id, None)
    _write(folder, entries)


def clear_pending(folder: str | os.PathLike[str]) -> None:
    """Remove the note: the folder's indexer has applied the outbox of every crawl
    registered with the folder (which every crawl that wrote here is)."""
    _path(folder).unlink(missing_ok=True)


def pending_message(folder: str | os.PathLike[str]) -> str | None:
    """One line for people about pages not searchable yet, or None."""
    entries = read_pending(folder)
    if not entries:
        return None
    pages = sum(int(e.get("pages", 0)) for e in entries.values())
    crawls = ", ".join(sorted(entries))
    which = f"crawl {crawls}" if len(entries) == 1 else f"crawls {crawls}"
    when = "when it closed" if len(entries) == 1 else "when they closed"
    return (
        f"note: {pages} stored pages of {which} were not searchable yet {when}: "
        "`scrapy index` applies them (see `scrapy index --status`)"
    )
