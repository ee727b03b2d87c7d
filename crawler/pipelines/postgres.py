"""Storage of pages, links and uncrawled URLs in PostgreSQL.

Items are buffered and written in batches: one transaction and one round trip (psycopg
pipeline mode, array parameters) per batch. Writes are idempotent upserts keyed by
(crawl id, URL), so a retried batch, a re-run or a resumed crawl never duplicates a row.
A batch that cannot be written after STORE_WRITE_ATTEMPTS tries is spilled to a JSON
lines file under CRAWLER_DATA_DIR/spill/ instead of being lost (crawler/storage/spill.py);
`scrapy replayspill` writes it later.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool
from scrapy import Request, signals

from crawler import defaults
from crawler.items import WEAK_CATEGORIES, PageItem, UncrawledItem
from crawler.search.outbox import UPSERT, enqueue_index_operations
from crawler.storage.database import crawl_database
from crawler.storage.spill import append_items, spill_path
from crawler.urls import scheduled_url

logger = logging.getLogger(__name__)

_PAGES_SQL = """
INSERT INTO pages (crawl_id, url, final_url, host, status, content_type, fetched_at,
                   last_modified, depth, title, text, content_md5, size, weight, relevant,
                   etag)
SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::text[], %s::int[], %s::text[],
                         %s::timestamptz[], %s::timestamptz[], %s::int[], %s::text[],
                         %s::text[], %s::text[], %s::int[], %s::float8[], %s::bool[],
                         %s::text[])
ON CONFLICT (crawl_id, url) DO UPDATE SET
    final_url = EXCLUDED.final_url, host = EXCLUDED.host, status = EXCLUDED.status,
    content_type = EXCLUDED.content_type, fetched_at = EXCLUDED.fetched_at,
    last_modified = EXCLUDED.last_modified, depth = LEAST(pages.depth, EXCLUDED.depth),
    title = EXCLUDED.title, text = EXCLUDED.text, content_md5 = EXCLUDED.content_md5,
    size = EXCLUDED.size, weight = EXCLUDED.weight, relevant = EXCLUDED.relevant,
    etag = EXCLUDED.etag, removed_at = NULL
"""

_LINKS_SQL = """
INSERT INTO links (crawl_id, source_url, target_url, anchor_text, visibility, position, distance)
SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::text[], %s::smallint[], %s::smallint[],
                         %s::smallint[])
ON CONFLICT (crawl_id, source_url, target_url) DO UPDATE SET
    anchor_text = EXCLUDED.anchor_text, visibility = EXCLUDED.visibility,
    position = EXCLUDED.position, distance = EXCLUDED.distance
"""

# A URL stored as a page is no longer uncrawled (e.g. it failed once, then succeeded).
_CLEAR_UNCRAWLED_SQL = "DELETE FROM uncrawled WHERE crawl_id = %s AND url = ANY(%s::text[])"
# A stored page that became a duplicate of a more important copy is no longer a page
# (crawler/dedup/authority.py): pages and uncrawled never share a URL.
_CLEAR_DEMOTED_PAGES_SQL = "DELETE FROM pages WHERE crawl_id = %s AND url = ANY(%s::text[])"

_UNCRAWLED_SQL = """
INSERT INTO uncrawled (crawl_id, url, category, detail, at)
SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::text[], %s::timestamptz[])
ON CONFLICT (crawl_id, url) DO UPDATE SET
    category = EXCLUDED.category, detail = EXCLUDED.detail, at = EXCLUDED.at
