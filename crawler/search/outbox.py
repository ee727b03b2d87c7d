"""The search outbox: index operations written in the page's own transaction (no Scrapy).

Whoosh has one writer per index, but a crawl may have several agents. So the agents do
not write the index: whoever stores a page also appends an operation to the
``search_outbox`` table in the same transaction, and one indexer per index folder
(``crawler.search.indexer``) applies the operations in id order.

Operations, per (crawl id, URL):

* ``upsert``: index the URL's current ``pages`` row (replacing its document); a URL whose
  row is gone by then is removed instead, so an upsert applied late never revives a
  deleted page;
* ``delete``: remove the URL's document (e.g. a re-crawled page that now answers 404).

Ordering: every transaction that appends takes a transaction-level advisory lock on its
crawl's outbox just before appending, and keeps it until it commits. Ids are therefore
committed in id order per crawl: a reader that sees id n+1 has seen id n, and the
indexer can remember a single position per crawl (``search_index_positions``) without
skipping a row whose transaction was still running.

:func:`enqueue_index_operations` is the public way to append (the storage pipeline and
the incremental crawler use it); call it inside the transaction that changes the pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import psycopg

__all__ = [
    "DELETE",
    "UPSERT",
    "OutboxOperation",
    "enqueue_index_operations",
    "last_operations",
]

UPSERT = "upsert"
DELETE = "delete"
Operation = Literal["upsert", "delete"]

# Advisory lock class of a crawl's outbox ("sobx"); the second key is hashtext(crawl_id).
OUTBOX_LOCK_CLASS = 0x736F6278

_LOCK_SQL = "SELECT pg_advisory_xact_lock(%s, hashtext(%s))"

_ENQUEUE_SQL = """
INSERT INTO search_outbox (crawl_id, url, op)
SELECT %s, u, %s FROM unnest(%b::text[]) AS u
"""

OutboxOperation = tuple[int, str, str]  # (id, url, op)


async def enqueue_index_operations(
    conn: psycopg.AsyncConnection[Any],
    crawl_id: str,
    urls: Sequence[str],
    op: Operation = UPSERT,
) -> None:
    """Append one ``op`` per URL to the crawl's search outbox.

    Call it inside the transaction that stores (``upsert``) or removes (``delete``) the
    pages, as late in it as possible: from here to the commit, other writers of the
    same crawl's outbox wait (that wait is what keeps ids in commit order). The
    operations become visible to the indexer when the transaction commits, together
    with the pages; a rolled-back transaction leaves none.
    """
    if op not in (UPSERT, DELETE):
        raise ValueError(f"unknown index operation {op!r}")
    if not urls:
        return
    await conn.execute(_LOCK_SQL, (OUTBOX_LOCK_CLASS, crawl_id))
    await conn.execute(_ENQUEUE_SQL, (crawl_id, op, list(urls)))


def last_operations(rows: Iterable[OutboxOperation]) -> dict[str, str]:
    """The operation that counts for each URL of a batch read in id order: the last
    one (an upsert then a delete is a delete, and the reverse an upsert)."""
    last: dict[str, str] = {}
    for _id, url, op in rows:
        last.pop(url, None)  # keep the URLs in the order of their last operation
        last[url] = op
    return last
