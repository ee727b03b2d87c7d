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
import concurrent.futures
import logging
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool
from scrapy import Request, signals
from scrapy.http import Response

from crawler import defaults
from crawler.content import join_headings
from crawler.items import RECEIVED_AT_META, WEAK_CATEGORIES, PageItem, UncrawledItem
from crawler.scope.gate import OUT_OF_SCOPE, SCOPE_REFUSAL_META
from crawler.search.outbox import UPSERT, enqueue_index_operations
from crawler.storage.database import CrawlDatabase, crawl_database
from crawler.storage.flush_schedule import FlushSchedule
from crawler.storage.loop_thread import LoopThread
from crawler.storage.spill import append_items, spill_path
from crawler.urls import scheduled_url

logger = logging.getLogger(__name__)

_PAGES_SQL = """
INSERT INTO pages (crawl_id, url, final_url, host, status, content_type, fetched_at,
                   last_modified, depth, title, text, content_md5, size, weight, relevant,
                   etag, main_text, headings, lang, names)
SELECT %s, * FROM unnest(%b::text[], %b::text[], %b::text[], %b::int[], %b::text[],
                         %b::timestamptz[], %b::timestamptz[], %b::int[], %b::text[],
                         %b::text[], %b::text[], %b::int[], %b::float8[], %b::bool[],
                         %b::text[], %b::text[], %b::text[], %b::text[], %b::text[])
ON CONFLICT (crawl_id, url) DO UPDATE SET
    final_url = EXCLUDED.final_url, host = EXCLUDED.host, status = EXCLUDED.status,
    content_type = EXCLUDED.content_type, fetched_at = EXCLUDED.fetched_at,
    last_modified = EXCLUDED.last_modified, depth = LEAST(pages.depth, EXCLUDED.depth),
    title = EXCLUDED.title, text = EXCLUDED.text, content_md5 = EXCLUDED.content_md5,
    size = EXCLUDED.size, weight = EXCLUDED.weight, relevant = EXCLUDED.relevant,
    etag = EXCLUDED.etag, main_text = EXCLUDED.main_text, headings = EXCLUDED.headings,
    lang = EXCLUDED.lang, names = EXCLUDED.names, removed_at = NULL
"""

_LINKS_SQL = """
INSERT INTO links (crawl_id, source_url, target_url, anchor_text, visibility, position, distance,
                   context)
SELECT %s, * FROM unnest(%b::text[], %b::text[], %b::text[], %b::smallint[], %b::smallint[],
                         %b::smallint[], %b::text[])
ON CONFLICT (crawl_id, source_url, target_url) DO UPDATE SET
    anchor_text = EXCLUDED.anchor_text, visibility = EXCLUDED.visibility,
    position = EXCLUDED.position, distance = EXCLUDED.distance, context = EXCLUDED.context
"""

# A URL stored as a page is no longer uncrawled (e.g. it failed once, then succeeded).
_CLEAR_UNCRAWLED_SQL = "DELETE FROM uncrawled WHERE crawl_id = %s AND url = ANY(%b::text[])"
# A stored page that became a duplicate of a more important copy is no longer a page
# (crawler/dedup/authority.py): pages and uncrawled never share a URL.
_CLEAR_DEMOTED_PAGES_SQL = "DELETE FROM pages WHERE crawl_id = %s AND url = ANY(%b::text[])"

