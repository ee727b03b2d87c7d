"""The `crawls` row of a crawl: its arguments at start, its final stats at the end.

Built first among the components (extensions are created before the engine), it also
gets the database ready, so an unreachable database stops the crawl before any fetch.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from scrapy import signals
from scrapy.utils.misc import load_object
from scrapy.utils.serialize import ScrapyJSONEncoder

from crawler.schedulers.best_first import ERROR_STAT
from crawler.storage.database import crawl_database

logger = logging.getLogger(__name__)


_COMPONENTS = ("EXTENSIONS", "DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES")


def import_components(settings: Any) -> None:
    """Import the classes of a crawl's components (what Scrapy builds next). A path that
    does not load is left for Scrapy to report when it builds that component."""
    paths = [
        path
        for name in _COMPONENTS
        for path, order in settings.getwithbase(name).items()
        if order is not None
    ]
    paths.append(settings.get("SCHEDULER"))
    for path in paths:
        if isinstance(path, str):
            try:
                load_object(path)
            except Exception:  # noqa: BLE001, S112 - Scrapy reports it where it builds it
                continue


class CrawlRecord:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.database = crawl_database(crawler)
        # The database is being made ready on a thread (begun by the spider). The modules
        # of the components Scrapy builds after this extension are imported first, while
        # the server applies the migrations, instead of after waiting for them: about 1 s
        # of the main thread's imports (the TLS stack the robots middleware pulls in,
        # the frontier) at load 9 (docs/performance.md, "First seconds of a crawl").
        import_components(crawler.settings)
        self.database.prepare()
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        # The embedded server must outlive every component that writes to it.
        crawler.signals.connect(self.engine_stopped, signal=signals.engine_stopped)

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlRecord:
        return cls(crawler)

    def spider_opened(self, spider: Any) -> None:
        if self.crawler.stats.get_value(ERROR_STAT):
            return  # refused to run: the crawl's row is another process's
        crawl_id = getattr(spider, "crawl_id", None) or spider.name
        arguments = json.dumps(getattr(spider, "arguments", {}), cls=ScrapyJSONEncoder)
        with self.database.connect(autocommit=True) as conn:
            row = conn.execute(
                "INSERT INTO crawls (id, spider, arguments) VALUES (%s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET finished_at = NULL, finish_reason = NULL "
                "RETURNING (xmax <> 0) AS resumed",
                (crawl_id, spider.name, arguments),
            ).fetchone()
        resumed = bool(row and row[0])
        logger.info(
            "%s crawl %s (database: %s)",
            "resuming" if resumed else "starting", crawl_id, self.database.display_url,
        )
        self.crawler.stats.set_value("crawl/id", crawl_id)

    def spider_closed(self, spider: Any, reason: str) -> None:
        if self.crawler.stats.get_value(ERROR_STAT):
            return  # refused to run, or gave the database up (cut off)
        crawl_id = getattr(spider, "crawl_id", None) or spider.name
        stats = json.dumps(self.crawler.stats.get_stats(), cls=ScrapyJSONEncoder)
        with self.database.connect(autocommit=True) as conn:
            conn.execute(
                "UPDATE crawls SET finished_at = now(), finish_reason = %s, stats = %s "
                "WHERE id = %s",
                (reason, stats, crawl_id),
            )

    def engine_stopped(self) -> None:
        self.database.close()
