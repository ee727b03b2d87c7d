"""Item pipeline indexing every stored page into the Whoosh search index.

Pages are buffered and handed to one writer in batches, one commit per batch: when
SEARCH_BATCH_SIZE pages wait, every SEARCH_COMMIT_INTERVAL seconds, and when the spider
closes. The writer runs in a process of its own (SEARCH_INDEX_PROCESS, default) or in a
worker thread, so the crawl keeps going while text is analysed. Searches (``scrapy
search``, ``scrapy serve``) see each commit as it lands. A page fetched again replaces its
document. The index lives in SEARCH_INDEX_DIR (default CRAWLER_DATA_DIR/index).

Stats: search_index/pages, search_index/commits, search_index/failed, and
search_index/wait_seconds (time the crawl waited for an indexer process that was behind).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.items import PageItem
from crawler.search.index import IndexWriter, index_path, open_index
from crawler.search.indexer import BackgroundIndexer, IndexerReport
from crawler.search.schema import page_document

logger = logging.getLogger(__name__)


class SearchIndexPipeline:
    """Indexes PageItems; other items pass through untouched."""

    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        if not settings.getbool("SEARCH_INDEX_ENABLED", defaults.SEARCH_INDEX_ENABLED):
            raise NotConfigured("SEARCH_INDEX_ENABLED is off")
        self.crawler = crawler
        self.stats = crawler.stats
        self.path = index_path(settings)
        self.batch_size = max(1, settings.getint("SEARCH_BATCH_SIZE", defaults.SEARCH_BATCH_SIZE))
        self.commit_interval = settings.getfloat(
            "SEARCH_COMMIT_INTERVAL", defaults.SEARCH_COMMIT_INTERVAL
        )
        self.writer_timeout = settings.getfloat(
            "SEARCH_WRITER_TIMEOUT", defaults.SEARCH_WRITER_TIMEOUT
        )
        self.max_body_chars = settings.getint(
            "SEARCH_MAX_BODY_CHARS", defaults.SEARCH_MAX_BODY_CHARS
        )
        self.in_crawl_process = not settings.getbool(
            "SEARCH_INDEX_PROCESS", defaults.SEARCH_INDEX_PROCESS
        )
        self.pending: dict[str, dict[str, Any]] = {}
        self.indexer: BackgroundIndexer | None = None
        self.writer: IndexWriter | None = None
        self._ix: Any = None
        self._lock = asyncio.Lock()
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> SearchIndexPipeline:
        return cls(crawler)

    async def open_spider(self) -> None:
        # opened here first: a missing folder is created, an old schema fails the crawl early
        self._ix = await asyncio.to_thread(open_index, self.path)
        if self.in_crawl_process:
            self.writer = IndexWriter(self._ix, writer_timeout=self.writer_timeout)
        else:
            self._ix.close()
            self._ix = None
            self.indexer = BackgroundIndexer(self.path, writer_timeout=self.writer_timeout)
            await asyncio.to_thread(self.indexer.start)
        logger.info("indexing pages into %s", self.path)
        if self.commit_interval > 0:
            self._flusher = asyncio.get_running_loop().create_task(self._flush_periodically())

    async def close_spider(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
            self._flusher = None
        await self.flush()
        if self.indexer is not None:
            self._account(await asyncio.to_thread(self.indexer.close))
            self.indexer = None
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    async def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem):
            spider = self.crawler.spider
            self.pending[item.url] = page_document(
                url=item.url,
                title=item.title,
                text=item.text,
                host=item.host,
                content_type=item.content_type,
                fetched_at=item.fetched_at,
                last_modified=item.last_modified,
                depth=item.depth,
                crawl_id=str(getattr(spider, "crawl_id", "") or ""),
                max_body_chars=self.max_body_chars,
                anchors=[link.anchor_text for link in item.links],
            )
            if len(self.pending) >= self.batch_size:
                await self.flush()
        return item

    async def _flush_periodically(self) -> None:
        while True:
            await asyncio.sleep(self.commit_interval)
            await self.flush()

    async def flush(self) -> None:
        async with self._lock:
            if self.indexer is not None:
                self._account(self.indexer.reports())
            if not self.pending:
                return
            docs, self.pending = list(self.pending.values()), {}
            try:
                if self.indexer is not None:
                    started = time.monotonic()
                    await asyncio.to_thread(self.indexer.submit, docs)
                    # time the crawl waited because the indexer was behind (queue full)
                    waited = time.monotonic() - started
                    if waited > 0.05:
                        self.stats.inc_value("search_index/wait_seconds", round(waited, 3))
                elif self.writer is not None:
                    written = await asyncio.to_thread(self.writer.write, docs)
                    self._account(IndexerReport(pages=written, commits=1))
            except Exception as exc:
                self._account(IndexerReport(failed=len(docs), errors=[repr(exc)]))

    def _account(self, report: IndexerReport) -> None:
        for error in report.errors:
            # the pages are in PostgreSQL: `scrapy reindex` recovers them
            logger.error("indexing into %s failed: %s", self.path, error)
        if report.pages:
            self.stats.inc_value("search_index/pages", report.pages)
        if report.commits:
            self.stats.inc_value("search_index/commits", report.commits)
        if report.failed:
            self.stats.inc_value("search_index/failed", report.failed)