_UNCRAWLED_SQL = """
INSERT INTO uncrawled (crawl_id, url, category, detail, at)
SELECT %s, * FROM unnest(%b::text[], %b::text[], %b::text[], %b::timestamptz[])
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
    links: dict[tuple[str, str], tuple[str, int, int, int, str]] = {}
    for page in pages:
        for ln in page.links:
            links.setdefault(
                (page.url, ln.target_url),
                (
                    _clean(ln.anchor_text), ln.visibility, ln.position, ln.distance,
                    _clean(ln.context),
                ),
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
                    [None if p.main_text is None else _clean(p.main_text) for p in pages],
                    [_clean(join_headings(p.headings)) for p in pages],
                    [p.lang for p in pages],
                    [_clean(join_headings(p.names)) for p in pages],
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
                    [v[4] for v in values],
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
        if pages or duplicates:
            # last: the outbox lock is held from here to the commit (crawler/search/outbox.py);
            # a demoted copy's row is gone, so its upsert gives its document to another
            # crawl of the index folder that still stores the URL, or takes it out
            await enqueue_index_operations(
                conn, crawl_id, [p.url for p in pages] + duplicates, UPSERT
            )
    return len(links)


class PostgresStorePipeline:
    """Item pipeline writing PageItem and UncrawledItem rows in batches.

    ``process_item`` only buffers. The writes run in a thread of their own with its own
    event loop (crawler/storage/loop_thread.py), so that a batch's commit never waits
    behind the parsing of the responses queued on the crawl's loop; a batch is written
    when its oldest row is STORE_FLUSH_INTERVAL old (minus the time a write takes,
    crawler/storage/flush_schedule.py), a page's age counting from its response's
    arrival, or when it holds STORE_BATCH_SIZE rows. That bounds what a `kill -9` loses
    (docs/performance.md, kill window).
    """

    def __init__(
        self,
        crawler: Any,
        database: CrawlDatabase,
        *,
        batch_size: int,
        flush_interval: float,
        attempts: int,
        spill_dir: Path,
    ) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.database = database
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.attempts = max(1, attempts)
        self.spill_dir = spill_dir
        # the buffer: filled on the crawl's loop, emptied by the writer thread
        self.pages: dict[str, PageItem] = {}
        self.uncrawled: dict[str, UncrawledItem] = {}
        self.schedule = FlushSchedule(flush_interval, batch_size)
        self._buffer_lock = threading.Lock()
        self.pool: AsyncConnectionPool | None = None  # lives on the writer thread's loop
        self.writer: LoopThread | None = None
        self._writer_task: concurrent.futures.Future[None] | None = None
        self._wake: asyncio.Event | None = None  # the writer loop's
        self._closing = False
        self._write_lock: asyncio.Lock | None = None  # the writer loop's
        crawler.signals.connect(self.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(self.response_received, signal=signals.response_received)

    @classmethod
    def from_crawler(cls, crawler: Any) -> PostgresStorePipeline:
        settings = crawler.settings
        data_dir = settings.get("CRAWLER_DATA_DIR", defaults.CRAWLER_DATA_DIR)
        return cls(
            crawler,
            crawl_database(crawler),
            batch_size=settings.getint("STORE_BATCH_SIZE", defaults.STORE_BATCH_SIZE),
            flush_interval=settings.getfloat("STORE_FLUSH_INTERVAL", defaults.STORE_FLUSH_INTERVAL),
            attempts=settings.getint("STORE_WRITE_ATTEMPTS", defaults.STORE_WRITE_ATTEMPTS),
            spill_dir=Path(data_dir) / "spill",
        )

    @property
    def crawl_id(self) -> str:
        return self.crawler.spider.crawl_id

    async def open_spider(self) -> None:
        self.database.prepare()
        self.writer = LoopThread("postgres-store-writer").start()
        try:
            await self.writer.run(self._open_pool())
        except BaseException:
            self.writer.stop()
            self.writer = None
            raise
        self._writer_task = self.writer.submit(self._write_loop())

    async def _open_pool(self) -> None:
        self._wake = asyncio.Event()
        self._write_lock = asyncio.Lock()
        self.pool = AsyncConnectionPool(self.database.url, min_size=1, max_size=2, open=False)
        await self.pool.open(wait=True)

    async def close_spider(self) -> None:
        if self.writer is None:
            return
        writer, self.writer = self.writer, None
        self._closing = True
        writer.call_soon(self._wake_writer)
        try:
            if self._writer_task is not None:
                # never cancelled: a cancelled write would lose the batch it holds
                await asyncio.wrap_future(self._writer_task)
        except Exception:
            logger.exception("the storage writer failed")
            self.stats.inc_value("store/writer_errors")
        finally:
            self._writer_task = None
            try:
                await writer.run(self._flush_and_close())
            finally:
                writer.stop()

    async def _flush_and_close(self) -> None:
        try:
            await self._flush_buffer()  # what the writer loop could not write, if it died
        finally:
            if self.pool is not None:
                await self.pool.close()
                self.pool = None
            # all the writer thread's CPU: bench/crawl_speed.py's "storage" stage
            self.stats.set_value("store/writer_cpu_seconds", round(time.thread_time(), 6))

    def response_received(self, response: Response, request: Request) -> None:
        # sent before the response waits in Scrapy's scraper queue to be parsed
        request.meta[RECEIVED_AT_META] = time.time()

    async def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem):
            now = time.time()
            at = now
            if item.received_at is not None:
                # the deadline counts from the response's arrival, so that its wait to be
                # parsed counts against STORE_FLUSH_INTERVAL; a stamp older than one
                # interval (or from the future) only makes the write start now
                at = min(now, max(item.received_at, now - self.flush_interval))
            with self._buffer_lock:
                self.pages[item.url] = item
                self.uncrawled.pop(item.url, None)
                # not fetched_at: the spider sets it while parsing, and replayed or test
                # items carry any time
                wake = self.schedule.added(at)
        elif isinstance(item, UncrawledItem):
            wake = self.add_uncrawled(item)
        else:
            return item
        if wake and self.writer is not None:
            self.writer.call_soon(self._wake_writer)
        return item

    def add_uncrawled(self, item: UncrawledItem) -> bool:
        """Buffer ``item``; True when the writer must look at the buffer again."""
        with self._buffer_lock:
            if item.category in WEAK_CATEGORIES and (
                item.url in self.pages or item.url in self.uncrawled
            ):
                # a refusal by depth or trap rules never hides what really happened to a URL
                return False
            if item.at is None:
                item.at = datetime.now(UTC)
            self.uncrawled[item.url] = item
            return self.schedule.added(time.time())

    def request_dropped(self, request: Request) -> None:
        refusal = request.meta.get(SCOPE_REFUSAL_META)
        if refusal is not None:
            # refused by the crawl scope, and to be recorded (crawler/scope/gate.py)
            wake = self.add_uncrawled(UncrawledItem(scheduled_url(request), OUT_OF_SCOPE, refusal))
            if wake and self.writer is not None:
                self.writer.call_soon(self._wake_writer)
            return
        # A redirect to a URL already seen is dropped by the URL-seen test: the URL that
        # was scheduled must still be accounted for.
        if request.meta.get("redirect_urls"):
            first = scheduled_url(request)
            if first not in self.pages:
                wake = self.add_uncrawled(
                    UncrawledItem(first, "duplicate_url", f"redirects to {request.url}")
                )
                if wake and self.writer is not None:
                    self.writer.call_soon(self._wake_writer)

    # ------------------------------------------------------------------ writer thread

    def _wake_writer(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _write_loop(self) -> None:
        """Write each batch when the schedule says so, until the spider closes; then
        write what is left."""
        assert self._wake is not None
        while not self._closing:
            with self._buffer_lock:
                delay = self.schedule.delay(time.time())
            if delay is None or delay > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)
                except TimeoutError:
                    pass
                self._wake.clear()
                continue
            try:
                await self._flush_buffer()
            except Exception:  # keep writing; the rows were spilled or are logged
                logger.exception("a storage write failed")
                self.stats.inc_value("store/writer_errors")
        await self._flush_buffer()

    async def flush(self) -> None:
        """Write every buffered row now (from the crawl's loop)."""
        if self.writer is None:
            raise RuntimeError("pipeline not opened")
        await self.writer.run(self._flush_buffer())

    async def _flush_buffer(self) -> None:
        assert self._write_lock is not None
        async with self._write_lock:
            with self._buffer_lock:
                if not self.pages and not self.uncrawled:
                    return
                pages, self.pages = list(self.pages.values()), {}
                uncrawled, self.uncrawled = list(self.uncrawled.values()), {}
                self.schedule.taken()
            started = time.monotonic()
            written = await self._write_with_retries(pages, uncrawled)
            if written:
                self.schedule.wrote(time.monotonic() - started)

    async def _write_with_retries(
        self, pages: list[PageItem], uncrawled: list[UncrawledItem]
    ) -> bool:
        """Write one batch; True if written, False if spilled."""
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
                    len(pages),
                    len(uncrawled),
                    attempt,
                    self.attempts,
                    exc,
                )
                if attempt < self.attempts:
                    await asyncio.sleep(min(2.0**attempt, 10.0))
                continue
            self.stats.inc_value("store/pages", len(pages))
            self.stats.inc_value("store/uncrawled", len(uncrawled))
            self.stats.inc_value("store/batches")
            return True
        self._spill(pages, uncrawled)
        return False

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
            self.database.display_url,
            rows,
            path,
        )
