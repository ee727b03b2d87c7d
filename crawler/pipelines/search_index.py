"""Item pipeline keeping the Whoosh search index up to date during a crawl.

Pages reach the index through PostgreSQL, not through this pipeline: the storage
pipeline appends a search outbox operation in the transaction that stores each page
(crawler/search/outbox.py), and the one indexer of the index folder applies them
(crawler/search/indexer.py), one commit per batch (at most SEARCH_BATCH_SIZE pages,
polled every SEARCH_COMMIT_INTERVAL seconds). So any number of agents of a crawl, and
`scrapy index`, can share one index: Whoosh keeps its single writer.

This pipeline starts an indexer for its crawl when the spider opens: in a process of its
own (SEARCH_INDEX_PROCESS, default; niceness SEARCH_INDEXER_NICE, SCHED_IDLE with
SEARCH_INDEXER_IDLE: it takes only the CPU the crawl leaves) or in a thread. When
another indexer already holds the folder (another agent, `scrapy index --follow`), it
waits on standby and takes over if that one quits. When the spider closes (after the
last pages are stored) it applies what it can within SEARCH_INDEX_CLOSE_TIMEOUT seconds
and exits; the rest stays in PostgreSQL's search_outbox, applied by the next indexer of
the folder (`scrapy index`, the next crawl into it), and the log says how much.
An indexer that dies is restarted; the pages are in PostgreSQL and nothing is lost.

Stats: search_index/pages, search_index/deleted, search_index/commits,
search_index/failed (operations of batches that failed; they are retried),
search_index/restarts, search_index/close_seconds, search_index/left_in_outbox
(operations not applied when the crawl's indexer stopped).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawler import defaults
from crawler.search.index import index_path, open_index, search_backend
from crawler.search.indexer import (
    IndexerConfig,
    IndexerHandle,
    IndexerReport,
    index_key,
    outbox_backlog,
    register_crawls,
)
from crawler.search.pending import note_pending
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
        batch_seconds=settings.getfloat("SEARCH_BATCH_SECONDS", defaults.SEARCH_BATCH_SECONDS),
        writer_timeout=settings.getfloat("SEARCH_WRITER_TIMEOUT", defaults.SEARCH_WRITER_TIMEOUT),
        max_body_chars=settings.getint("SEARCH_MAX_BODY_CHARS", defaults.SEARCH_MAX_BODY_CHARS),
        max_names=settings.getint("SEARCH_NAMES_PER_PAGE", defaults.SEARCH_NAMES_PER_PAGE),
        limitmb=settings.getint("SEARCH_WRITER_LIMITMB", defaults.SEARCH_WRITER_LIMITMB),
        merge_every=settings.getint("SEARCH_MERGE_EVERY", defaults.SEARCH_MERGE_EVERY),
        nice=settings.getint("SEARCH_INDEXER_NICE", defaults.SEARCH_INDEXER_NICE),
        idle=settings.getbool("SEARCH_INDEXER_IDLE", defaults.SEARCH_INDEXER_IDLE),
        backend=search_backend(settings),
    )


def close_timeout_setting(settings: Any) -> float | None:
    """SEARCH_INDEX_CLOSE_TIMEOUT in seconds; None (a negative value): no limit."""
    value = settings.getfloat("SEARCH_INDEX_CLOSE_TIMEOUT", defaults.SEARCH_INDEX_CLOSE_TIMEOUT)
    return None if value < 0 else value


class SearchIndexPipeline:
    """Runs the crawl's indexer; items pass through untouched.

    ``config`` is the indexer's configuration; its database URL is filled in when the
    spider opens (an embedded database has one only once it is started).
    """

    def __init__(
        self,
        crawler: Any,
        config: IndexerConfig,
        *,
        in_process: bool,
        close_timeout: float | None = defaults.SEARCH_INDEX_CLOSE_TIMEOUT,
    ) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.database = crawl_database(crawler)
        self.config = config
        self.path = Path(config.index_path)
        self.poll_interval = config.poll_interval
        self.in_process = in_process
        self.close_timeout = close_timeout
        self.crawl_id = ""
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
            close_timeout=close_timeout_setting(settings),
        )

    async def open_spider(self) -> None:
        # opened here first: a missing folder is created, an old schema fails the crawl early
        ix = await asyncio.to_thread(open_index, self.path, backend=self.config.backend)
        ix.close()
        await asyncio.to_thread(self.database.prepare)
        crawl_id = self.crawl_id = str(self.crawler.spider.crawl_id)
        config = dataclasses.replace(self.config, database_url=self.database.url)
        self.indexer = IndexerHandle(config, [crawl_id], in_process=self.in_process)
        self.indexer.start()  # on the main thread: see IndexerHandle.start
        logger.info("indexing the pages of crawl %s into %s", crawl_id, self.path)
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def close_spider(self) -> None:
        pass  # the storage pipeline may still be writing: see spider_closed

    async def spider_closed(self, spider: Any, reason: str) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        if self.indexer is None:
            return
        indexer, self.indexer = self.indexer, None
        started = time.monotonic()
        report, finished = await asyncio.to_thread(indexer.stop, self.close_timeout)
        self._account(report)
        seconds = time.monotonic() - started
        self.stats.set_value("search_index/close_seconds", round(seconds, 3))
        try:
            ops, urls = await asyncio.to_thread(self._backlog)
        except Exception as exc:  # noqa: BLE001 - the pages and their outbox rows are safe
            logger.warning("search index: cannot count what is left in the outbox: %s", exc)
            return
        self.stats.set_value("search_index/left_in_outbox", ops)
        # for `scrapy search` and `scrapy serve`, which do not read the database
        await asyncio.to_thread(note_pending, self.path, self.crawl_id, ops, urls)
        if ops:
            logger.info(
                "search index: stopped after %.1f s%s with %d outbox operations (%d pages) "
                "of crawl %s not applied to %s: they stay in PostgreSQL (table "
                "search_outbox) and the next indexer of that folder applies them: `scrapy "
                "index` (`--follow` beside `scrapy serve`) or the next crawl into it "
                "(SEARCH_INDEX_CLOSE_TIMEOUT)",
                seconds,
                "" if finished else " (terminated: a batch it was applying is applied again)",
                ops,
                urls,
                self.crawl_id,
                self.path,
            )
        else:
            logger.info(
                "search index: every stored page of crawl %s is in %s (%.1f s at close)",
                self.crawl_id,
                self.path,
                seconds,
            )

    def _backlog(self) -> tuple[int, int]:
        """(operations, pages) of the crawl's outbox the folder has not applied; the
        crawl is registered with the folder first, so that the next indexer of the
        folder applies them even if this one never got to register it."""
        key = index_key(self.path)
        with self.database.connect(autocommit=True) as conn:
            register_crawls(conn, key, [self.crawl_id])
            return outbox_backlog(conn, key, self.crawl_id)

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
                indexer.restart()  # on the main thread: see IndexerHandle.start

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
