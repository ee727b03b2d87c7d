"""Item pipeline keeping the Whoosh search index up to date during a crawl.

Pages reach the index through PostgreSQL, not through this pipeline: the storage
pipeline appends a search outbox operation in the transaction that stores each page
(crawler/search/outbox.py), and the one indexer of the index folder applies them
(crawler/search/indexer.py), one commit per batch (at most SEARCH_BATCH_SIZE pages,
polled every SEARCH_COMMIT_INTERVAL seconds). So any number of agents of a crawl, and
`scrapy index`, can share one index: Whoosh keeps its single writer.

This pipeline starts an indexer for its crawl when the spider opens: in a process of its
own (SEARCH_INDEX_PROCESS, default; niceness SEARCH_INDEXER_NICE) or in a thread. When
another indexer already holds the folder (another agent, `scrapy index --follow`), it
waits on standby and takes over if that one quits. When the spider closes (after the
last pages are stored) it applies what is left, or lets the holder do it, and exits. An
indexer that dies is restarted; the pages are in PostgreSQL and nothing is lost.

Stats: search_index/pages, search_index/deleted, search_index/commits,
search_index/failed (operations of batches that failed; they are retried),
search_index/restarts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.search.index import index_path, open_index, search_backend
from crawler.search.indexer import IndexerConfig, IndexerHandle, IndexerReport
from crawler.storage.database import crawl_database

logger = logging.getLogger(__name__)


def indexer_config(settings: Any, database_url: str) -> IndexerConfig:
    """The indexer's configuration from the settings (this pipeline's and `scrapy
    index`'s)."""
    return IndexerConfig(
        database_url=database_url,
        index_path=str(index_path(settings)),
        batch_size=max(1, settings.getint("SEARCH_BATCH_SIZE", defaults.SEARCH_BATCH_SIZE)),
        poll_interval=max(
            0.05, settings.getfloat("SEARCH_COMMIT_INTERVAL", defaults.SEARCH_COMMIT_INTERVAL)
        ),
        writer_timeout=settings.getfloat("SEARCH_WRITER_TIMEOUT", defaults.SEARCH_WRITER_TIMEOUT),
        max_body_chars=settings.getint("SEARCH_MAX_BODY_CHARS", defaults.SEARCH_MAX_BODY_CHARS),
        limitmb=settings.getint("SEARCH_WRITER_LIMITMB", defaults.SEARCH_WRITER_LIMITMB),
        merge_every=settings.getint("SEARCH_MERGE_EVERY", defaults.SEARCH_MERGE_EVERY),
        nice=settings.getint("SEARCH_INDEXER_NICE", defaults.SEARCH_INDEXER_NICE),
        backend=search_backend(settings),
    )


class SearchIndexPipeline:
    """Runs the crawl's indexer; items pass through untouched.

    ``config`` is the indexer's configuration; its database URL is filled in when the
    spider opens (an embedded database has one only once it is started).
    """

    def __init__(self, crawler: Any, config: IndexerConfig, *, in_process: bool) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.database = crawl_database(crawler)
        self.config = config
        self.path = Path(config.index_path)
        self.poll_interval = config.poll_interval
        self.in_process = in_process
        self.indexer: IndexerHandle | None = None
        self._watcher: asyncio.Task[None] | None = None
        # the last pages are stored when the pipelines have closed: stop the indexer after
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> SearchIndexPipeline:
        settings = crawler.settings
        if not settings.getbool("SEARCH_INDEX_ENABLED", defaults.SEARCH_INDEX_ENABLED):
            raise NotConfigured("SEARCH_INDEX_ENABLED is off")
        return cls(
            crawler,
            indexer_config(settings, database_url=""),
            in_process=settings.getbool("SEARCH_INDEX_PROCESS", defaults.SEARCH_INDEX_PROCESS),
        )

    async def open_spider(self) -> None:
        # opened here first: a missing folder is created, an old schema fails the crawl early
        ix = await asyncio.to_thread(open_index, self.path, backend=self.config.backend)
        ix.close()
        await asyncio.to_thread(self.database.prepare)
        crawl_id = str(self.crawler.spider.crawl_id)
        config = dataclasses.replace(self.config, database_url=self.database.url)
        self.indexer = IndexerHandle(config, [crawl_id], in_process=self.in_process)
        await asyncio.to_thread(self.indexer.start)
        logger.info("indexing the pages of crawl %s into %s", crawl_id, self.path)
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def close_spider(self) -> None:
        pass  # the storage pipeline may still be writing: see spider_closed

    async def spider_closed(self, spider: Any, reason: str) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        if self.indexer is not None:
            indexer, self.indexer = self.indexer, None
            self._account(await asyncio.to_thread(indexer.stop))

    async def process_item(self, item: Any) -> Any:
        return item

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            indexer = self.indexer
            if indexer is None:
                return
            self._account(indexer.reports())
            if not indexer.alive:
                logger.error("the search indexer of %s exited: restarting it", self.path)
                self.stats.inc_value("search_index/restarts")
                await asyncio.to_thread(indexer.restart)

    def _account(self, report: IndexerReport) -> None:
        for error in report.errors:
            # the operations stay in the outbox: they are applied again
            logger.error("indexing into %s failed: %s", self.path, error)
        for name, value in (
            ("pages", report.pages),
            ("deleted", report.deleted),
            ("commits", report.commits),
            ("failed", report.failed),
        ):
            if value:
                self.stats.inc_value(f"search_index/{name}", value)