"""




def _clean(text: str) -> str:
    # PostgreSQL text cannot hold NUL characters; hostile pages do contain them.
    return text.replace("\x00", "") if "\x00" in text else text


async def write_batch(
    conn: psycopg.AsyncConnection[Any],
    crawl_id: str,
    pages: list[PageItem],
    uncrawled: list[UncrawledItem],
) -> int:
    """Upsert one batch of pages (with their links) and uncrawled URLs of a crawl in one
    transaction and one round trip, with one search outbox ``upsert`` per page (the
    indexer indexes what this transaction stored); returns the number of links
    upserted. Idempotent (the outbox operations too, when applied): the
    pipeline's writes and the replay of spill files (`scrapy replayspill`) go through here.
    """
    links: dict[tuple[str, str], tuple[str, int, int, int]] = {}
    for page in pages:
        for ln in page.links:
            links.setdefault(
                (page.url, ln.target_url),
                (_clean(ln.anchor_text), ln.visibility, ln.position, ln.distance),
            )
    async with conn.transaction(), conn.pipeline():
        if pages:
            await conn.execute(
                _PAGES_SQL,
                (
                    crawl_id,
                    [p.url for p in pages],
                    [p.final_url for p in pages],
                    [p.host for p in pages],
                    [p.status for p in pages],
                    [p.content_type for p in pages],
                    [p.fetched_at for p in pages],
                    [p.last_modified for p in pages],
                    [p.depth for p in pages],
                    [_clean(p.title) for p in pages],
                    [_clean(p.text) for p in pages],
                    [p.content_md5 for p in pages],
                    [p.size for p in pages],
                    [p.weight for p in pages],
                    [p.relevant for p in pages],
                    [p.etag for p in pages],
                ),
            )
            await conn.execute(_CLEAR_UNCRAWLED_SQL, (crawl_id, [p.url for p in pages]))
        if links:
            keys = list(links)
            values = [links[k] for k in keys]
            await conn.execute(
                _LINKS_SQL,
                (
                    crawl_id,
                    [k[0] for k in keys],
                    [k[1] for k in keys],
                    [v[0] for v in values],
                    [v[1] for v in values],
                    [v[2] for v in values],
                    [v[3] for v in values],
                ),
            )
        if uncrawled:
            await conn.execute(
                _UNCRAWLED_SQL,
                (
                    crawl_id,
                    [u.url for u in uncrawled],
                    [u.category for u in uncrawled],
                    [_clean(u.detail) for u in uncrawled],
                    [u.at for u in uncrawled],
                ),
            )
        duplicates = [u.url for u in uncrawled if u.category == "duplicate_content"]
        if duplicates:
            await conn.execute(_CLEAR_DEMOTED_PAGES_SQL, (crawl_id, duplicates))
        if pages:
            # last: the outbox lock is held from here to the commit (crawler/search/outbox.py)
            await enqueue_index_operations(conn, crawl_id, [p.url for p in pages], UPSERT)
    return len(links)


class PostgresStorePipeline:
    """Item pipeline writing PageItem and UncrawledItem rows in batches."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        settings = crawler.settings
        self.database = crawl_database(crawler)
        self.batch_size = settings.getint("STORE_BATCH_SIZE", defaults.STORE_BATCH_SIZE)
        self.flush_interval = settings.getfloat(
            "STORE_FLUSH_INTERVAL", defaults.STORE_FLUSH_INTERVAL
        )
        self.attempts = max(
            1, settings.getint("STORE_WRITE_ATTEMPTS", defaults.STORE_WRITE_ATTEMPTS)
        )
        data_dir = settings.get("CRAWLER_DATA_DIR", defaults.CRAWLER_DATA_DIR)
        self.spill_dir = Path(data_dir) / "spill"
        self.pages: dict[str, PageItem] = {}
        self.uncrawled: dict[str, UncrawledItem] = {}
        self.pool: AsyncConnectionPool | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._stopping: asyncio.Event | None = None
        self._lock = asyncio.Lock()
        crawler.signals.connect(self.request_dropped, signal=signals.request_dropped)

    @classmethod
    def from_crawler(cls, crawler: Any) -> PostgresStorePipeline:
        return cls(crawler)

    @property
    def crawl_id(self) -> str:
        return self.crawler.spider.crawl_id

    async def open_spider(self) -> None:
        self.database.prepare()
        self.pool = AsyncConnectionPool(self.database.url, min_size=1, max_size=2, open=False)
        await self.pool.open(wait=True)
        self._stopping = asyncio.Event()
        self._flusher = asyncio.get_running_loop().create_task(self._flush_periodically())

    async def close_spider(self) -> None:
        if self._flusher is not None:
            # Never cancel the flusher: a cancelled write would lose the batch it holds.
            assert self._stopping is not None
            self._stopping.set()
            await self._flusher
            self._flusher = None
        await self.flush()
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    async def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem):
            self.pages[item.url] = item
            self.uncrawled.pop(item.url, None)
        elif isinstance(item, UncrawledItem):
            self.add_uncrawled(item)
        else:
            return item
        if len(self.pages) + len(self.uncrawled) >= self.batch_size:
            await self.flush()
        return item

    def add_uncrawled(self, item: UncrawledItem) -> None:
        if item.category in WEAK_CATEGORIES and (
            item.url in self.pages or item.url in self.uncrawled
        ):
            # a refusal by depth or trap rules never hides what really happened to a URL
            return
        if item.at is None:
            item.at = datetime.now(UTC)
        self.uncrawled[item.url] = item

    def request_dropped(self, request: Request) -> None:
        # A redirect to a URL already seen is dropped by the URL-seen test: the URL that
        # was scheduled must still be accounted for.
        if request.meta.get("redirect_urls"):
            first = scheduled_url(request)
            if first not in self.pages:
                self.add_uncrawled(
                    UncrawledItem(first, "duplicate_url", f"redirects to {request.url}")
                )

    async def _flush_periodically(self) -> None:
        assert self._stopping is not None
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(self._stopping.wait(), timeout=self.flush_interval)
            except TimeoutError:
                pass
            try:
                await self.flush()
            except Exception:  # keep flushing; the error is logged in flush()
                logger.exception("periodic flush failed")

    async def flush(self) -> None:
        async with self._lock:
            if not self.pages and not self.uncrawled:
                return
            pages, self.pages = list(self.pages.values()), {}
            uncrawled, self.uncrawled = list(self.uncrawled.values()), {}
            for attempt in range(1, self.attempts + 1):
                try:
                    await self._write(pages, uncrawled)
                except Exception as exc:
                    if not isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
                        # not a connection problem: retrying cannot help, keep the rows
                        logger.exception("cannot write a batch")
                        break
                    logger.warning(
                        "writing a batch of %d pages / %d uncrawled failed (attempt %d/%d): %s",
                        len(pages), len(uncrawled), attempt, self.attempts, exc,
                    )
                    if attempt < self.attempts:
                        await asyncio.sleep(min(2.0**attempt, 10.0))
                    continue
                self.stats.inc_value("store/pages", len(pages))
                self.stats.inc_value("store/uncrawled", len(uncrawled))
                self.stats.inc_value("store/batches")
                return
            self._spill(pages, uncrawled)

    async def _write(self, pages: list[PageItem], uncrawled: list[UncrawledItem]) -> None:
        assert self.pool is not None, "pipeline not opened"
        async with self.pool.connection() as conn:
            await write_batch(conn, self.crawl_id, pages, uncrawled)

    def _spill(self, pages: list[PageItem], uncrawled: list[UncrawledItem]) -> None:
        path = spill_path(self.spill_dir, self.crawl_id)
        rows = append_items(path, self.crawl_id, [*pages, *uncrawled])
        self.stats.inc_value("store/spilled", rows)
        logger.error(
            "database %s unavailable: %d rows spilled to %s (replay: scrapy replayspill)",
            self.database.display_url, rows, path,
        )
